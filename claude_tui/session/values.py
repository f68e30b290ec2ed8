"""Reading untrusted JSON values defensively: the CLI's output must never crash the session."""

from __future__ import annotations

from typing import Any


def as_list(value: Any) -> list[Any]:
    """`value` if it is a list, else an empty list (None, a number, a string, an object…)."""
    return value if isinstance(value, list) else []
