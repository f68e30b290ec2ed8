"""The effective configuration as TOML that `tomllib` reads back (`claude-tui config --show`).

Written by hand, not with a TOML library: every string is escaped here, so what reaches the
terminal is inert (controls, C1 and bidi characters as ``\\uXXXX``) and reads back as the same
value. Secrets are masked: a ``cli_env`` variable (global or a host's) whose name holds KEY,
TOKEN, SECRET or PASSWORD shows as :data:`MASK`, so the output can be pasted into an issue.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

MASK = "(hidden)"
_SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSWORD", re.IGNORECASE)
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def is_secret(name: str) -> bool:
    return bool(_SECRET.search(name))


def masked(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` (a ``Config.model_dump()``) with every secret ``cli_env`` value replaced by :data:`MASK`."""
    def env(values: Mapping[str, str]) -> dict[str, str]:
        return {name: MASK if is_secret(name) and value else value for name, value in values.items()}

    out = dict(data)
    out["cli_env"] = env(data.get("cli_env") or {})
    out["hosts"] = [{**host, "cli_env": env(host.get("cli_env") or {})} for host in data.get("hosts") or []]
    return out


def _string(text: str) -> str:
    parts = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _SHORT:
            parts.append(_SHORT[ch])
        elif code < 0x20 or 0x7F <= code <= 0x9F or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069 \
                or code in (0x2028, 0x2029, 0xFEFF):
            parts.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:  # a lone surrogate (from the environment): TOML has no way to say it
            parts.append("\\uFFFD")
        else:
            parts.append(ch)
    parts.append('"')
    return "".join(parts)


def _key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else _string(name)  # fullmatch: `$` lets a final newline through


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def to_toml(data: Mapping[str, Any]) -> str:
    """``data`` (a ``Config.model_dump()``), secrets masked, as TOML: plain keys first (an unset one
    as a comment), then ``[[hosts]]``, then one table per mapping."""
    data = masked(data)
    lines: list[str] = []
    tables = {key: value for key, value in data.items() if isinstance(value, Mapping)}
    hosts = data.get("hosts") or []
    for key, value in data.items():
        if key in tables or (key == "hosts" and hosts):
            continue
        lines.append(f"# {key} = (unset)" if value is None else f"{_key(key)} = {_value(value)}")
    for host in hosts:
        lines.append("\n[[hosts]]")
        for key, value in host.items():
            if value is None:
                lines.append(f"# {key} = (unset)")
            elif not (isinstance(value, (list, Mapping)) and not value):  # empty: the default
                lines.append(f"{_key(key)} = {_value(value)}")
    for table, values in tables.items():
        lines.append(f"\n[{_key(table)}]")
        for key, value in values.items():
            lines.append(f"{_key(str(key))} = {_value(value)}")
    return "\n".join(lines) + "\n"
