"""The session reads the typed protocol models; what used to be read from raw dicts still behaves.

Each test covers a place where a typed path replaced a dict path and the two could differ: a field
the models lacked (now added, checked against every recording), an Unknown block or request (still
read from its raw dict), a value of the wrong type, and the public names the UI uses.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from claude_tui import protocol as p
from claude_tui.protocol import decode_line, decode_obj, dropped_fields
from claude_tui.session import changes as ch
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, NoteKind, ToolItem, ToolState, UserItem
from claude_tui.session.status import Activity

FIXTURES = Path(__file__).parent.parent / "fixtures"
RECORDINGS = sorted(FIXTURES.glob("claude-code-*/*.stdout.ndjson"))


def apply(conversation: Conversation, *messages: dict[str, Any]) -> list[ch.Change]:
    changes: list[ch.Change] = []
    for message in messages:
        changes += conversation.apply(decode_line(json.dumps(message)))
    return changes


def _nested(model: Any) -> list[str]:
    """Dropped fields of a model and of the models inside it (the lenient repair marks the one it fixed)."""
    found = list(dropped_fields(model))
    for value in vars(model).values():
        for inner in value if isinstance(value, list) else [value]:
            if isinstance(inner, p.ProtoModel):
                found += _nested(inner)
    return found


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_every_recording_decodes_without_dropping_a_field(path: Path) -> None:
    """The fields added for the session (and the old ones) fit what every supported CLI printed:
    a wrongly typed field would be dropped by the lenient repair, and the session would silently lose it."""
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        message = decode_line(line)
        assert not isinstance(message, p.InvalidLine), line[:200]
        assert not _nested(message), (line[:200], _nested(message))


def test_the_fields_the_session_reads_are_typed_on_real_lines() -> None:
    lines = [json.loads(line) for line in (FIXTURES / "claude-code-2.1.330" / "bash-deny.stdout.ndjson")
             .read_text().splitlines() if line.strip()]
    metas = [line for line in lines if line.get("tool_result_meta")]
    assert metas, "the recording has a tool result with tool_result_meta"
    user = decode_obj(metas[0])
    assert isinstance(user, p.UserMessage)
    assert [meta.model_dump(exclude_unset=True) for meta in user.tool_result_meta] == metas[0]["tool_result_meta"]
    streamed = next(line for line in lines if line.get("api_message_id"))
    event = decode_obj(streamed)
    assert isinstance(event, p.StreamEvent) and event.api_message_id == streamed["api_message_id"]


def test_permission_suggestions_go_back_exactly_as_the_cli_sent_them() -> None:
    """`updatedPermissions` echoes a suggestion verbatim: the typed request must hand over the same dicts."""
    seen = 0
    for path in RECORDINGS:
        conversation = Conversation()
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            for change in conversation.apply(decode_line(line)):
                if isinstance(change, ch.PermissionAsked):
                    sent = json.loads(line)["request"]
                    assert change.request.suggestions == sent.get("permission_suggestions", [])
                    assert change.request.input == sent.get("input", {})  # an elicitation has none
                    seen += bool(change.request.suggestions)
    assert seen, "some recording offers suggestions"


def test_a_can_use_tool_the_model_cannot_read_still_asks() -> None:
    """Strictly typed requests stay Unknown when a field is bad; the transport still holds them as pending,
    so the session must still ask (from the raw dict) rather than leave the CLI waiting unseen."""
    conversation = Conversation()
    changes = apply(conversation, {"type": "control_request", "request_id": "r1", "request": {
        "subtype": "can_use_tool", "tool_name": "Bash", "input": {"command": "ls"}, "tool_use_id": "t1",
        "permission_suggestions": "not a list"}})
    asked = [change.request for change in changes if isinstance(change, ch.PermissionAsked)]
    assert [(r.request_id, r.tool_name, r.input, r.suggestions) for r in asked] == [
        ("r1", "Bash", {"command": "ls"}, [])]
    assert conversation.status.activity is Activity.WAITING
    assert conversation.permissions.keys() == {"r1"}


def test_another_unknown_control_request_is_not_a_permission() -> None:
    conversation = Conversation()
    changes = apply(conversation, {"type": "control_request", "request_id": "r2",
                                   "request": {"subtype": "brand_new_thing", "message": "?"}})
    assert not any(isinstance(change, ch.PermissionAsked) for change in changes)
    assert not conversation.permissions


def test_a_server_tool_call_streams_into_one_card_with_its_id_and_name() -> None:
    """`server_tool_use` is not a typed block: its raw dict gives the card its id and name, so the final
    block completes the streamed card instead of adding a second one."""
    conversation = Conversation()
    block = {"type": "server_tool_use", "id": "srv_1", "name": "web_search", "input": {"query": "q"}}
    envelope = {"type": "stream_event", "session_id": "s", "parent_tool_use_id": None, "api_message_id": "m1"}
    apply(conversation,
          {**envelope, "event": {"type": "message_start", "message": {"id": "m1"}}},
          {**envelope, "event": {"type": "content_block_start", "index": 0, "content_block": {**block, "input": {}}}},
          {**envelope, "event": {"type": "content_block_stop", "index": 0}},
          {"type": "assistant", "session_id": "s", "parent_tool_use_id": None,
           "message": {"id": "m1", "model": "claude", "content": [block]}})
    tools = [item for item in conversation.items if isinstance(item, ToolItem)]
    assert [(tool.tool_use_id, tool.name, tool.input) for tool in tools] == [("srv_1", "web_search", {"query": "q"})]


def test_a_tool_result_block_without_its_id_still_gets_a_card() -> None:
    """A `tool_result` missing `tool_use_id` fails its model (an Unknown block): read from the raw dict."""
    conversation = Conversation()
    changes = apply(conversation, {"type": "user", "session_id": "s", "parent_tool_use_id": None, "message": {
        "role": "user", "content": [{"type": "tool_result", "content": "done", "is_error": False}]}})
    [tool] = [item for item in conversation.items if isinstance(item, ToolItem)]
    assert tool.result_text == "done" and tool.state is ToolState.DONE
    assert any(isinstance(change, ch.ItemChanged) and change.item is tool for change in changes)


@pytest.mark.parametrize("cost", [True, "0.5", -1])
def test_a_cost_that_is_not_a_number_is_ignored_and_the_turn_still_ends(cost: object) -> None:
    conversation = Conversation()
    conversation.add_user_prompt("hi")
    apply(conversation, {"type": "result", "subtype": "success", "is_error": False, "result": "ok",
                         "total_cost_usd": 0.25})
    conversation.add_user_prompt("again")
    changes = apply(conversation, {"type": "result", "subtype": "success", "is_error": False, "result": "ok",
                                   "total_cost_usd": cost})
    assert conversation.status.cost_total == pytest.approx(0.25)
    assert conversation.status.activity is Activity.IDLE
    assert any(isinstance(change, ch.TurnEnded) for change in changes)


def test_a_compact_summary_is_a_note_whichever_flag_says_so() -> None:
    """Transcripts flag the summary `isCompactSummary`; some only `isVisibleInTranscriptOnly` (typed now)."""
    summary = "This session is being continued from a previous conversation. It ran `ls`."
    for flags in ({"isCompactSummary": True}, {"isVisibleInTranscriptOnly": True}):
        conversation = Conversation()
        apply(conversation, {"type": "user", "session_id": "s", "message": {"role": "user", "content": summary},
                             **flags})
        assert not any(isinstance(item, UserItem) for item in conversation.items), flags
        assert [(item.kind, item.text) for item in conversation.items if isinstance(item, NoteItem)] == [
            (NoteKind.COMPACT, "Conversation compacted")]


def test_compaction_metadata_reads_both_spellings() -> None:
    for meta in ({"trigger": "manual", "pre_tokens": 1234}, {"trigger": "manual", "preTokens": 1234}):
        conversation = Conversation()
        apply(conversation, {"type": "system", "subtype": "compact_boundary", "compact_metadata": meta})
        [note] = conversation.items
        assert isinstance(note, NoteItem) and note.text == "Conversation compacted (manual) — 1,234 tokens before"


def test_a_background_task_list_with_odd_entries_keeps_the_good_ones() -> None:
    conversation = Conversation()
    apply(conversation, {"type": "system", "subtype": "background_tasks_changed", "tasks": [
        {"task_id": "b1", "task_type": "local_bash", "description": None},
        {"description": "no id"},
        "not an object",
    ]})
    assert list(conversation.tasks.agents) == ["b1"]
    assert conversation.tasks.agents["b1"].description == ""


def test_the_public_api_the_ui_uses_is_still_there() -> None:
    """h-core's chat session and the widgets call these names; the parts behind them may move, not these."""
    conversation = Conversation()
    for name in ("apply", "apply_initialize", "add_note", "add_user_prompt", "process_exited", "record_decision",
                 "expect_mode", "mode_switched", "log_for", "tool", "check_cli_version", "rewind_to"):
        assert callable(getattr(conversation, name)), name
    assert conversation.expect_mode("plan") is conversation
    assert conversation.status.permission_mode == "plan" and conversation.requested_mode == "plan"
    assert conversation.items is conversation.main.items and conversation.subagents == {}
    assert conversation.permissions == {} and conversation.commands == [] and conversation.models == []
    conversation.models = [{"value": "sonnet"}]
    assert conversation.cli.models == [{"value": "sonnet"}]
    conversation.model_choice = "opus"
    assert conversation.cli.model_choice == "opus"
    conversation.history_cost = 0.5
    assert conversation.cost.history == 0.5
    assert conversation.reported_mode is None and conversation.version_checked is False
    for name in ("tasks", "changes", "cost", "account", "invalid_lines"):
        assert hasattr(conversation, name), name


