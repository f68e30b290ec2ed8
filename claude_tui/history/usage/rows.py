"""A call as the usage index stores it: one row per record with a usage, built from its fields.

Both readers of a transcript line (:mod:`.reply`, which reads a reply's record without parsing it,
and :mod:`.scan`, which parses any other line) make their rows here, so the two cannot disagree on
what a call is. A row's cost is the record's own figure only (older CLIs wrote one): list prices are
applied where the calls are summed (:mod:`.index`), once per model rather than once per call here.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from claude_tui.protocol.pricing import cache_writes

from ..meta import parse_timestamp

SYNTHETIC_MODEL = "<synthetic>"  # the CLI's own stand-in replies (errors, interrupts): no call was made

Row = tuple[Any, ...]
"""(msg_id, ts, model, inp, out, cread, cw5m, cw1h, own_cost, side, k, day, kept): a `usage_calls`
row without its file id. ``k`` names the call (message and request id; None: a record without a
message id, which always counts); ``own_cost`` is the record's costUSD, else None."""
MSG, MODEL, K, SIDE = 0, 2, 10, 9


@dataclass(slots=True)
class UsageScan:
    offset: int = 0
    rows: list[Row] = field(default_factory=list)
    cost_state: dict[str, Any] | None = None  # the last `cost-state` record's `modelUsage`, if any
    cwd: str | None = None  # the session's directory, from the first record naming one (a scan from 0)
    started: float | None = None
    """The file's first timestamp (a scan from 0): a fork copies its parent's records, times included,
    after a line of its own, so the parent is the one that started first."""
    head_sig: bytes = b""
    """The signature of the file's head up to ``offset`` (what the index compares to know a file only
    grew), taken where the head is in hand rather than by opening the file again."""
    last_seen: tuple[bytes, bytes, bytes | None, bytes | None] | None = None
    """(message id, usage, request id, sidechain) as the last reply's line spelled them: the next
    record of the same reply (the CLI writes one per content block) is known without reading it."""
    sums: list[tuple[Any, ...]] = field(default_factory=list)
    """The rows summed per day and model (:func:`.sums.file_sums`), when the scan was asked for them."""
    days: dict[tuple[int, int], str] = field(default_factory=dict)  # (year, day of year) -> YYYY-MM-DD
    models: dict[bytes, str] = field(default_factory=dict)
    """Model names decoded once: the rows share one string each (smaller to send, once in memory)."""

    def done(self) -> UsageScan:
        """Drop what only the scan needed (the worker sends the rest back)."""
        self.last_seen = None
        self.days = {}
        self.models = {}
        return self


def usage_row(scan: UsageScan, message_id: str | None, request_id: str | None, stamp: Any, model: str,
              usage: Mapping[str, Any], sidechain: bool, own_cost: float | None = None) -> Row | None:
    """The row of one record's usage, or None when it has none ccusage would count either."""
    inp, out, read = usage.get("input_tokens"), usage.get("output_tokens"), usage.get("cache_read_input_tokens", 0)
    # A count is an int (a bool is none); a usage without input or output tokens counts nothing.
    if type(inp) is not int or type(out) is not int or type(read) is not int:  # noqa: E721
        return None
    write_5m, write_1h = cache_writes(usage)
    return make_row(scan, message_id, request_id, stamp, model, inp, out, read, write_5m, write_1h, sidechain,
                    own_cost)


def make_row(scan: UsageScan, message_id: str | None, request_id: str | None, stamp: Any, model: str, inp: int,
             out: int, read: int, write_5m: int, write_1h: int, sidechain: bool,
             own_cost: float | None = None) -> Row | None:
    """The row of a call's counts (cache writes as :func:`cache_writes` splits them); None without a time."""
    timestamp = parse_timestamp(stamp)
    if timestamp is None:
        return None
    if model == SYNTHETIC_MODEL:
        model = ""
    key = None if message_id is None else f"{message_id}\0{request_id or ''}"
    return (message_id, timestamp, model, max(inp, 0), max(out, 0), max(read, 0), write_5m, write_1h, own_cost,
            int(sidechain), key, _day(scan, timestamp), int(key is None))


def _day(scan: UsageScan, timestamp: float) -> str:
    """The local day, as SQLite's date(ts, 'unixepoch', 'localtime') has it (both ask the C library)."""
    local = time.localtime(timestamp)
    slot = (local.tm_year, local.tm_yday)
    day = scan.days.get(slot)
    if day is None:
        day = scan.days[slot] = time.strftime("%Y-%m-%d", local)
    return day


def tokens(row: Row) -> int:
    """All the tokens of a call: the fuller of two records of one call stands for it."""
    return int(row[3] + row[4] + row[5] + row[6] + row[7])
