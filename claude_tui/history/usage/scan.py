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
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from claude_tui.protocol.pricing import cache_writes, message_cost, model_prices

from ..meta import HEAD_BYTES, _first_field, parse_timestamp
from ..scan import complete_blocks

_USAGE_MARK = b'"usage":{'
_USAGE_MARK_SPACED = b'"usage": {'
_COST_STATE = (b'{"type":"cost-state"', b'{"type": "cost-state"')
#: A null in one of these makes ccusage drop the record; so do we (the two then count the same calls).
_NULL_KEYS = ("id", "model", "costUSD", "requestId", "sessionId", "cache_read_input_tokens",
              "cache_creation_input_tokens")
_NULL_DROP = re.compile(rb'"(?:' + b"|".join(k.encode() for k in _NULL_KEYS) + rb')":null')
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
    cwd: str | None = None  # the session's directory, from the first record naming one (a scan from 0)
    started: float | None = None
    """The file's first timestamp (a scan from 0): a fork copies its parent's records, times included,
    after a line of its own, so the parent is the one that started first."""
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    """The entries as `usage_calls` columns (:func:`call_fields`), once the scan is done: the entries
    themselves are dropped then (a worker process sends rows back, cheaper to pickle than objects)."""
    last_seen: tuple[bytes, bytes, bytes | None, bytes | None] | None = None
    """(message id, usage, request id, sidechain) as the last reply's line spelled them: the next
    record of the same reply (the CLI writes one per content block) is known without reading it."""


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def usage_entry(record: Mapping[str, Any]) -> UsageEntry | None:
    """The usage of one record, or None when it has none ccusage would count either."""
    message = record.get("message")
    if not isinstance(message, Mapping):
        return None
    usage = message.get("usage")
    if not isinstance(usage, Mapping):
        return None
    own = record.get("costUSD")
    return _entry(_text(message.get("id")), _text(record.get("requestId")), record.get("timestamp"),
                  _text(message.get("model")) or "", usage, record.get("isSidechain") is True,
                  float(own) if isinstance(own, (int, float)) and not isinstance(own, bool) else None)


def _entry(message_id: str | None, request_id: str | None, stamp: Any, model: str, usage: Mapping[str, Any],
           sidechain: bool, own_cost: float | None = None) -> UsageEntry | None:
    if "input_tokens" not in usage or "output_tokens" not in usage:
        return None
    timestamp = parse_timestamp(stamp)
    if timestamp is None:
        return None
    inp, out, read = usage["input_tokens"], usage["output_tokens"], usage.get("cache_read_input_tokens", 0)
    if type(inp) is not int or type(out) is not int or type(read) is not int:  # noqa: E721 - bool is no count
        return None
    if model == SYNTHETIC_MODEL:
        model = ""
    write_5m, write_1h = cache_writes(usage)
    cost = own_cost
    if cost is None and model:
        prices = model_prices(model)
        if prices is not None:
            cost = message_cost(model, usage)
    return UsageEntry(message_id, request_id, timestamp, model, max(inp, 0), max(out, 0), max(read, 0),
                      write_5m + write_1h, cost, sidechain)


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


# A reply's record is read without parsing its content (the bulk of the line): the message's id and
# model from where it opens, its usage from its mark, the record's own fields from outside the message.
# A line in any other shape is parsed whole.
_MESSAGE = re.compile(rb'"message":\{"id":"([^"\\]+)"')
_MODEL = re.compile(rb'"model":"([^"\\]+)"')
_SIDECHAIN = re.compile(rb'"isSidechain":(true|false)')
_REQUEST = re.compile(rb'"requestId":"([^"\\]+)"')
_TIME = re.compile(rb'"timestamp":"([^"\\]+)"')
_DECODER = json.JSONDecoder()


