"""The task board, driven by the `tasks` and `subagent` recordings of the real CLI."""

from __future__ import annotations

import pytest

from claude_tui import protocol as p
from claude_tui.protocol import decode_line
from claude_tui.session import changes as ch
from claude_tui.session import tasks as tasks_module
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import TextItem
from claude_tui.session.tasks import TaskBoard
from tests.conftest import recording

TOOL_ID = "toolu_msg_21_1"
TASK_ID = "ad71a6bd4f5c340b4"


def play(lines: list[str], conversation: Conversation | None = None) -> tuple[Conversation, list[object]]:
    conversation = conversation or Conversation()
    changes: list[object] = []
    for line in lines:
        changes += conversation.apply(decode_line(line))
    return conversation, changes


def until(lines: list[str], marker: str) -> tuple[list[str], list[str]]:
    index = next(i for i, line in enumerate(lines) if marker in line)
    return lines[:index], lines[index:]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [500.0]
    monkeypatch.setattr(tasks_module, "monotonic", lambda: now[0])
    return now


# -- tasks ---------------------------------------------------------------------------
def test_tasks_recording_builds_the_board() -> None:
    conversation, changes = play(recording("tasks"))
    board = conversation.tasks
    assert [(t.id, t.subject, t.status) for t in board.visible_tasks] == [
        ("1", "Read the code", "completed"),
        ("2", "Fix the bug", "in_progress"),
    ]
    assert board.tasks["2"].active_form == "Fixing the bug"
    assert board.tasks["1"].description == "Skim the modules"
    assert board.progress() == (1, 2)
    assert board.has_content
    assert any(isinstance(c, ch.TasksChanged) for c in changes)


def test_failed_todowrite_leaves_no_todos() -> None:
    # TodoWrite is disabled on current models: the CLI answers with a tool_use_error.
    conversation, _ = play(recording("tasks"))
    assert conversation.tasks.todos == []


def test_task_update_waits_for_its_result() -> None:
    lines = recording("tasks")
    before, _ = until(lines, '"content":"Updated task #1 status"')
    conversation, _ = play(before)
    # The TaskUpdate call to in_progress has been printed, its result not yet.
    assert conversation.tasks.tasks["1"].status == "pending"
    assert conversation.tasks.progress() == (0, 2)


def test_denied_task_update_changes_nothing() -> None:
    board = TaskBoard()
    board.on_tool_use("c1", "TaskCreate", {"subject": "A"})
    board.on_tool_result("c1", "TaskCreate", {"task": {"id": "1"}}, "Task #1 created successfully: A", False)
    assert board.on_tool_use("u1", "TaskUpdate", {"taskId": "1", "status": "completed"}) is False
    assert board.on_tool_result("u1", "TaskUpdate", None, "The user doesn't want to proceed", True) is False
    assert board.tasks["1"].status == "pending"


def test_task_id_from_text_when_no_structured_result() -> None:
    board = TaskBoard()
    board.on_tool_use("c1", "TaskCreate", {"subject": "Write docs", "activeForm": "Writing docs"})
    assert board.on_tool_result("c1", "TaskCreate", None, "Task #7 created successfully: Write docs", False)
    assert board.tasks["7"].subject == "Write docs"


def test_blocked_and_deleted() -> None:
    board = TaskBoard()
    board.on_tool_result("l1", "TaskList", {"tasks": [
        {"id": "1", "subject": "Design", "status": "completed"},
        {"id": "2", "subject": "Build", "status": "pending", "blockedBy": ["3"]},
        {"id": "3", "subject": "Gone", "status": "deleted"},
    ]}, "", False)
    assert [t.id for t in board.visible_tasks] == ["1", "2"]
    assert board.tasks["2"].is_blocked
    assert board.progress() == (1, 2)
    board.on_tool_use("u1", "TaskUpdate", {"taskId": "2", "status": "completed"})
    board.on_tool_result("u1", "TaskUpdate", {"success": True}, "Updated task #2 status", False)
    assert not board.tasks["2"].is_blocked


def test_successful_todowrite_prefers_new_todos_from_the_result() -> None:
    board = TaskBoard()
    board.on_tool_use("w1", "TodoWrite", {"todos": [{"content": "a", "status": "pending"}]})
    assert board.todos == []
    assert board.on_tool_result("w1", "TodoWrite", {"newTodos": [
        {"content": "a", "status": "completed", "activeForm": "Doing a"},
        {"content": "b", "status": "in_progress", "activeForm": "Doing b"},
    ]}, "ok", False)
    assert [(t.content, t.status) for t in board.todos] == [("a", "completed"), ("b", "in_progress")]
    assert board.progress() == (1, 2)


