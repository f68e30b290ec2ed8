"""The usage scan reads a reply's line without parsing it (`usage/reply.py`); whatever the line holds,
its rows are the ones a whole parse of every line gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claude_tui.history.usage import scan as usage_scan
from claude_tui.history.usage.rows import Row

FIXTURES = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "sessions"


def rows_of(data: bytes, *, whole: bool = False) -> list[Row]:
    scan = usage_scan.UsageScan()
    with pytest.MonkeyPatch.context() as patch:
        if whole:
            patch.setattr(usage_scan, "reply_row", lambda *args: False)  # every line parsed whole
        usage_scan._scan_block(data, scan)
    return scan.rows


def both(data: bytes) -> tuple[list[Row], list[Row]]:
    return rows_of(data), rows_of(data, whole=True)


def test_the_recorded_transcripts_read_alike() -> None:
    files = sorted(FIXTURES.rglob("*.jsonl"))
    assert files
    for path in files:
        fast, whole = both(path.read_bytes())
        assert fast == whole, path.name
    assert any(rows_of(p.read_bytes()) for p in files)


COUNT = st.one_of(st.integers(0, 10**7), st.integers(-5, -1), st.booleans(), st.floats(0, 10, allow_nan=False),
                  st.none(), st.text("01", max_size=2))
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=6)
SCALAR = st.one_of(TEXT, st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
                   st.none())


@st.composite
def usages(draw: st.DrawFn) -> dict[str, Any]:
    keys = draw(st.permutations(["input_tokens", "output_tokens", "cache_read_input_tokens",
                                 "cache_creation_input_tokens", "cache_creation", "service_tier",
                                 "server_tool_use", "iterations"]))
    usage: dict[str, Any] = {}
    real = draw(st.booleans())  # every count there and plain, as the API writes them
    for key in keys if real else keys[:draw(st.integers(0, len(keys)))]:
        if key == "cache_creation":
            split = draw(st.permutations(["ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens"]))
            usage[key] = {k: draw(st.integers(0, 10**6)) for k in split} if real else draw(st.one_of(
                st.none(), st.just({k: draw(COUNT) for k in split[:draw(st.integers(0, 2))]})))
        elif key == "service_tier":
            usage[key] = draw(SCALAR)
        elif key == "server_tool_use":
            usage[key] = draw(st.dictionaries(st.sampled_from(["web_search_requests", "x"]), SCALAR, max_size=2))
        elif key == "iterations":
            usage[key] = draw(st.one_of(st.just([]), st.lists(st.dictionaries(st.just("input_tokens"), COUNT),
                                                              max_size=2)))
        else:
            usage[key] = draw(st.integers(0, 10**7) if real else COUNT)
    return usage


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    """A record shaped as the CLI writes a reply's (the message's keys in its order), or bent off it."""
    plain = draw(st.integers(0, 3)) > 0  # mostly the shape the fast reader is for; else anything
    message: dict[str, Any] = {"id": draw(st.sampled_from(["msg_1", "msg_2"]) if plain else
                                          st.one_of(TEXT, st.none()))}
    message["type"], message["role"] = "message", "assistant"
    message["model"] = draw(st.sampled_from(["claude-opus-5-5", "claude-sonnet-4-5", "<synthetic>"]) if plain else
                            st.one_of(TEXT, st.none()))
    message["content"] = draw(st.sampled_from([
        [{"type": "text", "text": "hi"}],
        [{"type": "tool_use", "name": "Edit", "input": {"model": "x", "usage": {"input_tokens": 9,
                                                                                 "output_tokens": 9}}}]]))
    message["stop_reason"] = "end_turn"
    message["usage"] = draw(usages())
    if draw(st.booleans()):
        message["stop_details"] = None
    fields: dict[str, Any] = {"message": message}
    for key, good, bad in (
            ("parentUuid", st.none(), TEXT), ("isSidechain", st.booleans(), SCALAR),
            ("requestId", st.sampled_from(["req_1", "req_2"]), st.one_of(TEXT, st.none())),
            ("type", st.just("assistant"), st.just("assistant")), ("uuid", TEXT, TEXT),
            ("timestamp", st.sampled_from(["2026-11-20T10:00:01.000Z", "2026-11-21T23:59:59Z"]),
             st.one_of(TEXT, st.none())),
            ("costUSD", st.floats(0, 2), st.one_of(st.none(), st.booleans())),
            ("sessionId", st.just("s"), st.none()), ("cwd", TEXT, TEXT)):
        if key in ("timestamp", "type") or draw(st.integers(0, 4 if key == "costUSD" else 1)) == 0:
            fields[key] = draw(good if draw(st.integers(0, 3)) else bad)
    order = draw(st.permutations(list(fields)))
    return {key: fields[key] for key in order}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.tuples(records(), st.sampled_from(["compact", "spaced", "ascii"]), st.integers(1, 3)),
                      min_size=1, max_size=4))
def test_any_reply_reads_as_its_whole_parse(lines: list[tuple[dict[str, Any], str, int]]) -> None:
    data = b""
    for record, spelling, copies in lines:  # copies: the CLI writes one record per block of a reply
        if spelling == "spaced":
            text = json.dumps(record, ensure_ascii=False)
        else:
            text = json.dumps(record, ensure_ascii=spelling == "ascii", separators=(",", ":"))
        data += (text + "\n").encode() * copies
    fast, whole = both(data)
    assert fast == whole
