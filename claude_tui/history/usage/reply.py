"""A reply's record read without parsing it: the bulk of the line (the reply's content) is never
decoded, copied or parsed.

The message's id and model come from where it opens, its usage from its mark (the one object that is
decoded), the record's own fields (request id, sidechain, time, a null that drops it) from outside
the message: before it opens and after the usage. A line in any other shape, with a second usage or
a record's own cost, is left to the whole parse (:func:`reply_row` says False);
`tests/unit/test_usage_reply.py` holds the two readers to the same rows.
"""

from __future__ import annotations

import json
import re

from .rows import Row, UsageScan, make_row

#: A null in one of these makes ccusage drop the record; so do we (the two then count the same calls).
NULL_KEYS = frozenset((b"id", b"model", b"costUSD", b"requestId", b"sessionId", b"cache_read_input_tokens",
                       b"cache_creation_input_tokens"))
_MESSAGE = re.compile(rb'"message":\{"id":"([^"\\]+)"')
_MODEL = re.compile(rb'"model":"([^"\\]+)"')
_SIDECHAIN = re.compile(rb'"isSidechain":(true|false)')
_REQUEST = re.compile(rb'"requestId":"([^"\\]+)"')
_TIME = re.compile(rb'"timestamp":"([^"\\]+)"')
_DECODER = json.JSONDecoder()


def reply_row(block: bytes, start: int, mark: int, end: int, scan: UsageScan) -> Row | None | bool:
    """The row of the line ``block[start:end]``, whose `"usage":{` is at ``mark``; None for a line that
    counts nothing new; False when the line must be parsed whole."""
    message = _MESSAGE.search(block, start, mark)
    if message is None:
        return False
    mid = message.group(1)
    usage_at = mark + 8
    last = scan.last_seen
    if last is not None and mid == last[0] and block.startswith(last[1], usage_at):
        after = usage_at + len(last[1])
        outside = block[start:message.start()] + block[after:end]
        if (block.find(b'"usage":{', after, end) < 0 and b'"costUSD"' not in outside
                and _group(_REQUEST.search(outside)) == last[2] and _group(_SIDECHAIN.search(outside)) == last[3]):
            return None  # the same reply's next block, with the same usage: already counted
    model = _MODEL.search(block, message.end(), mark)
    if model is None or 0 <= block.find(b'"content":', message.end(), model.start()):
        return False  # a model named inside the content (a tool's input) is not the reply's
    try:
        text = block[usage_at:end].decode("utf-8", "replace")
        usage, length = _DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        return False
    if text.isascii():
        raw = block[usage_at:usage_at + length]
    else:  # the usage's bytes as spelled, or (an odd byte) the whole parse
        raw = text[:length].encode()
        if not block.startswith(raw, usage_at):
            return False
    after = usage_at + len(raw)
    if not isinstance(usage, dict) or block.find(b'"usage":{', after, end) >= 0:
        return False
    outside = block[start:message.start()] + block[after:end]  # the record's own fields
    if b'"costUSD"' in outside:  # a record's own cost (older CLIs): the whole parse reads it
        return False
    if _dropped(outside):
        return None
    request, side, stamp = _REQUEST.search(outside), _SIDECHAIN.search(outside), _TIME.search(outside)
    name = model.group(1)
    model_name = scan.models.get(name)
    if model_name is None:
        if not name.isascii():
            return False  # decoded by the whole parse, which says what a byte outside ASCII means
        model_name = scan.models[name] = name.decode()
    request_id = request.group(1) if request is not None else None
    try:
        row = make_row(scan, mid.decode("ascii"), request_id.decode("ascii") if request_id is not None else None,
                       stamp.group(1).decode("ascii") if stamp is not None else None, model_name, usage,
                       side is not None and side.group(1) == b"true")
    except UnicodeDecodeError:
        return False
    if row is not None:
        scan.last_seen = (mid, raw, request_id, _group(side))
    return row


def _group(match: re.Match[bytes] | None) -> bytes | None:
    return match.group(1) if match is not None else None


def _dropped(outside: bytes) -> bool:
    """A `"key":null` for a key of :data:`NULL_KEYS` (what ``"(?:id|model|…)":null`` finds)."""
    at = outside.find(b'":null')
    while at >= 0:
        quote = outside.rfind(b'"', 0, at)
        if quote >= 0 and outside[quote + 1:at] in NULL_KEYS:
            return True
        at = outside.find(b'":null', at + 1)
    return False
