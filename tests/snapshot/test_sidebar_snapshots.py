"""Snapshots of the task sidebar (tasks, agents, background work, empty) and an agent transcript.

Deterministic: the task board's clock is fixed (`tasks.monotonic`), and spinners only
advance on `tick()`, which nothing calls here.
"""

from __future__ import annotations

from typing import ClassVar

import pytest
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult, CSSPathType
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widgets import Footer, Static

from claude_tui import protocol as p
from claude_tui.protocol import decode_line
from claude_tui.session import tasks as tasks_module
from claude_tui.session.conversation import Conversation
from claude_tui.ui.chat.agents import AgentTranscripts
from claude_tui.ui.panels.sidebar import TaskSidebar
from tests.conftest import recording
from tests.styles import APP_CSS, MAIN_ROW_CSS

SIZE = (100, 32)
TOOL_ID = "toolu_msg_21_1"


class SidebarApp(App[None]):
    CSS_PATH: ClassVar[CSSPathType] = [APP_CSS]
    # A Static stands in for the ChatLog: it takes the log's own size (ChatLog.DEFAULT_CSS).
    CSS = MAIN_ROW_CSS + "#chat-log { height: 1fr; scrollbar-size-vertical: 1; }"
    AUTO_FOCUS = None  # like the chat screen, where the prompt has focus, not the sidebar

    def __init__(self, conversation: Conversation, mode: str = "auto", theme: str = "textual-dark") -> None:
        super().__init__()
        self.conversation = conversation
        self.mode = mode
        self.theme = theme

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield Static(Text("(the conversation)", style="dim italic"), id="chat-log")
            yield TaskSidebar(self.conversation, mode=self.mode, id="sidebar")  # type: ignore[arg-type]
        yield Footer()

    @on(TaskSidebar.AgentSelected)
    def _open(self, message: TaskSidebar.AgentSelected) -> None:  # as the chat screen does
        AgentTranscripts(self.conversation).open(self, message.tool_use_id)


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1000.0]
    monkeypatch.setattr(tasks_module, "monotonic", lambda: now[0])
    return now


def play(conversation: Conversation, lines: list[str]) -> Conversation:
    for line in lines:
        conversation.apply(decode_line(line))
    return conversation


def tasks_board() -> Conversation:
    """The `tasks` recording (1 done, 1 in progress) plus a blocked and a pending task."""
    conversation = play(Conversation(), recording("tasks"))
    conversation.tasks.on_tool_result("list", "TaskList", {"tasks": [
        {"id": "3", "subject": "Release 2.0 to the package index", "status": "pending", "blockedBy": ["2"]},
        {"id": "4", "subject": "Write the changelog", "status": "pending"},
    ]}, "", False)
    return conversation


def agents_board(clock: list[float]) -> Conversation:
    """The `subagent` recording stopped while the agent runs, a finished agent and background work."""
    lines = recording("subagent")
    cut = next(i for i, line in enumerate(lines) if f'"parent_tool_use_id":"{TOOL_ID}"' in line)
    conversation = Conversation()
    board = conversation.tasks
    clock[0] = 900.0
    board.on_task_started(p.TaskStarted(task_id="a-done", tool_use_id="toolu_done",
                                        description="Review the diff", subagent_type="code-reviewer",
                                        task_type="local_agent"))
    board.on_task_started(p.TaskStarted(task_id="a-failed", tool_use_id="toolu_failed",
                                        description="Search the web", subagent_type="general-purpose",
                                        task_type="local_agent"))
    clock[0] = 1000.0
    play(conversation, lines[:cut])
    board.on_background_tasks([
        *(p.BackgroundTask(task_id=e.task_id, task_type=e.task_type) for e in board.agents.values()
          if e.status == "running"),
        p.BackgroundTask(task_id="b1", task_type="local_bash", description="npm run dev -- --port 5173"),
    ])
    board.on_task_notification(p.TaskNotification(task_id="a-done", status="completed",
                                                  summary="No blocking issues; two style nits in parser.py."))
    board.on_task_notification(p.TaskNotification(task_id="a-failed", status="failed"))
    clock[0] = 1075.0
    return conversation


async def _refresh(pilot: Pilot[None]) -> None:
    pilot.app.query_one(TaskSidebar).refresh_board()
    await pilot.pause()


def test_tasks_in_progress(snap_compare) -> None:
    assert snap_compare(SidebarApp(tasks_board()), run_before=_refresh, terminal_size=SIZE)


def test_agents_running_and_completed_focused(snap_compare, fixed_clock: list[float]) -> None:
    async def focus(pilot: Pilot[None]) -> None:
        await _refresh(pilot)
        pilot.app.query_one(TaskSidebar).focus()
        await pilot.pause()

    assert snap_compare(SidebarApp(agents_board(fixed_clock)), run_before=focus, terminal_size=SIZE)


def test_tasks_and_agents_together(snap_compare, fixed_clock: list[float]) -> None:
    conversation = agents_board(fixed_clock)
    play(conversation, recording("tasks"))
    assert snap_compare(SidebarApp(conversation), run_before=_refresh, terminal_size=SIZE)


def test_empty_auto_is_hidden(snap_compare) -> None:
    assert snap_compare(SidebarApp(Conversation()), run_before=_refresh, terminal_size=SIZE)


def test_empty_show_mode(snap_compare) -> None:
    assert snap_compare(SidebarApp(Conversation(), mode="show"), run_before=_refresh, terminal_size=SIZE)


def test_light_theme(snap_compare, fixed_clock: list[float]) -> None:
    conversation = agents_board(fixed_clock)
    play(conversation, recording("tasks"))
    conversation.tasks.on_tool_result("list", "TaskList", {"tasks": [
        {"id": "3", "subject": "Release 2.0", "status": "pending", "blockedBy": ["2"]},
    ]}, "", False)

    async def focus(pilot: Pilot[None]) -> None:
        await _refresh(pilot)
        pilot.app.query_one(TaskSidebar).focus()
        await pilot.pause()

    assert snap_compare(SidebarApp(conversation, theme="textual-light"), run_before=focus, terminal_size=SIZE)


def test_agent_transcript(snap_compare) -> None:
    conversation = play(Conversation(), recording("subagent"))

    async def open_transcript(pilot: Pilot[None]) -> None:
        await _refresh(pilot)
        pilot.app.query_one(TaskSidebar).open_transcript(TOOL_ID)
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(SidebarApp(conversation), run_before=open_transcript, terminal_size=SIZE)
