"""Every recorded line decodes to its specific model; unknown/malformed input degrades to Unknown*."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_tui.protocol import (
    ApiRetry,
    AssistantMessage,
    AuthStatus,
    BackgroundTasksChanged,
    CanUseToolRequest,
    CompactBoundary,
    ContentBlockDelta,
    ContentBlockStart,
    ContentBlockStop,
    ControlCancelRequest,
    ControlRequest,
    ControlResponse,
    ElicitationRequest,
    FilesPersisted,
    HookCallbackRequest,
    HookProgress,
    HookResponse,
    HookStarted,
    ImageBlock,
    InputJsonDelta,
    InvalidLine,
    KeepAlive,
    MessageDelta,
    MessageStart,
    MessageStop,
    RateLimitEvent,
    ResultMessage,
    SessionTitleChanged,
    SignatureDelta,
    StreamEvent,
    SystemInit,
    SystemStatus,
    TaskNotification,
    TaskProgress,
    TaskStarted,
    TaskUpdated,
    TextBlock,
    TextDelta,
    ThinkingBlock,
    ThinkingDelta,
    ThinkingTokens,
    ToolProgress,
    ToolResultBlock,
    ToolUseBlock,
    ToolUseSummary,
    UnknownBase,
    UnknownBlock,
    UnknownControlRequest,
    UnknownDelta,
    UnknownEvent,
    UnknownMessage,
    UnknownSystem,
    UserMessage,
    decode_line,
    decode_obj,
    dropped_fields,
    encode_line,
)

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "claude-code-2.1.330"
STDOUT = sorted(FIX.glob("*.stdout.ndjson"))
STDIN = sorted(FIX.glob("*.stdin.ndjson"))
SESSIONS = sorted(FIX.glob("sessions/*/*.jsonl"))

EXPECTED = {
    ("system", "init"): SystemInit,
    ("system", "status"): SystemStatus,
    ("system", "compact_boundary"): CompactBoundary,
    ("system", "api_retry"): ApiRetry,
    ("system", "thinking_tokens"): ThinkingTokens,
    ("system", "hook_started"): HookStarted,
    ("system", "hook_progress"): HookProgress,
    ("system", "hook_response"): HookResponse,
    ("system", "task_started"): TaskStarted,
    ("system", "task_updated"): TaskUpdated,
    ("system", "task_progress"): TaskProgress,
    ("system", "task_notification"): TaskNotification,
    ("system", "background_tasks_changed"): BackgroundTasksChanged,
    ("system", "files_persisted"): FilesPersisted,
    ("system", "session_title_changed"): SessionTitleChanged,
    ("assistant", None): AssistantMessage,
    ("user", None): UserMessage,
    ("stream_event", None): StreamEvent,
    ("result", "success"): ResultMessage,
    ("result", "error_max_turns"): ResultMessage,
    ("result", "error_during_execution"): ResultMessage,
    ("result", "error_max_budget_usd"): ResultMessage,
    ("result", "error_max_structured_output_retries"): ResultMessage,
    ("control_request", None): ControlRequest,
    ("control_response", None): ControlResponse,
    ("control_cancel_request", None): ControlCancelRequest,
    ("keep_alive", None): KeepAlive,
    ("tool_progress", None): ToolProgress,
    ("tool_use_summary", None): ToolUseSummary,
    ("auth_status", None): AuthStatus,
    ("rate_limit_event", None): RateLimitEvent,
}
EVENTS = {
    "message_start": MessageStart, "content_block_start": ContentBlockStart,
    "content_block_delta": ContentBlockDelta, "content_block_stop": ContentBlockStop,
    "message_delta": MessageDelta, "message_stop": MessageStop,
}
DELTAS = {"text_delta": TextDelta, "thinking_delta": ThinkingDelta, "input_json_delta": InputJsonDelta,
          "signature_delta": SignatureDelta}
BLOCKS = {"text": TextBlock, "thinking": ThinkingBlock, "tool_use": ToolUseBlock, "tool_result": ToolResultBlock,
          "image": ImageBlock}


def _lines(path: Path) -> list[bytes]:
    return [ln for ln in path.read_bytes().splitlines() if ln.strip()]


def _assert_no_unknown(model: object, where: str) -> None:
    """Walk a decoded model and fail on any Unknown* anywhere inside it."""
    assert not isinstance(model, UnknownBase), f"{where}: {type(model).__name__} {model!r}"[:500]
    if isinstance(model, list):
        for item in model:
            _assert_no_unknown(item, where)
    elif hasattr(model, "__pydantic_fields__"):
        for name in type(model).model_fields:
            _assert_no_unknown(getattr(model, name), where)


def _key(obj: dict) -> tuple[str, str | None]:
    t = obj["type"]
    return (t, obj.get("subtype")) if t in ("system", "result") else (t, None)


@pytest.mark.parametrize("path", STDOUT, ids=lambda p: p.name)
def test_every_stdout_line_decodes_to_its_class(path: Path) -> None:
    for n, line in enumerate(_lines(path), 1):
        obj = json.loads(line)
        msg = decode_line(line)
        where = f"{path.name}:{n}"
        assert type(msg) is EXPECTED[_key(obj)], where
        _assert_no_unknown(msg, where)
        assert msg.type == obj["type"]
        assert msg.raw == obj, where
        if isinstance(msg, StreamEvent):
            ev = obj["event"]
            assert type(msg.event) is EVENTS[ev["type"]], where
            if "delta" in ev and "type" in ev["delta"]:
                assert type(msg.event.delta) is DELTAS[ev["delta"]["type"]], where
            if "content_block" in ev:
                assert type(msg.event.content_block) is BLOCKS[ev["content_block"]["type"]], where
        if isinstance(msg, AssistantMessage):
            for block, raw in zip(msg.message.content, obj["message"]["content"]):
                assert type(block) is BLOCKS[raw["type"]], where
        if isinstance(msg, ControlRequest):
            assert type(msg.request) in (CanUseToolRequest, ElicitationRequest), where
            assert msg.request_id == obj["request_id"]


@pytest.mark.parametrize("path", STDOUT + STDIN, ids=lambda p: p.name)
def test_decode_line_equals_decode_obj(path: Path) -> None:
    for line in _lines(path):
        a, b = decode_line(line), decode_obj(json.loads(line))
        assert type(a) is type(b)
        assert a.model_dump() == b.model_dump()
        assert a.raw == b.raw


@pytest.mark.parametrize("path", STDIN, ids=lambda p: p.name)
def test_stdin_lines_decode(path: Path) -> None:
    for line in _lines(path):
        obj = json.loads(line)
        msg = decode_line(line)
        assert type(msg) is EXPECTED[_key(obj)]
        if isinstance(msg, ControlRequest):
            assert isinstance(msg.request, UnknownControlRequest)  # our own requests: not CLI-to-us kinds
            assert msg.request.subtype == obj["request"]["subtype"]
        if isinstance(msg, ControlResponse):
            assert msg.request_id == obj["response"]["request_id"]
            assert msg.payload == obj["response"]["response"]
            assert not msg.is_error and msg.error is None


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.name)
def test_transcript_records_decode(path: Path) -> None:
    seen = set()
    for line in _lines(path):
        obj = json.loads(line)
        msg = decode_obj(obj)
        assert decode_line(line).model_dump() == msg.model_dump()
        assert msg.raw == obj
        seen.add(type(msg))
        if obj["type"] in ("user", "assistant"):
            assert type(msg) is EXPECTED[(obj["type"], None)]
            _assert_no_unknown(msg, path.name)
            assert msg.session_id == obj["sessionId"]
            if isinstance(msg, UserMessage) and "toolUseResult" in obj:
                assert msg.tool_use_result == obj["toolUseResult"]
        else:
            assert isinstance(msg, UnknownMessage)
            assert msg.type == obj["type"]
    assert {UserMessage, AssistantMessage} <= seen


def _fixture_obj(name: str, pred) -> dict:
    for line in _lines(FIX / name):
        obj = json.loads(line)
        if pred(obj):
            return obj
    raise LookupError(name)


def test_recorded_field_details() -> None:
    req = decode_obj(_fixture_obj("bash-allow.stdout.ndjson", lambda o: o["type"] == "control_request"))
    r = req.request
    assert isinstance(r, CanUseToolRequest)
    assert (r.tool_name, r.display_name, r.blocked_path) == ("Bash", "Bash", "/home/user/project/touched")
    assert [s.type for s in r.permission_suggestions] == ["addRules", "addDirectories", "setMode"]
    assert r.permission_suggestions[0].raw["rules"][0]["toolName"] == "Bash"
    assert r.tool_use_id == "toolu_msg_3_1"

    res = decode_obj(_fixture_obj("ask-multi.stdout.ndjson", lambda o: o["type"] == "result"))
    assert res.total_cost_usd == pytest.approx(0.02828)
    assert res.context_window == 1_000_000 and res.is_success
    assert res.model_usage["claude-opus-5-5"].cost_usd == pytest.approx(0.02828)

    denied = decode_obj(_fixture_obj("interrupt-permission.stdout.ndjson", lambda o: o["type"] == "result"))
    assert denied.subtype == "error_during_execution" and denied.is_error
    assert denied.permission_denials[0].tool_name == "Edit"

    replay = decode_obj(_fixture_obj("modes.stdout.ndjson", lambda o: o.get("isReplay")))
    assert replay.is_replay and replay.local_command_output.startswith("Set model to")

    synth = decode_obj(_fixture_obj("slash-cost.stdout.ndjson", lambda o: o["type"] == "assistant"))
    assert synth.is_synthetic

    aborted = decode_obj(_fixture_obj("interrupt-stream.stdout.ndjson", lambda o: o["type"] == "assistant"))
    assert aborted.model_extra["aborted"] is True

    upd = decode_obj(_fixture_obj("subagent.stdout.ndjson", lambda o: o.get("subtype") == "task_updated"))
    assert upd.status == "completed"

    status = decode_obj({"type": "system", "subtype": "status", "status": None, "permissionMode": "plan"})
    assert status.permission_mode == "plan" and status.status is None


@pytest.mark.parametrize(
    "obj, cls",
    [
        ({"type": "brand_new", "x": 1}, UnknownMessage),
        ({"no_type": True}, UnknownMessage),
        ({"type": "system", "subtype": "brand_new"}, UnknownSystem),
        ({"type": "system"}, UnknownSystem),
        ({"type": "stream_event"}, UnknownMessage),
        ({"type": "assistant"}, UnknownMessage),
        ({"type": "control_response", "response": 3}, UnknownMessage),
    ],
)
def test_unknown_and_malformed_top_level(obj: dict, cls: type) -> None:
    for msg in (decode_obj(obj), decode_line(json.dumps(obj))):
        assert type(msg) is cls
        assert msg.raw == obj
        assert msg.validation_error


def test_known_message_with_a_bad_field_keeps_its_type_without_that_field() -> None:
    # Lenient (protocol/lenient.py): the bad field is dropped, the message is still what it is.
    init = decode_obj({"type": "system", "subtype": "init", "tools": "not-a-list", "model": "m"})
    assert type(init) is SystemInit and init.tools == [] and init.model == "m"
    assert dropped_fields(init) == ["tools"] and "tools" not in init.raw
    result = decode_line(json.dumps({"type": "result", "subtype": "success", "num_turns": "many"}))
    assert type(result) is ResultMessage and result.num_turns is None and dropped_fields(result) == ["num_turns"]


def test_result_with_new_subtype_is_still_a_result() -> None:
    msg = decode_obj({"type": "result", "subtype": "error_something_new", "is_error": True, "num_turns": 1})
    assert type(msg) is ResultMessage and msg.is_error and not msg.is_success


def test_unknown_nested_levels_keep_their_parent_typed() -> None:
    ev = decode_line(json.dumps({"type": "stream_event", "event": {"type": "future_event", "a": 1}}))
    assert type(ev) is StreamEvent and type(ev.event) is UnknownEvent
    assert ev.event.raw == {"type": "future_event", "a": 1} and "future_event" in ev.event.validation_error

    s = decode_obj({"type": "stream_event", "event": "nope"})
    assert type(s.event) is UnknownEvent and s.event.raw == {"value": "nope"}

    d = decode_obj({"type": "stream_event", "event": {"type": "content_block_delta", "index": 0,
                                                      "delta": {"type": "text_delta", "text": 5}}})
    assert type(d.event) is ContentBlockDelta and type(d.event.delta) is UnknownDelta
    assert "text" in d.event.delta.validation_error

    a = decode_obj({"type": "assistant", "message": {"content": [
        {"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {}},
        {"type": "text", "text": "hi"}]}})
    assert type(a) is AssistantMessage
    assert [type(b) for b in a.message.content] == [UnknownBlock, TextBlock]
    assert a.message.content[0].raw["name"] == "web_search"

    c = decode_obj({"type": "control_request", "request_id": "r1", "request": {"subtype": "mcp_message", "x": 1}})
    assert type(c) is ControlRequest and type(c.request) is UnknownControlRequest
    assert c.request.subtype == "mcp_message" and c.request.raw["x"] == 1

    h = decode_obj({"type": "control_request", "request_id": "r2",
                    "request": {"subtype": "hook_callback", "callback_id": "cb", "input": {"hook_event_name": "Stop"}}})
    assert type(h.request) is HookCallbackRequest


def test_known_small_messages() -> None:
    assert type(decode_line(b'{"type":"keep_alive"}')) is KeepAlive
    p = decode_obj({"type": "tool_progress", "tool_use_id": "t", "tool_name": "Bash", "elapsed_time_seconds": 2.5})
    assert type(p) is ToolProgress and p.elapsed_time_seconds == 2.5
    s = decode_obj({"type": "tool_use_summary", "summary": "Ran 2 tools", "preceding_tool_use_ids": ["a", "b"]})
    assert type(s) is ToolUseSummary
    a = decode_obj({"type": "auth_status", "isAuthenticating": True, "output": ["x"]})
    assert type(a) is AuthStatus and a.is_authenticating
    r = decode_obj({"type": "rate_limit_event", "rate_limit_info": {"status": "allowed"}})
    assert type(r) is RateLimitEvent
    err = decode_obj({"type": "control_response", "response": {"subtype": "error", "request_id": "q", "error": "no"}})
    assert err.is_error and err.error == "no" and err.request_id == "q" and err.payload is None
    retry = decode_obj({"type": "system", "subtype": "api_retry", "attempt": 1, "max_retries": 10,
                        "retry_delay_ms": 500, "error_status": 529})
    assert type(retry) is ApiRetry and retry.error_status == 529
    cb = decode_obj({"type": "system", "subtype": "compact_boundary",
                     "compact_metadata": {"trigger": "auto", "pre_tokens": 1}})
    assert type(cb) is CompactBoundary
    am = decode_obj({"type": "assistant", "error": "rate_limit",
                     "message": {"model": "<synthetic>", "content": [{"type": "text", "text": "API Error"}]}})
    assert am.error == "rate_limit" and am.is_synthetic


@pytest.mark.parametrize("line", [b"", b"   ", b"{", b"not json", b"\xff\xfe\x00", b"[1,2]", b"42", b'"s"', b"null"])
def test_invalid_lines(line: bytes) -> None:
    msg = decode_line(line)
    assert type(msg) is InvalidLine and msg.error


def test_decode_obj_non_dict() -> None:
    assert type(decode_obj([1])) is InvalidLine
    assert type(decode_obj(None)) is InvalidLine


def test_str_input_and_trailing_newline() -> None:
    assert type(decode_line('{"type":"keep_alive"}\n')) is KeepAlive
    assert type(decode_line(b'{"type":"keep_alive"}\r\n')) is KeepAlive


def test_encode_line() -> None:
    out = encode_line({"type": "user", "text": "é"})
    assert out == '{"type":"user","text":"é"}\n'.encode()
    assert out.count(b"\n") == 1
    assert encode_line({"t": "a\nb"}).count(b"\n") == 1
