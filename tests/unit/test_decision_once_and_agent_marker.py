"""A permission decision is shown once (on the tool card), and a background agent's end is marked live.

Driven by the real CLI 2.1.330 recordings (``bash-allow``, ``subagent``).
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from claude_tui.protocol import decode_line, decode_obj
from claude_tui.session import changes as ch
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, NoteKind, TextItem, ToolItem, ToolState
from claude_tui.session.permission_flow import decision_details, decision_head
from claude_tui.session.permissions import PermissionRequest
from claude_tui.session.status import Activity
from claude_tui.ui.log.tool_card import ToolCard
from tests.conftest import recording
from tests.styles import APP_CSS, MAIN_ROW_CSS


def until_asked(name: str) -> tuple[Conversation, PermissionRequest]:
    """Play a recording up to its permission request."""
    conversation = Conversation()
    for line in recording(name):
        for change in conversation.apply(decode_line(line)):
            if isinstance(change, ch.PermissionAsked):
                return conversation, change.request
    raise AssertionError(f"{name} asks for no permission")


def decision_notes(conversation: Conversation) -> list[NoteItem]:
    return [i for i in conversation.items if isinstance(i, NoteItem) and i.kind is NoteKind.DECISION]


# -- 3. one place for a decision ------------------------------------------------------------------------


def test_allowed_once_is_on_the_card_only() -> None:
    conversation, request = until_asked("bash-allow")
    changes = conversation.record_decision(request.request_id, "Allowed once", denied=False)
    tool = conversation.tool(request.tool_use_id)
    assert tool is not None and tool.decision == "Allowed once"
    assert any(isinstance(c, ch.ItemChanged) and c.item is tool for c in changes)
    assert decision_notes(conversation) == []
    assert not any(isinstance(c, ch.ItemAdded) for c in changes)


def test_a_plain_denial_is_on_the_card_only() -> None:
    conversation, request = until_asked("bash-allow")
    conversation.record_decision(request.request_id, "Denied", denied=True)
    tool = conversation.tool(request.tool_use_id)
    assert tool is not None and tool.state is ToolState.DENIED
    assert decision_notes(conversation) == []


def test_what_was_told_to_claude_keeps_its_note() -> None:
    conversation, request = until_asked("bash-allow")
    conversation.record_decision(request.request_id, "Denied: use ls instead", denied=True)
    [note] = decision_notes(conversation)
    assert (note.title, note.text) == ("Bash", "Denied: use ls instead")


def test_a_saved_rule_keeps_its_note() -> None:
    conversation, request = until_asked("bash-allow")
    words = "Always allowed: Bash commands starting with `touch` — for this session"
    conversation.record_decision(request.request_id, words, denied=False)
    assert [n.text for n in decision_notes(conversation)] == [words]


def test_a_decision_for_a_tool_without_a_card_in_the_log_keeps_its_note() -> None:
    conversation, request = until_asked("bash-allow")
    tool = conversation.tool(request.tool_use_id)
    assert tool is not None
    # The same call made by a subagent: its card lives in the sidebar, not in the main log.
    conversation.main.items.remove(tool)
    conversation.main.tools.pop(tool.tool_use_id)
    conversation.log_for("toolu_task").tools[tool.tool_use_id] = tool
    conversation.log_for("toolu_task").items.append(tool)
    conversation.record_decision(request.request_id, "Allowed once", denied=False)
    assert [n.text for n in decision_notes(conversation)] == ["Allowed once"]
    # And a request for a call the log never saw.
    conversation.permissions["r2"] = PermissionRequest("r2", "Bash", {}, tool_use_id="unknown")
    conversation.record_decision("r2", "Allowed once", denied=False)
    assert len(decision_notes(conversation)) == 2


def test_decision_words_split_into_head_and_details() -> None:
    assert (decision_head("Denied: use rg: not grep"), decision_details("Denied: use rg: not grep")) == (
        "Denied", "use rg: not grep")
    answered = "Answered — Color: Red; Toppings: Cheese, Basil"
    assert (decision_head(answered), decision_details(answered)) == (answered, "")
    assert (decision_head("Allowed once"), decision_details("Allowed once")) == ("Allowed once", "")


def test_answers_are_on_the_card_only() -> None:
    conversation, request = until_asked("ask-single")
    conversation.record_decision(request.request_id, "Answered — Color: Red", denied=False)
    tool = conversation.tool(request.tool_use_id)
    assert tool is not None and tool.decision == "Answered — Color: Red"
    assert decision_notes(conversation) == []


class CardApp(App[None]):
    CSS_PATH = [APP_CSS]  # type: ignore[assignment]
    CSS = MAIN_ROW_CSS

    def __init__(self, card: ToolCard) -> None:
        super().__init__()
        self.card = card

    def compose(self) -> ComposeResult:
        yield self.card


async def header(name: str, state: ToolState, decision: str, tool_input: dict[str, Any] | None = None) -> str:
    card = ToolCard(ToolItem(tool_use_id="t1", name=name, input=tool_input or {"command": "ls"}, state=state,
                             decision=decision))
    async with CardApp(card).run_test(size=(140, 10)) as pilot:
        await pilot.pause()
        return card._header_widget.render_line(0).text


async def test_the_card_carries_the_decision() -> None:
    assert "· Allowed once" in await header("Bash", ToolState.DONE, "Allowed once")
    shown = await header("Bash", ToolState.DONE, "Always allowed: Bash commands starting with `ls` — for this session")
    assert "· Always allowed" in shown and "starting with" not in shown  # the details are in the note
    assert "·" not in await header("Bash", ToolState.DENIED, "Denied")  # "⊘ denied" says it
    told = await header("Bash", ToolState.DENIED, "Denied: use ls instead")
    assert "⊘ denied" in told and "use ls instead" not in told and "·" not in told
    # A denial in other words says more than "denied": the card shows it, as no note does any more.
    assert "· Kept planning" in await header("ExitPlanMode", ToolState.DENIED, "Kept planning", {"plan": "x"})
    assert "· Denied and stopped" in await header("Bash", ToolState.DENIED, "Denied and stopped")
    assert "· Answered — Color: Red" in await header("AskUserQuestion", ToolState.DONE, "Answered — Color: Red",
                                                     {"questions": []})


# -- 5. a background agent's end, live -------------------------------------------------------------------


def play(lines: list[str], conversation: Conversation | None = None) -> tuple[Conversation, list[Any]]:
    conversation = conversation or Conversation()
    changes: list[Any] = []
    for line in lines:
        changes += conversation.apply(decode_line(line))
    return conversation, changes


def summary(conversation: Conversation) -> list[tuple[str, str]]:
    return [(type(i).__name__, getattr(i, "text", getattr(i, "name", ""))) for i in conversation.items]


def test_a_background_agent_finishing_mid_turn_is_marked_when_the_turn_ends() -> None:
    lines = recording("subagent")
    notified = next(i for i, line in enumerate(lines) if '"task_notification"' in line)
    conversation, _ = play(lines[: notified + 1])
    assert not any(isinstance(i, NoteItem) for i in conversation.items)  # not inside the turn's answer
    conversation, changes = play(lines[notified + 1:], conversation)
    assert summary(conversation)[-2:] == [("TextItem", "All done. The tool ran. "),
                                         ("NoteItem", 'Agent "Explore tree" finished')]
    note = conversation.items[-1]
    assert isinstance(note, NoteItem) and note.kind is NoteKind.INFO
    assert any(isinstance(c, ch.ItemAdded) and c.item is note and c.scope is None for c in changes)
    # The turn the CLI then starts on its own answers below the marker.
    conversation.apply(decode_obj({"type": "system", "subtype": "init", "session_id": "s", "tools": []}))
    conversation.apply(decode_obj({"type": "assistant", "parent_tool_use_id": None, "session_id": "s",
                                   "message": {"id": "m2", "role": "assistant", "model": "m",
                                               "content": [{"type": "text", "text": "All done. The tool ran. "}]}}))
    assert summary(conversation)[-3:] == [("TextItem", "All done. The tool ran. "),
                                         ("NoteItem", 'Agent "Explore tree" finished'),
                                         ("TextItem", "All done. The tool ran. ")]


def notification(task_id: str, **fields: Any) -> Any:
    return decode_obj({"type": "system", "subtype": "task_notification", "task_id": task_id, "session_id": "s",
                       "status": "completed", **fields})


def started(task_id: str, background: bool, **fields: Any) -> Any:
    return decode_obj({"type": "system", "subtype": "task_started", "task_id": task_id, "session_id": "s",
                       "tool_use_id": f"tool-{task_id}", "description": "Explore tree", "subagent_type": "Explore",
                       "task_type": "local_agent", "is_backgrounded": background, **fields})


def test_a_background_agent_finishing_while_idle_is_marked_at_once() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    conversation.apply(started("a1", background=True))
    changes = conversation.apply(notification("a1", status="failed", summary="It broke", summary_is_report=True))
    assert [i.text for i in conversation.items if isinstance(i, NoteItem)] == ['Agent "Explore tree" failed']
    assert any(isinstance(c, ch.TasksChanged) for c in changes)


def test_background_commands_use_the_clis_words_and_foreground_agents_get_no_marker() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    conversation.apply(started("a1", background=False))
    conversation.apply(notification("a1", summary="Subagent here.", summary_is_report=True))
    assert not [i for i in conversation.items if isinstance(i, NoteItem)]
    conversation.apply(decode_obj({"type": "system", "subtype": "background_tasks_changed", "session_id": "s",
                                   "tasks": [{"task_id": "b1", "task_type": "local_bash", "description": "npm test"}]}))
    conversation.apply(notification("b1", summary='Background command "npm test" completed (exit code 0)'))
    assert [i.text for i in conversation.items if isinstance(i, NoteItem)] == [
        'Background command "npm test" completed (exit code 0)']
    assert not [i for i in conversation.items if isinstance(i, TextItem)]
