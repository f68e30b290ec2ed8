"""Fuzzing the layers between the CLI's bytes and the screen.

* the transcript reader (`history.transcript.load_transcript`) and the replay
  into a `Conversation` never raise on arbitrary lines, JSON shapes or
  corrupted real transcripts;
* `Conversation.apply` never raises on any decoded message, alone or in
  sequences (the state machine is fuzzed with streams whose ids collide, so
  deltas land on items that exist), nor on real recorded lines with one value
  swapped for arbitrary JSON.

The decoder itself is fuzzed in tests/unit/test_protocol_fuzz.py (1k cases by
default, 100k slow); the slow 100k session-layer case lives here.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claude_tui.history.transcript import load_transcript, parse_lines
from claude_tui.protocol import decode_line, decode_obj
from claude_tui.session.conversation import Conversation
from claude_tui.session.replay import record_to_message, replay
from tests.conftest import FIXTURES, recording

FAST = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
SLOW_10K = settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
SLOW_100K = settings(max_examples=100_000, deadline=None, suppress_health_check=list(HealthCheck))

# -- shapes ---------------------------------------------------------------------------------------------------

TYPES = ["system", "assistant", "user", "stream_event", "result", "control_request", "control_response",
         "control_cancel_request", "keep_alive", "tool_progress", "tool_use_summary", "auth_status",
         "rate_limit_event", "progress", "attachment", "cost-state", "summary", "nope"]
SUBTYPES = ["init", "status", "compact_boundary", "api_retry", "thinking_tokens", "hook_started", "task_started",
            "task_updated", "task_progress", "task_notification", "background_tasks_changed", "files_persisted",
            "success", "error_max_turns", "error_max_budget_usd", "error_during_execution", "can_use_tool",
            "hook_callback", "interrupt", "weird"]
BLOCK_TYPES = ["text", "thinking", "redacted_thinking", "tool_use", "server_tool_use", "tool_result", "image", "x"]
EVENT_TYPES = ["message_start", "content_block_start", "content_block_delta", "content_block_stop",
               "message_delta", "message_stop", "text_delta", "thinking_delta", "input_json_delta",
               "signature_delta"]
IDS = ["m1", "m2", "toolu_1", "toolu_2", "req_1", "s1", ""]
KEYS = ["type", "subtype", "message", "event", "request", "response", "delta", "content_block", "content",
        "index", "text", "thinking", "partial_json", "request_id", "tool_name", "input", "usage", "modelUsage",
        "session_id", "tool_use_result", "toolUseResult", "permission_suggestions", "is_error", "id", "name",
        "tool_use_id", "error", "errors", "model", "tools", "status", "attempt", "max_retries",
        "compact_metadata", "permission_denials", "total_cost_usd", "parent_tool_use_id", "task_id", "tasks",
        "uuid", "parentUuid", "isSidechain", "agentId", "isMeta", "elapsed_time_seconds", "permissionMode",
        "source", "data", "api_message_id", "result", "plan", "questions", "options", "label"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-2**63, max_value=2**63), st.floats(allow_nan=True),
    st.text(max_size=12), st.sampled_from(TYPES + SUBTYPES + BLOCK_TYPES + EVENT_TYPES + IDS),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=5)), children, max_size=6),
    ),
    max_leaves=8,
)
# Most keys get a cheap value (generation, not the code under test, dominates the run time otherwise).
small = st.one_of(scalars, st.lists(scalars, max_size=2), st.dictionaries(st.sampled_from(KEYS), scalars, max_size=2))
blocks = st.fixed_dictionaries(
    {"type": st.sampled_from(BLOCK_TYPES)},
    optional={"id": st.one_of(st.sampled_from(IDS), small), "name": small,
              "text": small, "thinking": small, "input": json_values, "content": json_values,
              "tool_use_id": st.one_of(st.sampled_from(IDS), small), "is_error": small,
              "source": small},
)
contents = st.one_of(small, st.text(max_size=30), st.lists(blocks, max_size=4))
events = st.fixed_dictionaries(
    {"type": st.sampled_from(EVENT_TYPES)},
    optional={"index": st.one_of(st.integers(-1, 3), small),
              "delta": st.one_of(small, st.fixed_dictionaries(
                  {"type": st.sampled_from(EVENT_TYPES)},
                  optional={"text": small, "thinking": small, "partial_json": small})),
              "content_block": st.one_of(blocks, small),
              "message": st.one_of(small, st.fixed_dictionaries(
                  {}, optional={"id": st.sampled_from(IDS), "usage": small})),
              "usage": small},
)
requests = st.fixed_dictionaries(
    {"subtype": st.sampled_from(SUBTYPES)},
    optional={"tool_name": st.one_of(st.sampled_from(["Bash", "AskUserQuestion", "ExitPlanMode", "Edit"]),
                                     small),
              "input": small, "tool_use_id": st.one_of(st.sampled_from(IDS), small),
              "permission_suggestions": small, "description": small,
              "decision_reason": small, "blocked_path": small, "display_name": small},
)
payloads = st.fixed_dictionaries(
    {}, optional={"id": st.one_of(st.sampled_from(IDS), small), "model": small,
                  "content": contents, "usage": small, "role": small},
)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={
        "subtype": st.one_of(st.sampled_from(SUBTYPES), small),
        "message": st.one_of(payloads, small),
        "event": st.one_of(events, small),
        "request": st.one_of(requests, small),
        "request_id": st.one_of(st.sampled_from(IDS), small),
        "session_id": small, "parent_tool_use_id": st.one_of(st.sampled_from([None, "toolu_1"]), small),
        "api_message_id": st.sampled_from(IDS), "tool_use_result": json_values, "error": small,
        "errors": small, "tools": small, "status": small, "attempt": small,
        "max_retries": small, "compact_metadata": small, "permission_denials": small,
        "total_cost_usd": small, "modelUsage": small, "is_error": small, "result": small,
        "tool_use_id": st.one_of(st.sampled_from(IDS), small), "elapsed_time_seconds": small,
        "tasks": small, "task_id": small, "permissionMode": small, "model": small,
        "slash_commands": small, "mcp_servers": small, "isReplay": small,
    },
)


def _apply_all(objs: list[Any], conversation: Conversation | None = None) -> Conversation:
    conversation = conversation or Conversation()
    for obj in objs:
        conversation.apply(decode_obj(obj))
        conversation.apply(decode_line(json.dumps(obj, allow_nan=True)))
    # What the app does around the stream must not raise on the resulting state either.
    for rid in list(conversation.permissions):
        conversation.record_decision(rid, "Allowed", denied=False)
    conversation.process_exited(None)
    conversation.add_note("after", title="t")
    return conversation


# -- Conversation.apply ---------------------------------------------------------------------------------------

@FAST
@given(st.lists(messages, max_size=12))
def test_conversation_apply_never_raises(objs: list[Any]) -> None:
    _apply_all(objs)


@FAST
@given(st.lists(st.one_of(messages, json_values), max_size=6))
def test_conversation_apply_arbitrary_json(objs: list[Any]) -> None:
    _apply_all(objs)


RECORDED = [line for name in ("text", "thinking", "bash-allow", "edit-allow", "subagent", "tasks", "ask-multi",
                              "plan-exit", "interrupt-permission", "untrusted-text", "max-turns", "slash-cost")
            for line in recording(name)]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, prefix + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _paths(child, prefix + (i,))
    return out


def _mutate(obj: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return obj


@st.composite
def mutated_recordings(draw: st.DrawFn) -> list[Any]:
    """A real recorded turn with a few values (anywhere in the tree) replaced by arbitrary JSON."""
    start = draw(st.integers(0, len(RECORDED) - 1))
    count = draw(st.integers(1, 25))
    lines = [json.loads(line) for line in RECORDED[start:start + count]]
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        paths = _paths(lines[i])
        path = paths[draw(st.integers(0, len(paths) - 1))]
        lines[i] = _mutate(lines[i], path, draw(json_values))
    return lines


@FAST
@given(mutated_recordings())
def test_conversation_apply_mutated_recordings(lines: list[Any]) -> None:
    _apply_all(lines)


def test_conversation_apply_recordings_unmutated() -> None:
    """The baseline: every recorded line applies cleanly (and the mutation fuzzer has real material)."""
    for path in sorted(FIXTURES.glob("*.stdout.ndjson")):
        conversation = Conversation()
        for line in path.read_text().splitlines():
            if line.strip():
                conversation.apply(decode_line(line))
        assert conversation.items or path.name.startswith(("modes", "slash")), path.name


@pytest.mark.slow
@SLOW_100K
@given(st.one_of(st.lists(messages, max_size=12), mutated_recordings()))
def test_conversation_apply_never_raises_slow(objs: list[Any]) -> None:
    _apply_all(objs)


# -- the transcript reader ------------------------------------------------------------------------------------

REAL_SESSION_LINES = [line.encode() for path in sorted((FIXTURES / "sessions").rglob("*.jsonl"))
                      for line in path.read_text().splitlines() if line.strip()]
record_shapes = st.fixed_dictionaries(
    {"type": st.sampled_from(["user", "assistant", "system", "progress", "attachment", "cost-state", "x"])},
    optional={"uuid": st.one_of(st.sampled_from(["u1", "u2", "u3"]), json_values),
              "parentUuid": st.one_of(st.sampled_from(["u1", "u2", "u3", None]), json_values),
              "logicalParentUuid": st.one_of(st.sampled_from(["u1", "u2"]), json_values),
              "subtype": st.one_of(st.just("compact_boundary"), json_values),
              "message": st.one_of(payloads, json_values), "isSidechain": json_values, "isMeta": json_values,
              "agentId": json_values, "toolUseResult": json_values, "parentToolUseID": json_values,
              "data": json_values, "sessionId": json_values, "totalCostUSD": json_values,
              "compactMetadata": json_values, "error": json_values},
)
line_bytes = st.one_of(
    st.binary(max_size=80),
    st.text(max_size=80).map(str.encode),
    json_values.map(lambda v: json.dumps(v, allow_nan=True).encode()),
    record_shapes.map(lambda v: json.dumps(v, allow_nan=True).encode()),
    st.sampled_from(REAL_SESSION_LINES) if REAL_SESSION_LINES else st.just(b"{}"),
    st.sampled_from(REAL_SESSION_LINES).flatmap(  # a real line cut short
        lambda line: st.integers(0, len(line)).map(lambda n: line[:n])) if REAL_SESSION_LINES else st.just(b""),
    st.integers(1, 3000).map(lambda n: b"[" * n + b"]" * n),  # deep nesting
    st.integers(1, 3000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
)
transcripts = st.lists(line_bytes, max_size=15).map(lambda lines: b"\n".join(lines))


def _load_and_replay(tmp: Path, data: bytes, subagent: bytes | None = None) -> None:
    path = tmp / "0b9e3a43-0000-4000-8000-000000000000.jsonl"
    path.write_bytes(data)
    if subagent is not None:
        sub = tmp / path.stem / "subagents"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / "agent-a1.jsonl").write_bytes(subagent)
        (sub / "agent-a1.meta.json").write_bytes(subagent[:200])
    transcript = load_transcript(path)
    assert transcript.skipped_lines >= 0
    conversation = replay(transcript.records, transcript.subagents, session_id=transcript.session_id)
    for record in transcript.records:
        record_to_message(record)
    conversation.process_exited(0)




def _check_transcript(tmp_path_factory: pytest.TempPathFactory, data: bytes, sub: bytes | None) -> None:
    _load_and_replay(tmp_path_factory.mktemp("t"), data, sub)


@FAST
@given(data=transcripts, sub=st.one_of(st.none(), transcripts))
def test_transcript_reader_never_raises(tmp_path_factory: pytest.TempPathFactory, data: bytes,
                                        sub: bytes | None) -> None:
    _check_transcript(tmp_path_factory, data, sub)


@pytest.mark.slow
@SLOW_10K
@given(data=transcripts, sub=st.one_of(st.none(), transcripts))
def test_transcript_reader_never_raises_slow(tmp_path_factory: pytest.TempPathFactory, data: bytes,
                                             sub: bytes | None) -> None:
    _check_transcript(tmp_path_factory, data, sub)


def test_transcript_reader_survives_corrupted_real_sessions(tmp_path: Path) -> None:
    """Every real transcript, with lines truncated, swapped, duplicated and bytes flipped (seeded)."""
    rng = random.Random(9)
    files = sorted((FIXTURES / "sessions").rglob("*.jsonl"))
    assert files
    for round_ in range(60):
        lines = files[round_ % len(files)].read_bytes().split(b"\n")
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(lines))
            op = rng.randrange(4)
            if op == 0:
                lines[i] = lines[i][: rng.randint(0, len(lines[i]))]
            elif op == 1:
                lines.insert(rng.randrange(len(lines)), lines[i])
            elif op == 2 and lines[i]:
                b = bytearray(lines[i])
                b[rng.randrange(len(b))] = rng.randrange(256)
                lines[i] = bytes(b)
            else:
                rng.shuffle(lines)
        case = tmp_path / str(round_)
        case.mkdir()
        _load_and_replay(case, b"\n".join(lines))


def test_parse_lines_counts_deeply_nested_line_as_corrupt() -> None:
    """A line nested deeper than the JSON parser's recursion limit is one corrupt line, not a crash."""
    deep = b"[" * 200_000 + b"]" * 200_000
    records, bad = parse_lines(b'{"type":"user","uuid":"u1"}\n' + deep + b"\n")
    assert len(records) == 1 and bad == 1


def test_transcript_record_with_unhashable_type(tmp_path: Path) -> None:
    """`{"type": [...]}` is a record of no known type: skipped, not a crash."""
    path = tmp_path / "s.jsonl"
    path.write_text('{"type":["user"],"uuid":"u1"}\n{"type":{"a":1},"uuid":"u2"}\n'
                    '{"type":"user","uuid":"u3","message":{"role":"user","content":"hi"}}\n')
    transcript = load_transcript(path)
    assert [r["uuid"] for r in transcript.records] == ["u3"]
