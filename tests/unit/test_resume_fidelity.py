"""Resumed history shows what the live session showed: denials, the running model, the cost of a fork.

The records are trimmed copies of what Claude Code 2.1.330 wrote to its transcripts in
the e2e tier (``kw:bash`` denied with ``n`` and with ``t`` + a message, ``kw:plan``
kept planning); the live lines are from the same runs' stream-json.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claude_tui.history.export import to_markdown as transcript_markdown
from claude_tui.history.transcript import load_transcript, tool_denial
from claude_tui.protocol import UserMessage, decode_obj
from claude_tui.session import changes as ch
from claude_tui.session.content import is_user_rejection, not_run_states
from claude_tui.session.conversation import Conversation
from claude_tui.session.export import to_markdown
from claude_tui.session.items import NoteItem, NoteKind, ToolItem, ToolState
from claude_tui.session.replay import record_to_message, replay

SESSION = "26225c28-343a-49dd-bcae-40ae3cb872c4"
REJECT = {"decision": "reject", "source": "user_reject", "reasonCode": "unknown"}


def prompt(text: str, uuid: str) -> dict[str, Any]:
    return {"type": "user", "uuid": uuid, "sessionId": SESSION, "isSidechain": False,
            "message": {"role": "user", "content": [{"type": "text", "text": text}]}}


def tool_use(tool_id: str, name: str, tool_input: dict[str, Any], uuid: str,
             model: str = "claude-opus-5-5") -> dict[str, Any]:
    return {"type": "assistant", "uuid": uuid, "sessionId": SESSION, "isSidechain": False,
            "message": {"id": f"msg_{uuid}", "type": "message", "role": "assistant", "model": model,
                        "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}]}}


def answer(text: str, uuid: str, model: str = "claude-opus-5-5") -> dict[str, Any]:
    return {"type": "assistant", "uuid": uuid, "sessionId": SESSION, "isSidechain": False,
            "message": {"id": f"msg_{uuid}", "type": "message", "role": "assistant", "model": model,
                        "content": [{"type": "text", "text": text}]}}


def refusal(tool_id: str, said: str, uuid: str, **fields: Any) -> dict[str, Any]:
    """A tool_result record as the CLI writes a denial (fields: toolDenialKind, permissionDecision)."""
    return {"type": "user", "uuid": uuid, "sessionId": SESSION, "isSidechain": False,
            "message": {"role": "user", "content": [
                {"type": "tool_result", "content": said, "is_error": True, "tool_use_id": tool_id}]},
            "toolUseResult": f"Error: {said}", **fields}


BASH = {"command": "touch /project/touched && echo hello-from-bash", "description": "Touch a file and greet"}
DENIED = [
    prompt("kw:bash please", "u1"),
    tool_use("toolu_msg_1_1", "Bash", BASH, "a1"),
    refusal("toolu_msg_1_1", "The user denied this tool use.", "u2",
            toolDenialKind="permission-rule", holdsPersonsWords=True, permissionDecision=REJECT),
    answer("All done. The tool ran. ", "a2"),
]
TOLD = [
    prompt("kw:bash again", "u3"),
    tool_use("toolu_msg_3_1", "Bash", BASH, "a3"),
    refusal("toolu_msg_3_1", "use ls instead", "u4",
            toolDenialKind="permission-rule", holdsPersonsWords=True, permissionDecision=REJECT),
    answer("All done. The tool ran. ", "a4"),
]
KEPT_PLANNING = [
    prompt("kw:plan it", "u5"),
    tool_use("toolu_msg_9_0", "ExitPlanMode", {"plan": "## Plan\n\n1. Read the code"}, "a5"),
    refusal("toolu_msg_9_0", "The user wants to keep planning.", "u6",
            toolDenialKind="permission-rule", holdsPersonsWords=True, permissionDecision=REJECT),
    answer("All done. The tool ran. ", "a6"),
]


def tools(conversation: Conversation) -> dict[str, ToolItem]:
    return {item.tool_use_id: item for item in conversation.items if isinstance(item, ToolItem)}


# -- 1. denials --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("records", [DENIED, TOLD, KEPT_PLANNING], ids=["denied", "told", "kept-planning"])
def test_a_refused_call_replays_as_denied_not_as_an_error(records: list[dict[str, Any]]) -> None:
    [tool] = tools(replay(records)).values()
    assert tool.state is ToolState.DENIED
    assert tool.result_is_error  # what the CLI recorded is kept as it was


def test_the_transcripts_denial_fields_reach_the_session_as_tool_result_meta() -> None:
    message = record_to_message(TOLD[2])
    assert message is not None
    assert message["tool_result_meta"] == [
        {"id": "toolu_msg_3_1", "non_execution_kind": "permission-rule", "permission_decision": REJECT}]
    decoded = decode_obj(message)
    assert isinstance(decoded, UserMessage)
    assert not_run_states(decoded.tool_result_meta) == {"toolu_msg_3_1": ToolState.DENIED}


def test_a_cut_off_call_replays_as_interrupted_and_a_failure_stays_an_error() -> None:
    records = [
        prompt("go", "u1"),
        tool_use("t-cut", "Bash", {"command": "sleep 100"}, "a1"),
        refusal("t-cut", "[Request interrupted by user for tool use]", "u2", toolDenialKind="interrupted"),
        tool_use("t-fail", "Bash", {"command": "false"}, "a2"),
        {"type": "user", "uuid": "u3", "message": {"role": "user", "content": [
            {"type": "tool_result", "content": "Exit code 1", "is_error": True, "tool_use_id": "t-fail"}]},
         "toolUseResult": "Error: Exit code 1"},
    ]
    found = tools(replay(records))
    assert found["t-cut"].state is ToolState.INTERRUPTED
    assert found["t-fail"].state is ToolState.ERROR


def test_refusal_words_without_the_fields_still_count() -> None:
    """Older transcripts: the words this app (and the CLI) use for a refusal."""
    assert is_user_rejection("Error: The user denied this tool use.", "The user denied this tool use.")
    assert is_user_rejection("Error: The user wants to keep planning.", "The user wants to keep planning.")
    assert not is_user_rejection("Error: Exit code 1", "Exit code 1")
    stripped = [{k: v for k, v in r.items() if k not in ("toolDenialKind", "permissionDecision")} for r in DENIED]
    [tool] = tools(replay(stripped)).values()
    assert tool.state is ToolState.DENIED


def test_a_live_rule_denial_is_denied_from_its_tool_result_meta() -> None:
    """A permission rule refuses without a dialog: the result's meta says so (no decision was recorded)."""
    conversation = Conversation()
    conversation.apply(decode_obj({"type": "assistant", "parent_tool_use_id": None, "session_id": SESSION,
                                   "message": tool_use("t1", "Bash", BASH, "a1")["message"]}))
    changes = conversation.apply(decode_obj({
        "type": "user", "parent_tool_use_id": None, "session_id": SESSION,
        "message": {"role": "user", "content": [
            {"type": "tool_result", "content": "Permission to use Bash has been denied.", "is_error": True,
             "tool_use_id": "t1"}]},
        "tool_use_result": "Error: Permission to use Bash has been denied.",
        "tool_result_meta": [{"id": "t1", "non_execution_kind": "permission-rule",
                              "permission_decision": {"decision": "reject", "source": "config"}}]}))
    [tool] = tools(conversation).values()
    assert tool.state is ToolState.DENIED
    assert sum(isinstance(c, ch.ItemChanged) and c.item is tool for c in changes) == 1