# -- subagents -------------------------------------------------------------------------
def test_subagent_is_one_entry_from_call_to_notification(clock: list[float]) -> None:
    lines = recording("subagent")
    conversation = Conversation()
    keys_seen: list[list[str]] = []
    for line in lines:
        conversation.apply(decode_line(line))
        if conversation.tasks.agents:
            keys_seen.append(list(conversation.tasks.agents))
    # The background list arrives before task_started: still one entry at every step.
    assert all(len(keys) == 1 for keys in keys_seen)
    assert keys_seen[0] == [TOOL_ID] and keys_seen[-1] == [TASK_ID]
    agent = conversation.tasks.agents[TASK_ID]
    assert agent.tool_use_id == TOOL_ID
    assert agent.description == "Explore tree" and agent.agent_type == "Explore"
    assert agent.is_agent and agent.background
    assert agent.status == "completed"
    assert agent.summary.strip() == "Subagent here, exploring."
    assert conversation.tasks.agent_for_tool(TOOL_ID) is agent


def test_subagent_output_after_the_parent_turn_goes_to_its_own_log() -> None:
    lines = recording("subagent")
    before, after = until(lines, '"parent_tool_use_id":"toolu_msg_21_1"')
    conversation, _ = play(before)
    agent = conversation.tasks.agent_for_tool(TOOL_ID)
    assert agent is not None and agent.status == "running"
    assert TOOL_ID not in conversation.subagents or not conversation.subagents[TOOL_ID].items
    main_texts = [i.text for i in conversation.items if isinstance(i, TextItem)]
    assert any("All done" in t for t in main_texts), "the parent turn finished first"
    _, changes = play(after, conversation)
    log = conversation.log_for(TOOL_ID)
    assert [i.text.strip() for i in log.items if isinstance(i, TextItem)] == ["Subagent here, exploring."]
    assert not any("Subagent here" in i.text for i in conversation.items if isinstance(i, TextItem))
    added = [c for c in changes if isinstance(c, ch.ItemAdded)]
    agent_items = [c for c in added if c.scope == TOOL_ID]
    main_items = [c.item for c in added if c.scope is None]
    assert agent_items
    # The main log only gets the marker that the background agent finished (as a resumed transcript shows it).
    assert [(type(i).__name__, i.text) for i in main_items] == [("NoteItem", 'Agent "Explore tree" finished')]
    assert conversation.tasks.agents[TASK_ID].status == "completed"


def test_elapsed_stops_when_the_agent_ends(clock: list[float]) -> None:
    lines = recording("subagent")
    before, after = until(lines, '"subtype":"task_updated"')
    conversation, _ = play(before)
    clock[0] += 42
    agent = conversation.tasks.agents[TASK_ID]
    assert agent.elapsed() == pytest.approx(42)
    play(after, conversation)
    clock[0] += 100
    assert agent.elapsed() == pytest.approx(42)


def test_background_task_dropping_out_of_the_live_list_ends() -> None:
    board = TaskBoard()
    board.on_background_tasks([p.BackgroundTask(task_id="b1", task_type="local_bash", description="npm run dev")])
    shell = board.agents["b1"]
    assert shell.status == "running" and not shell.is_agent
    board.on_background_tasks([])
    assert shell.status == "completed" and shell.ended_at is not None


def test_foreground_agent_completes_with_its_tool_result() -> None:
    board = TaskBoard()
    board.on_tool_use("t1", "Task", {"description": "Plan it", "subagent_type": "Plan", "prompt": "p"})
    assert board.agents["t1"].status == "starting"
    board.on_task_started(p.TaskStarted(task_id="a1", tool_use_id="t1", task_type="local_agent"))
    assert list(board.agents) == ["a1"]
    board.on_tool_result("t1", "Task", {"status": "completed", "content": []}, "done", False)
    assert board.agents["a1"].status == "completed"


def test_failed_task_call_marks_the_agent_failed() -> None:
    board = TaskBoard()
    board.on_tool_use("t1", "Task", {"description": "Plan it"})
    board.on_tool_result("t1", "Task", None, "<tool_use_error>bad</tool_use_error>", True)
    assert board.agents["t1"].status == "failed"


def test_killed_notification_reads_stopped() -> None:
    board = TaskBoard()
    board.on_task_started(p.TaskStarted(task_id="a1", tool_use_id="t1", description="x",
                                        task_type="local_agent"))
    board.on_task_notification(p.TaskNotification(task_id="a1", status="killed"))
    assert board.agents["a1"].status == "stopped"
