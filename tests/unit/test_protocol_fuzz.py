"""decode_line/decode_obj never raise, on arbitrary bytes and on JSON shaped like the protocol."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claude_tui.protocol import Message, ProtoModel, decode_line, decode_obj

TYPES = ["system", "assistant", "user", "stream_event", "result", "control_request", "control_response",
         "control_cancel_request", "keep_alive", "tool_progress", "tool_use_summary", "auth_status",
         "rate_limit_event", "nope"]
SUBTYPES = ["init", "status", "compact_boundary", "api_retry", "thinking_tokens", "hook_started", "hook_progress",
            "hook_response", "task_started", "task_updated", "task_progress", "task_notification",
            "background_tasks_changed", "files_persisted", "success", "error_max_turns", "error", "can_use_tool",
            "hook_callback", "interrupt", "weird"]
EVENT_TYPES = ["message_start", "content_block_start", "content_block_delta", "content_block_stop",
               "message_delta", "message_stop", "text_delta", "thinking_delta", "input_json_delta",
               "signature_delta", "citations_delta", "text", "tool_use", "tool_result", "thinking", "image", "x"]
KEYS = ["type", "subtype", "message", "event", "request", "response", "delta", "content_block", "content",
        "index", "text", "request_id", "tool_name", "input", "usage", "modelUsage", "session_id", "tool_use_result",
        "permission_suggestions", "patch", "is_error", "num_turns", "id", "name", "tool_use_id", "error"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8),
                    st.sampled_from(TYPES + SUBTYPES + EVENT_TYPES))
json_shapes = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.sampled_from(KEYS), children, max_size=6),
        st.fixed_dictionaries({"type": st.sampled_from(EVENT_TYPES)}, optional={
            "index": st.integers(), "delta": children, "content_block": children, "text": children}),
    ),
    max_leaves=25,
)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={k: json_shapes for k in ["subtype", "message", "event", "request", "response", "request_id",
                                       "usage", "modelUsage", "tool_use_result", "session_id"]},
)


def _check(msg: Message) -> None:
    assert isinstance(msg, ProtoModel)
    assert isinstance(msg.raw, dict)
    repr(msg)
    msg.model_dump()


def _fuzz_obj(obj) -> None:
    _check(decode_obj(obj))
    line = json.dumps(obj)
    _check(decode_line(line))
    _check(decode_line(line.encode()))


def _fuzz_bytes(data: bytes) -> None:
    _check(decode_line(data))


FAST = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=100_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.binary(max_size=200))
def test_arbitrary_bytes(data: bytes) -> None:
    _fuzz_bytes(data)


@FAST
@given(messages)
def test_protocol_shaped_json(obj) -> None:
    _fuzz_obj(obj)


@FAST
@given(json_shapes)
def test_arbitrary_json(obj) -> None:
    _fuzz_obj(obj)


@pytest.mark.slow
@SLOW
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_arbitrary_bytes_slow(data: bytes) -> None:
    _fuzz_bytes(data)


@pytest.mark.slow
@SLOW
@given(st.one_of(messages, json_shapes))
def test_protocol_shaped_json_slow(obj) -> None:
    _fuzz_obj(obj)
