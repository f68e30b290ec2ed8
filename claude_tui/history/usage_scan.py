"""The API calls a transcript records, for `claude-tui usage`: one entry per record with a usage.

A scan streams the file from a byte offset to its last complete line (an appended transcript is read
from where the last scan stopped) and parses only the lines that can hold a usage: a record whose
`message` has a `usage`, and the session's `cost-state`. Records are not deduplicated here: the CLI
writes one record per content block of a streamed reply, each with the reply's usage, and a fork or a
side question copies whole records into another file; :mod:`.usage_index` keeps one per call, over
every file, by message id and request id (the rules ccusage uses, so the two count the same calls).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from claude_tui.protocol.pricing import cache_writes, message_cost, model_prices

from .meta import parse_timestamp
from .scan import complete_lines_from

_USAGE_MARK = b'"usage":{'
_USAGE_MARK_SPACED = b'"usage": {'
_COST_STATE = (b'{"type":"cost-state"', b'{"type": "cost-state"')
#: A null in one of these makes ccusage drop the record; so do we (the two then count the same calls).
_NULL_DROPS = tuple(f'"{key}":null'.encode() for key in (
    "id", "model", "costUSD", "requestId", "sessionId", "cache_read_input_tokens", "cache_creation_input_tokens"))
SYNTHETIC_MODEL = "<synthetic>"  # the CLI's own stand-in replies (errors, interrupts): no call was made


@dataclass(slots=True)
class UsageEntry:
    """One record's usage (a call, before deduplication)."""

    message_id: str | None
    request_id: str | None
    timestamp: float
    model: str  # "" when the record names none (or names the CLI's <synthetic> stand-in)
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    list_cost: float | None  # the record's own costUSD (older CLIs), else list price; None: not priced
    sidechain: bool

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_write_tokens


@dataclass(slots=True)
class UsageScan:
    offset: int = 0
    entries: list[UsageEntry] = field(default_factory=list)
    cost_state: dict[str, Any] | None = None  # the last `cost-state` record's `modelUsage`, if any


def _count(usage: Mapping[str, Any], key: str) -> int | None:
    value = usage.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return max(value, 0)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def usage_entry(record: Mapping[str, Any]) -> UsageEntry | None:
    """The usage of one record, or None when it has none ccusage would count either."""
    message = record.get("message")
    if not isinstance(message, Mapping):
        return None
    usage = message.get("usage")
    if not isinstance(usage, Mapping) or "input_tokens" not in usage or "output_tokens" not in usage:
        return None
    timestamp = parse_timestamp(record.get("timestamp"))
    if timestamp is None:
        return None
    counts = [_count(usage, key) for key in
              ("input_tokens", "output_tokens", "cache_read_input_tokens")]
    if any(c is None for c in counts):
        return None
    write_5m, write_1h = cache_writes(usage)
    model = _text(message.get("model")) or ""
    if model == SYNTHETIC_MODEL:
        model = ""
    own = record.get("costUSD")
    if isinstance(own, (int, float)) and not isinstance(own, bool):
        cost: float | None = float(own)
    elif model and model_prices(model) is not None:
        cost = message_cost(model, usage)
    else:
        cost = None
    inp, out, read = (c or 0 for c in counts)
    return UsageEntry(_text(message.get("id")), _text(record.get("requestId")), timestamp, model,
                      inp, out, read, write_5m + write_1h, cost, record.get("isSidechain") is True)


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def scan_usage(path: str | os.PathLike[str], offset: int = 0) -> UsageScan:
    """The usage entries of ``path`` from ``offset`` to its last complete line (streamed)."""
    scan = UsageScan(offset=offset)
    try:
        with open(path, "rb") as fh:
            for line, end in complete_lines_from(fh, offset):
                scan.offset = end
                if line.startswith(_COST_STATE):
                    record = _parse(line)
                    if record is not None and isinstance(record.get("modelUsage"), dict):
                        scan.cost_state = record["modelUsage"]
                    continue
                if _USAGE_MARK not in line and _USAGE_MARK_SPACED not in line:
                    continue
                if any(mark in line for mark in _NULL_DROPS):
                    continue
                record = _parse(line)
                entry = usage_entry(record) if record is not None else None
                if entry is not None:
                    scan.entries.append(entry)
    except OSError:
        return scan
    return scan
