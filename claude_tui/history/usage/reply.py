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
from typing import Literal

from .rows import Row, UsageScan, make_row, usage_row

#: A null in one of these makes ccusage drop the record; so do we (the two then count the same calls).
NULL_KEYS = frozenset((b"id", b"model", b"costUSD", b"requestId", b"sessionId", b"cache_read_input_tokens",
                       b"cache_creation_input_tokens"))
_MESSAGE = re.compile(rb'"message":\{"id":"([^"\\]+)"')
_MODEL = re.compile(rb'"model":"([^"\\]+)"')
_SIDECHAIN = re.compile(rb'"isSidechain":(true|false)')
_REQUEST = re.compile(rb'"requestId":"([^"\\]+)"')
_TIME = re.compile(rb'"timestamp":"([^"\\]+)"')
_DECODER = json.JSONDecoder()

# The usage object as the API spells it, matched rather than decoded: every member a count we read or
# a plain value (a string without escapes, a number, a literal, a flat object, an empty list), and
# only valid JSON. Anything else (a nested list, an escape, a space) is decoded (`_DECODER`).
_STR = rb'"[^"\\\x00-\x1f]*"'
_SCALAR = rb'(?:' + _STR + rb'|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|null|true|false)'
_FLAT = rb'\{(?:"[a-z0-9_]+":' + _SCALAR + rb'(?:,"[a-z0-9_]+":' + _SCALAR + rb')*)?\}'
_COUNT = rb'(0|[1-9][0-9]*)'
_MEMBER = (rb'(?:"input_tokens":' + _COUNT + rb'|"output_tokens":' + _COUNT
           + rb'|"cache_read_input_tokens":' + _COUNT + rb'|"cache_creation_input_tokens":' + _COUNT
           + rb'|"cache_creation":\{(?:"ephemeral_5m_input_tokens":' + _COUNT + rb',"ephemeral_1h_input_tokens":'
           + _COUNT + rb'|"ephemeral_1h_input_tokens":' + _COUNT + rb',"ephemeral_5m_input_tokens":' + _COUNT
           + rb')\}|"(?!(?:input_tokens|output_tokens|cache_read_input_tokens|cache_creation_input_tokens'
           rb'|cache_creation)")[a-z0-9_]+":(?:' + _SCALAR + rb'|' + _FLAT + rb'|\[\]))')
# The first member right after the brace, each other one after a comma (a repeated key: the last
# one matched stands, as in JSON).
_USAGE = re.compile(rb'\{(?:(?:(?<=\{)|(?<!\{),)' + _MEMBER + rb')++\}')


def reply_row(block: bytes, start: int, mark: int, end: int, scan: UsageScan) -> Row | Literal[False] | None:
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
    matched = _USAGE.match(block, usage_at, end)
    counts = _counts(matched) if matched is not None else None
    usage: object = None
    if counts is not None and matched is not None:
        raw = block[usage_at:matched.end()]
    else:
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
        if not isinstance(usage, dict):
            return False
    after = usage_at + len(raw)
    if block.find(b'"usage":{', after, end) >= 0:
        return False
    outside = block[start:message.start()] + block[after:end]  # the record's own fields
    if b'"costUSD"' in outside:  # a record's own cost (older CLIs): the whole parse reads it
        return False
    if dropped(outside) or dropped(raw):  # the usage's own cache counts may be the null
        return None
    request, side, stamp = _REQUEST.search(outside), _SIDECHAIN.search(outside), _TIME.search(outside)
    if (request is None and b'"requestId":' in outside) or (stamp is None and b'"timestamp":' in outside):
        return False  # a value in another shape (an escape, a number): what it means is the parse's to say
    name = model.group(1)
    model_name = scan.models.get(name)
    if model_name is None:
        if not name.isascii():
            return False  # decoded by the whole parse, which says what a byte outside ASCII means
        model_name = scan.models[name] = name.decode()
    request_id = request.group(1) if request is not None else None
    try:
        message_id, request_text = mid.decode("ascii"), request_id.decode("ascii") if request_id is not None else None
        when = stamp.group(1).decode("ascii") if stamp is not None else None
    except UnicodeDecodeError:
        return False  # decoded by the whole parse, which says what a byte outside ASCII means
    sidechain = side is not None and side.group(1) == b"true"
    if counts is not None:
        row = make_row(scan, message_id, request_text, when, model_name, *counts, sidechain)
    else:
        assert isinstance(usage, dict)
        row = usage_row(scan, message_id, request_text, when, model_name, usage, sidechain)
    if row is not None:
        scan.last_seen = (mid, raw, request_id, _group(side))
    return row


def _counts(usage: re.Match[bytes]) -> tuple[int, int, int, int, int] | None:
    """(input, output, cache read, 5-minute and 1-hour cache writes) of a matched usage, as
    :func:`usage_row` reads them from the decoded object; None: decode it instead."""
    inp, out, read, write, m5_a, h1_a, h1_b, m5_b = usage.groups()
    if inp is None or out is None or (m5_a is not None and h1_b is not None):
        return None  # no call, or two spellings of the split (which one stands is for the decoder)
    if m5_a is not None or h1_b is not None:  # `cache_writes` with a split
        one_hour = int(h1_a if h1_a is not None else h1_b)
        total = int(write) if write is not None else int(m5_a if m5_a is not None else m5_b) + one_hour
        one_hour = min(one_hour, total)
    else:
        total, one_hour = (int(write) if write is not None else 0), 0
    return int(inp), int(out), int(read) if read is not None else 0, total - one_hour, one_hour


def _group(match: re.Match[bytes] | None) -> bytes | None:
    return match.group(1) if match is not None else None


def dropped(text: bytes) -> bool:
    """Whether `text` holds a `"key":null` for a key of :data:`NULL_KEYS` (a record ccusage drops)."""
    at = text.find(b'":null')
    while at >= 0:
        quote = text.rfind(b'"', 0, at)
        if quote >= 0 and text[quote + 1:at] in NULL_KEYS:
            return True
        at = text.find(b'":null', at + 1)
    return False