def test_the_markdown_export_of_resumed_history_says_denied() -> None:
    conversation = replay(DENIED + TOLD)
    text = to_markdown(conversation.items, conversation.status)
    assert text.count("#### Bash Touch a file and greet (denied)") == 2
    assert "(error)" not in text


def test_the_transcript_export_says_denied(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION}.jsonl"
    chain = DENIED + TOLD
    parent = None
    lines = []
    for record in chain:
        lines.append(json.dumps({**record, "parentUuid": parent}))
        parent = record["uuid"]
    path.write_text("\n".join(lines) + "\n")
    text = transcript_markdown(load_transcript(path))
    assert "> Denied: The user denied this tool use." in text
    assert "> Denied: use ls instead" in text
    assert "Tool error" not in text
    assert tool_denial(TOLD[2]) == "denied"
    assert tool_denial({"toolDenialKind": "cancelled"}) == "interrupted"
    assert tool_denial(answer("x", "a9")) is None


# -- 4. the model -----------------------------------------------------------------------------------------


def test_a_resumed_conversation_does_not_show_the_transcripts_model_as_current() -> None:
    conversation = replay(DENIED, session_id=SESSION)
    assert conversation.status.model == ""  # shown as unknown ("…") until the CLI says
    conversation.apply(decode_obj({"type": "system", "subtype": "init", "session_id": SESSION,
                                   "model": "claude-sonnet-5-5", "tools": []}))
    assert conversation.status.model == "claude-sonnet-5-5"