def _fast_entry(line: bytes, mark: int, scan: UsageScan) -> UsageEntry | None | bool:
    """The entry of a line, None for a line that counts nothing new, False when the line must be parsed
    whole (another shape, a second usage, a record's own cost)."""
    message = _MESSAGE.search(line, 0, mark)
    if message is None:
        return False
    start = mark + len(_USAGE_MARK) - 1
    last = scan.last_seen
    if last is not None and message.group(1) == last[0] and line.startswith(last[1], start):
        tail = line[start + len(last[1]):]
        outside = line[:message.start()] + tail
        if _USAGE_MARK not in tail and b'"costUSD"' not in outside and \
                _group(_REQUEST.search(outside)) == last[2] and _group(_SIDECHAIN.search(outside)) == last[3]:
            return None  # the same reply's next block, with the same usage: already counted
    model = _MODEL.search(line, message.end(), mark)
    content = line.find(b'"content":', message.end(), mark)
    if model is None or (0 <= content < model.start()):
        return False  # a model named inside the content (a tool's input) is not the reply's
    try:
        text = line[start:].decode("utf-8", "replace")
        usage, end = _DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        return False
    raw = text[:end].encode()
    tail = line[start + len(raw):]
    if _USAGE_MARK in tail or not isinstance(usage, dict):
        return False
    outside = line[:message.start()] + tail  # the record's own fields, around the message
    if b'"costUSD"' in outside:  # a record's own cost (older CLIs): the full parse reads it
        return False
    if _NULL_DROP.search(outside):
        return None
    side, request, stamp = _SIDECHAIN.search(outside), _REQUEST.search(outside), _TIME.search(outside)
    entry = _entry(message.group(1).decode(), request.group(1).decode() if request else None,
                   stamp.group(1).decode() if stamp else None, model.group(1).decode(), usage,
                   side is not None and side.group(1) == b"true")
    if entry is not None and raw == line[start:start + len(raw)]:
        scan.last_seen = (message.group(1), raw, _group(request), _group(side))
    return entry


def _group(match: re.Match[bytes] | None) -> bytes | None:
    return match.group(1) if match is not None else None


def _add(scan: UsageScan, entry: UsageEntry) -> None:
    """The CLI writes a streamed reply as one record per content block, each with the reply's usage: the
    next record of the same call replaces the last rather than adding a row (the fuller one stands)."""
    last = scan.entries[-1] if scan.entries else None
    if (last is not None and entry.message_id is not None and last.message_id == entry.message_id
            and last.request_id == entry.request_id and last.sidechain == entry.sidechain):
        if entry.total_tokens > last.total_tokens:
            scan.entries[-1] = entry
        return
    scan.entries.append(entry)


def _scan_block(block: bytes, scan: UsageScan) -> None:
    for prefix in _COST_STATE:
        at = block.rfind(b"\n" + prefix)
        at = at + 1 if at >= 0 else (0 if block.startswith(prefix) else -1)
        if at >= 0:
            record = _parse(block[at:block.find(b"\n", at)])
            if record is not None and isinstance(record.get("modelUsage"), dict):
                scan.cost_state = record["modelUsage"]
    pos = 0
    compact = spaced = -2  # the next mark of each spelling at or after pos (-1: none left, -2: not looked)
    while True:
        if compact == -2 or -1 < compact < pos:
            compact = block.find(_USAGE_MARK, pos)
        if spaced == -2 or -1 < spaced < pos:
            spaced = block.find(_USAGE_MARK_SPACED, pos)
        hit = compact if spaced < 0 or 0 <= compact < spaced else spaced
        if hit < 0:
            return
        start = block.rfind(b"\n", 0, hit) + 1
        end = block.find(b"\n", hit)
        pos = end + 1
        line = block[start:end]
        entry = _fast_entry(line, hit - start, scan)
        if entry is False:
            scan.last_seen = None
            if _NULL_DROP.search(line):
                continue
            record = _parse(line)
            entry = usage_entry(record) if record is not None else None
        if isinstance(entry, UsageEntry):
            _add(scan, entry)


def call_fields(e: UsageEntry) -> tuple[Any, ...]:
    """(msg_id, req_id, ts, model, inp, out, cread, cwrite, cost, side, k, day, kept) of a call: the
    `usage_calls` row without its file id. ``k`` names the call (message and request id; None: a record
    without a message id, which always counts)."""
    key = None if e.message_id is None else f"{e.message_id}\0{e.request_id or ''}"
    # The local day, as SQLite's date(ts, 'unixepoch', 'localtime') has it (both ask the C library).
    day = time.strftime("%Y-%m-%d", time.localtime(e.timestamp))
    return (e.message_id, e.request_id, e.timestamp, e.model, e.input_tokens, e.output_tokens,
            e.cache_read_tokens, e.cache_write_tokens, e.list_cost, int(e.sidechain), key, day, int(key is None))


def scan_usage(path: str | os.PathLike[str], offset: int = 0) -> UsageScan:
    """The usage entries of ``path`` from ``offset`` to its last complete line (streamed, a block at a
    time: only the lines with a usage mark are looked at)."""
    scan = UsageScan(offset=offset)
    try:
        with open(path, "rb") as fh:
            for block, end in complete_blocks(fh, offset):
                if offset == 0 and scan.offset == 0:
                    scan.cwd = _first_field(block[:HEAD_BYTES], "cwd")
                    scan.started = parse_timestamp(_first_field(block[:HEAD_BYTES], "timestamp"))
                _scan_block(block, scan)
                scan.offset = end
    except OSError:
        pass
    scan.rows = [call_fields(e) for e in scan.entries]
    scan.entries = []
    scan.last_seen = None
    return scan