def test_an_initialize_payload_with_odd_fields_keeps_what_is_readable() -> None:
    """`apply_initialize` reads the typed `InitializeResponse`: bad entries are dropped, never raised."""
    conversation = Conversation()
    conversation.apply_initialize({"commands": [{"name": "review"}, 3, "x"], "models": "none", "account": None,
                                   "claude_code_version": 2, "current_permission_mode": "plan"}, "2.1.330")
    assert conversation.commands == [{"name": "review"}] and conversation.models == [] and conversation.account == {}
    assert conversation.status.cli_version == "2.1.330"  # the package's version stands in for a bad one
    assert conversation.reported_mode == "plan"
    typed = p.InitializeResponse.from_payload({"models": [{"value": "sonnet", "resolvedModel": "claude-sonnet-5"}],
                                               "current_model": "sonnet"})
    conversation.apply_initialize(typed)
    assert conversation.status.model == "claude-sonnet-5"


def test_every_type_ignore_in_the_session_names_its_error() -> None:
    """No blanket `# type: ignore` in `session/` (mypy --strict is enforced by tests/unit/test_typing.py)."""
    bare = re.compile(r"#\s*type:\s*ignore(?!\[)")
    session = Path(__file__).resolve().parents[2] / "claude_tui" / "session"
    found = [f"{path.name}:{number}" for path in sorted(session.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if bare.search(line)]
    assert not found, found


def test_an_elicitation_asks_like_a_permission_and_a_cancel_withdraws_it() -> None:
    conversation = Conversation()
    changes = apply(conversation, {"type": "control_request", "request_id": "e1", "request": {
        "subtype": "elicitation", "mcp_server_name": "notes", "message": "Who are you?",
        "requested_schema": {"type": "object", "properties": {"name": {"type": "string"}}}}})
    (asked,) = [c.request for c in changes if isinstance(c, ch.PermissionAsked)]
    assert asked.elicitation is not None and asked.elicitation.mcp_server_name == "notes"
    assert asked.title == "notes asks" and asked.description == "Who are you?" and asked.tool_use_id == ""
    assert conversation.status.activity is Activity.WAITING
    closed = apply(conversation, {"type": "control_cancel_request", "request_id": "e1"})
    assert any(isinstance(c, ch.PermissionClosed) and c.reason == "cancelled" for c in closed)
    assert not conversation.permissions


def test_bash_mode_blocks_are_notes_when_resumed_and_nothing_when_echoed() -> None:
    """A `!command` goes to Claude as <bash-input>/<bash-stdout> blocks before the prompt (issue 30):
    read back from a transcript they are the command and its output, never prompts; our own
    echo of them adds nothing (the command's card shows them)."""
    blocks = [{"type": "text", "text": "<bash-input>ls</bash-input>\n"},
              {"type": "text", "text": "<bash-stdout>a.txt</bash-stdout><bash-stderr>Exit code 1</bash-stderr>"},
              {"type": "text", "text": "what now?"}]
    record = {"type": "user", "message": {"role": "user", "content": blocks}, "session_id": "s",
              "parent_tool_use_id": None, "uuid": "u-1"}
    resumed = Conversation()
    apply(resumed, record)
    assert [(type(i).__name__, getattr(i, "kind", None), i.text) for i in resumed.items] == [  # type: ignore[attr-defined]
        ("NoteItem", NoteKind.INFO, "! ls"), ("NoteItem", NoteKind.LOCAL_COMMAND, "a.txt\nExit code 1"),
        ("UserItem", None, "what now?")]
    live = Conversation()
    live.add_user_prompt("what now?")
    apply(live, {**record, "isReplay": True})
    assert [type(i).__name__ for i in live.items] == ["UserItem"]
