"""Lenient where the world is messy: lines that are almost JSON, messages with one bad field.

Two repairs, both only on the slow path (a line the strict Rust decoder refused):

* `loads_lenient`: JSON with lone surrogate escapes (``"\\ud83d"``, which Node prints when output
  is cut inside an emoji) or invalid UTF-8 is decoded with U+FFFD in their place, instead of the
  whole line (a Bash output, a result) being dropped.
* `repair`: a known message whose validation failed on some fields is validated again without
  those fields, so a `result` with ``num_turns: "x"`` is still a result and still ends its turn.
  The dropped paths are logged and kept on the model (`dropped_fields`).

Strict where it matters: classes with ``lenient = False`` (permission requests, whose input we
would otherwise send back altered) are never repaired; they stay Unknown, as before.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

__all__ = ["loads_lenient", "repair", "scrub_surrogates", "LENIENT_FAILED"]

log = logging.getLogger("claude_tui.protocol")

LENIENT_FAILED = object()
"""Returned by `loads_lenient` when the text is not JSON even leniently."""

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
_MAX_ROUNDS = 4
_GONE = object()  # a value marked for removal while a repair copy is built


def scrub_surrogates(text: str) -> str:
    """`text` with every lone surrogate (unencodable: it would crash a write) as U+FFFD."""
    return _LONE_SURROGATE.sub("\ufffd", text) if _LONE_SURROGATE.search(text) else text


def _scrub(value: Any) -> Any:
    # After json.loads a valid pair is one astral character, so any surrogate left is lone.
    if isinstance(value, str):
        return scrub_surrogates(value)
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    if isinstance(value, dict):
        return {scrub_surrogates(k): _scrub(v) for k, v in value.items()}
    return value


def loads_lenient(line: bytes | str) -> Any:
    """Parse what the strict parser refused: bad UTF-8 and lone surrogates become U+FFFD.
    `LENIENT_FAILED` if it still is not JSON."""
    text = bytes(line).decode("utf-8", "replace") if isinstance(line, (bytes, bytearray, memoryview)) else line
    try:
        return _scrub(json.loads(text, strict=False))
    except (ValueError, RecursionError):
        return LENIENT_FAILED


def _exists(node: Any, key: Any) -> bool:
    if isinstance(node, dict):
        return key in node
    if isinstance(node, list):
        return isinstance(key, int) and -len(node) <= key < len(node)
    return False


def _drop_round(data: dict[str, Any], errors: list[Any]) -> tuple[dict[str, Any], list[str]] | None:
    """A copy of `data` without the value at each error's location (only the containers on those
    paths are copied; `data` itself is untouched). None if an error is about the message as a
    whole (a missing required top-level field, a wrong top-level type): nothing to drop then."""
    copied: set[int] = set()
    root = dict(data)
    copied.add(id(root))
    dropped: list[str] = []
    for error in errors:
        loc = tuple(error.get("loc", ()))
        node: Any = root
        target: tuple[Any, Any, int] | None = None
        for i, key in enumerate(loc):
            if not _exists(node, key):
                break  # e.g. a missing field, or a union member's label: drop the container
            target = (node, key, i + 1)
            child = node[key]
            if i == len(loc) - 1 or not isinstance(child, (dict, list)):
                break
            if id(child) not in copied:
                child = dict(child) if isinstance(child, dict) else list(child)
                node[key] = child
                copied.add(id(child))
            node = child
        if target is None:
            return None
        parent, key, depth = target
        if parent[key] is not _GONE:
            parent[key] = _GONE
            dropped.append(".".join(str(part) for part in loc[:depth]))
    if not dropped:
        return None
    return _sweep(root, copied), dropped


def _sweep(node: Any, copied: set[int]) -> Any:
    """Remove the `_GONE` marks (only copied containers can hold one)."""
    if id(node) not in copied:
        return node
    if isinstance(node, dict):
        return {k: _sweep(v, copied) for k, v in node.items() if v is not _GONE}
    return [_sweep(v, copied) for v in node if v is not _GONE]


def repair(cls: type, data: dict[str, Any], validate: Callable[[Any], Any],
           error: ValidationError) -> tuple[Any, dict[str, Any], list[str]] | None:
    """Validate `data` as `cls` without the fields `error` complains about (a few rounds: dropping a
    field can reveal a required one missing, then its container goes). The model and the dropped
    paths, the data it was validated from, or None when `cls` is strict or no repair succeeds."""
    if not getattr(cls, "lenient", True):
        return None
    dropped: list[str] = []
    current = data
    for _ in range(_MAX_ROUNDS):
        attempt = _drop_round(current, error.errors(include_url=False))
        if attempt is None:
            return None
        current, more = attempt
        dropped += more
        try:
            model = validate(current)
        except ValidationError as exc:
            error = exc
            continue
        except Exception:  # pragma: no cover - defensive: an odd validator must not raise out
            return None
        log.info("%s: dropped bad field(s) %s", cls.__name__, ", ".join(dropped))
        return model, current, dropped
    return None
