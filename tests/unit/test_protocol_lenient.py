"""Lenient decoding: almost-JSON lines are kept (U+FFFD), a known message with a bad field stays
that message without it, and a `result` always ends its turn. Strict for permission requests."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from claude_tui.protocol import (
    AssistantMessage,
    ControlRequest,
    ResultMessage,
    UnknownControlRequest,
    UserMessage,
    decode_line,
    decode_obj,
    dropped_fields,
)
from claude_tui.protocol.lenient import scrub_surrogates
from claude_tui.session.conversation import Conversation
from claude_tui.session.status import Activity


def _assistant(text: str) -> dict[str, object]:
    return {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}


def _tool_result(output: str) -> dict[str, object]:
    return {"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": output}]}}


def test_a_lone_surrogate_escape_is_replaced_not_the_line_dropped() -> None:
    # What Node prints when a Bash output is cut inside an emoji.
    line = b'{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1",' \
           b'"content":"ok \\ud83d"}]}}'
    msg = decode_line(line)
    assert type(msg) is UserMessage
    assert msg.message.content[0].content == "ok \ufffd"
    assert msg.raw["message"]["content"][0]["content"] == "ok \ufffd"
    # The replacement is encodable: nothing downstream can hit a UnicodeEncodeError on it.
    json.dumps(msg.raw, ensure_ascii=False).encode("utf-8")


def test_a_low_surrogate_alone_and_a_reversed_pair_are_replaced() -> None:
    msg = decode_line(b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
                      b'"text":"a\\udc00b\\ude00\\ud83dc"}]}}')
    assert type(msg) is AssistantMessage
    assert msg.message.content[0].text == "a\ufffdb\ufffd\ufffdc"


def test_a_valid_surrogate_pair_is_still_the_emoji() -> None:
    msg = decode_line(b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
                      b'"text":"\\ud83d\\ude00"}]}}')
    assert msg.message.content[0].text == "\U0001f600"


def test_invalid_utf8_bytes_are_replaced_not_the_line_dropped() -> None:
    line = json.dumps(_assistant("café")).encode().replace("é".encode(), b"\xe9\xff")  # not UTF-8
    msg = decode_line(line)
    assert type(msg) is AssistantMessage and msg.message.content[0].text.startswith("caf")
    msg.message.content[0].text.encode("utf-8")
    emoji = "😀".encode()
    truncated = json.dumps(_assistant("x😀y"), ensure_ascii=False).encode().replace(emoji, emoji[:2])
    assert decode_line(truncated).message.content[0].text == "x\ufffdy"


def test_a_str_line_with_raw_surrogates_decodes() -> None:
    msg = decode_line('{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"a\ud83d"}]}}')
    assert type(msg) is AssistantMessage and msg.message.content[0].text == "a\ufffd"


def test_what_is_not_json_even_leniently_is_still_an_invalid_line() -> None:
    for line in (b'{"type":"assistant",', b"\xff\xfe", b"not json \\ud83d"):
        msg = decode_line(line)
        assert msg.type == "invalid"
        msg.text.encode("utf-8")  # shown as text: must be encodable


def test_a_result_with_wrong_typed_fields_is_still_a_result() -> None:
    bad = {"type": "result", "subtype": "success", "is_error": False, "result": "done", "num_turns": "x",
           "duration_ms": "x", "duration_api_ms": [], "total_cost_usd": 0.5,
           "modelUsage": {"claude-x": {"inputTokens": "x", "contextWindow": 200000}, "other": "junk"},
           "usage": {"input_tokens": "lots", "output_tokens": 7}, "permission_denials": [{"tool_input": 3}]}
    for msg in (decode_obj(bad), decode_line(json.dumps(bad))):
        assert type(msg) is ResultMessage
        assert msg.result == "done" and msg.total_cost_usd == 0.5
        assert msg.num_turns is None and msg.duration_ms is None
        assert msg.model_usage["claude-x"].context_window == 200000 and "other" not in msg.model_usage
        assert msg.usage is not None and msg.usage.output_tokens == 7
        assert sorted(dropped_fields(msg)) == sorted(["num_turns", "duration_ms", "duration_api_ms",
                                                       "modelUsage.claude-x.inputTokens", "modelUsage.other",
                                                       "usage.input_tokens", "permission_denials.0.tool_input"])
        # Handlers read `.raw`: the bad fields are gone there too, the good ones kept.
        assert "num_turns" not in msg.raw and msg.raw["modelUsage"] == {"claude-x": {"contextWindow": 200000}}


def test_a_result_with_a_bad_model_usage_ends_a_retrying_turn() -> None:
    """Seen: `retrying 1 of 10` stayed in the status bar because the result decoded as unknown."""
    conversation = Conversation()
    conversation.apply(decode_obj({"type": "system", "subtype": "init", "session_id": "s", "model": "m"}))
    conversation.apply(decode_obj({"type": "system", "subtype": "api_retry", "attempt": 1, "max_retries": 10,
                                   "retry_delay_ms": 500, "error_status": 529}))
    assert conversation.status.activity is Activity.RETRYING
    for bad in ({"num_turns": "x"}, {"duration_ms": "x"}, {"modelUsage": "x"}, {"modelUsage": {"m": 3}}):
        line = json.dumps({"type": "result", "subtype": "success", "is_error": False, "result": "hi", **bad})
        conversation.status.activity = Activity.RETRYING
        conversation.apply(decode_line(line))
        assert conversation.status.activity is Activity.IDLE, bad
        assert "retrying" not in str(conversation.status.activity)


def test_a_permission_request_with_a_bad_field_stays_unknown() -> None:
    """Strict where it matters: a dialog must never show (and an answer never echo) an altered input."""
    msg = decode_obj({"type": "control_request", "request_id": "r1",
                      "request": {"subtype": "can_use_tool", "tool_name": "Bash", "input": "rm -rf /"}})
    assert type(msg) is ControlRequest and type(msg.request) is UnknownControlRequest
    assert "input" in (msg.request.validation_error or "")
    assert not dropped_fields(msg.request)


def test_a_required_field_that_is_bad_makes_the_message_unknown() -> None:
    msg = decode_obj({"type": "control_cancel_request", "request_id": 5})
    assert msg.type == "control_cancel_request" and type(msg).__name__ == "UnknownMessage"


# -- fuzz -----------------------------------------------------------------------------------

surrogate_text = st.text(alphabet=st.one_of(st.characters(), st.characters(min_codepoint=0xD800,
                                                                           max_codepoint=0xDFFF)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(surrogate_text)
def test_fuzz_any_text_with_surrogates_survives_as_an_assistant_message(text: str) -> None:
    line = json.dumps(_assistant(text))  # ensure_ascii: lone surrogates become \udxxx escapes
    for form in (line, line.encode("ascii")):
        msg = decode_line(form)
        assert type(msg) is AssistantMessage
        assert msg.message.content[0].text == scrub_surrogates(text)
        msg.message.content[0].text.encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30), st.binary(max_size=8), st.integers(min_value=0, max_value=30))
def test_fuzz_invalid_bytes_inside_a_string_keep_the_message(text: str, junk: bytes, at: int) -> None:
    at = min(at, len(text))  # between characters, never inside an escape sequence
    head, tail = (json.dumps(part, ensure_ascii=False).encode("utf-8")[1:-1] for part in (text[:at], text[at:]))
    junk = junk.replace(b'"', b"").replace(b"\\", b"").replace(b"\n", b"")
    junk = bytes(b for b in junk if b >= 0x20)  # raw controls are fine leniently; quotes would end the string
    body = head + junk + tail
    line = b'{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t",' \
           b'"content":"' + body + b'"}]}}'
    msg = decode_line(line)
    assert type(msg) is UserMessage
    msg.message.content[0].content.encode("utf-8")


_junk = st.one_of(st.text(max_size=5), st.lists(st.integers(), max_size=2), st.dictionaries(
    st.text(max_size=3), st.integers(), max_size=2), st.floats(allow_nan=False), st.booleans())
_RESULT_FIELDS = ["is_error", "result", "num_turns", "duration_ms", "duration_api_ms", "total_cost_usd", "usage",
                  "modelUsage", "permission_denials", "stop_reason", "errors", "session_id", "uuid",
                  "api_error_status", "subtype"]


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(_RESULT_FIELDS), _junk, max_size=6))
def test_fuzz_a_result_with_any_junk_fields_ends_its_turn(fields: dict[str, object]) -> None:
    obj = {"type": "result", **fields}
    for msg in (decode_obj(obj), decode_line(json.dumps(obj))):
        assert type(msg) is ResultMessage
    conversation = Conversation()
    conversation.apply(decode_obj({"type": "system", "subtype": "init", "session_id": "s", "model": "m"}))
    conversation.apply(decode_obj({"type": "system", "subtype": "api_retry", "attempt": 1, "max_retries": 10}))
    conversation.apply(decode_line(json.dumps(obj)))
    assert conversation.status.activity is Activity.IDLE
