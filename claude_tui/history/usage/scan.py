"""The API calls a transcript records, for `claude-tui usage`: one row per record with a usage.

A scan streams the file from a byte offset to its last complete line (an appended transcript is read
from where the last scan stopped) and looks only at the lines that can hold a usage (a `"usage":`
mark, found in one pass over the block) and at the session's last `cost-state`. A reply's line is
read by :mod:`.reply` without parsing it; any other line with a mark is parsed whole. Records are not
deduplicated here: the CLI writes one record per content block of a streamed reply, each with the
reply's usage, and a fork or a side question copies whole records into another file; :mod:`.index`
keeps one per call, over every file, by message id and request id (the rules ccusage uses, so the two
count the same calls). Calls are priced when they are summed (:mod:`.index`), not here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from ..index_docs import HEAD_SIG_BYTES, head_digest, head_sig
from ..meta import HEAD_BYTES, _first_field, parse_timestamp
from ..scan import complete_blocks
from .reply import dropped, reply_row
from .rows import SIDE, K, Row, UsageScan, tokens, usage_row
from .sums import file_sums

_MARK = b'"usage":'  # both spellings: `"usage":{` (the CLI's) and `"usage": {` (Python's json.dumps)
_COST_STATE = (b'{"type":"cost-state"', b'{"type": "cost-state"')


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def record_row(record: Mapping[str, Any], scan: UsageScan) -> Row | None:
    """The call of one parsed record, or None when it has none ccusage would count either."""
    message = record.get("message")
    if not isinstance(message, Mapping):
        return None
    usage = message.get("usage")
    if not isinstance(usage, Mapping):
        return None
    own = record.get("costUSD")
    return usage_row(scan, _text(message.get("id")), _text(record.get("requestId")), record.get("timestamp"),
                     _text(message.get("model")) or "", usage, record.get("isSidechain") is True,
                     float(own) if isinstance(own, (int, float)) and not isinstance(own, bool) else None)


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _add(scan: UsageScan, row: Row) -> None:
    """The CLI writes a streamed reply as one record per content block, each with the reply's usage: the
    next record of the same call replaces the last rather than adding a row (the fuller one stands)."""
    rows = scan.rows
    last = rows[-1] if rows else None
    if last is not None and row[K] is not None and last[K] == row[K] and last[SIDE] == row[SIDE]:
        if tokens(row) > tokens(last):
            rows[-1] = row
        return
    rows.append(row)


def _cost_state(block: bytes, scan: UsageScan) -> None:
    """The block's last `cost-state` line, in either spelling (one backward search for both)."""
    end = len(block)
    while True:
        at = block.rfind(b'"cost-state"', 0, end)
        if at < 0:
            return
        start = block.rfind(b"\n", 0, at) + 1
        if block.startswith(_COST_STATE, start):
            record = _parse(block[start:block.find(b"\n", at)])
            if record is not None and isinstance(record.get("modelUsage"), dict):
                scan.cost_state = record["modelUsage"]
            return
        end = at


def _scan_block(block: bytes, scan: UsageScan) -> None:
    _cost_state(block, scan)
    find = block.find
    pos = 0
    while True:
        hit = find(_MARK, pos)
        if hit < 0:
            return
        after = block[hit + 8:hit + 10]
        if after[:1] != b"{" and after != b" {":
            pos = hit + 8  # `"usage":null` and the like: no usage here, maybe one further on the line
            continue
        start = block.rfind(b"\n", 0, hit) + 1
        end = find(b"\n", hit)  # a block is complete lines: there is one
        pos = end + 1
        row = reply_row(block, start, hit, end, scan) if after[:1] == b"{" else False
        if row is False:
            scan.last_seen = None
            line = block[start:end]
            if dropped(line):
                continue
            record = _parse(line)
            row = record_row(record, scan) if record is not None else None
        if row is not None:
            _add(scan, row)


def scan_usage(path: str | os.PathLike[str], offset: int = 0, sums: bool = False) -> UsageScan:
    """The usage rows of ``path`` from ``offset`` to its last complete line (streamed, a block at a
    time: only the lines with a usage mark are looked at); with ``sums``, summed too."""
    scan = UsageScan(offset=offset)
    head = b""
    try:
        with open(path, "rb") as fh:
            for block, end in complete_blocks(fh, offset):
                if offset == 0 and scan.offset == 0:
                    scan.cwd = _first_field(block[:HEAD_BYTES], "cwd")
                    scan.started = parse_timestamp(_first_field(block[:HEAD_BYTES], "timestamp"))
                    head = block[:HEAD_SIG_BYTES]
                _scan_block(block, scan)
                scan.offset = end
    except OSError:
        pass
    want = min(scan.offset, HEAD_SIG_BYTES)
    scan.head_sig = head_digest(head[:want]) if len(head) >= want else head_sig(os.fspath(path), scan.offset)
    if sums:
        scan.sums = file_sums(scan.rows)
    return scan.done()