def test_the_initialize_response_names_the_model_when_the_cli_reports_it() -> None:
    conversation = replay(DENIED, session_id=SESSION)
    conversation.apply_initialize({
        "commands": [], "current_model": "sonnet",
        "models": [{"value": "default", "resolvedModel": "claude-opus-5-5"},
                   {"value": "sonnet", "resolvedModel": "claude-sonnet-5-5"}]})
    assert conversation.status.model == "claude-sonnet-5-5"
    conversation.apply_initialize({"commands": [], "current_model": "claude-haiku-5-5", "models": []})
    assert conversation.status.model == "claude-haiku-5-5"


# -- 2. the cost of a continued history ---------------------------------------------------------------------


def result(total: float) -> Any:
    return decode_obj({"type": "result", "subtype": "success", "is_error": False, "session_id": "new",
                       "total_cost_usd": total, "result": "ok"})


def test_a_forked_history_keeps_its_cost_when_the_status_was_reset() -> None:
    """The session browser's fork zeroes the shown cost; the CLI's totals still include the parent's."""
    conversation = replay(DENIED, session_id=SESSION, cost_usd=0.3133)
    conversation.status.cost_total = conversation.status.cost_last_turn = 0.0  # what the fork path does
    conversation.apply_initialize({"commands": []})
    assert conversation.status.cost_total == pytest.approx(0.3133)
    conversation.add_user_prompt("kw:plain after fork")
    conversation.apply(result(0.3274))
    assert conversation.status.cost_total == pytest.approx(0.3274)
    assert conversation.status.cost_last_turn == pytest.approx(0.0141)


def test_a_turn_the_cli_starts_itself_after_a_fork_counts_only_its_own_cost() -> None:
    conversation = replay(DENIED, session_id=SESSION, cost_usd=0.3133)
    conversation.status.cost_total = 0.0
    conversation.apply(decode_obj({"type": "system", "subtype": "init", "session_id": "new", "tools": []}))
    conversation.apply(result(0.3274))
    assert conversation.status.cost_last_turn == pytest.approx(0.0141)


def test_a_fresh_conversation_has_no_history_cost() -> None:
    conversation = Conversation()
    conversation.apply_initialize({"commands": []})
    conversation.add_user_prompt("hi")
    conversation.apply(result(0.0141))
    assert conversation.status.cost_total == pytest.approx(0.0141)
    assert conversation.status.cost_last_turn == pytest.approx(0.0141)


# -- the resumed note for a background agent (what the live view matches) -----------------------------------


def test_the_transcripts_task_notification_is_a_note_between_the_answers() -> None:
    notification = ('<task-notification>\n<task-id>ad8e1f8b459c3b108</task-id>\n<tool-use-id>toolu_msg_5_1'
                    '</tool-use-id>\n<status>completed</status>\n<summary>Agent "Explore tree" finished</summary>\n'
                    '<result>Subagent here, exploring. </result>\n</task-notification>')
    records = [prompt("kw:agent go", "u1"), answer("All done. The tool ran. ", "a1"),
               {"type": "user", "uuid": "u2", "message": {"role": "user", "content": notification}},
               answer("All done. The tool ran. ", "a2")]
    items = replay(records).items
    kinds = [(type(i).__name__, getattr(i, "text", "")) for i in items]
    assert kinds[1:4] == [("TextItem", "All done. The tool ran. "),
                          ("NoteItem", 'Agent "Explore tree" finished'),
                          ("TextItem", "All done. The tool ran. ")]
    assert isinstance(items[2], NoteItem) and items[2].kind is NoteKind.INFO
