"""The task sidebar and the agent transcript screen, fed by what the real CLI printed."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import ClassVar

import pytest
from rich.console import Console
from textual import on
from textual.app import App, ComposeResult, CSSPathType
from textual.containers import Horizontal
from textual.widgets import Footer, OptionList, Static

from claude_tui import protocol as p
from claude_tui.protocol import decode_line
from claude_tui.session import changes as ch
from claude_tui.session import tasks as tasks_module
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import TextItem
from claude_tui.ui.chat.agent_transcript import AgentTranscriptScreen
from claude_tui.ui.chat.agents import AgentTranscripts
from claude_tui.ui.panels.sidebar import TaskSidebar
from tests.conftest import recording
from tests.styles import APP_CSS, MAIN_ROW_CSS

TOOL_ID = "toolu_msg_21_1"
TASK_ID = "ad71a6bd4f5c340b4"
SUBAGENT_TEXT = "Subagent here, exploring."


class SidebarHost(App[None]):
    CSS_PATH: ClassVar[CSSPathType] = [APP_CSS]
    CSS = MAIN_ROW_CSS
    # A Static stands in for the ChatLog: it takes the log's own size (ChatLog.DEFAULT_CSS).
    CSS = "#chat-log { height: 1fr; scrollbar-size-vertical: 1; }"
    AUTO_FOCUS = None  # like the chat screen, where the prompt has focus, not the sidebar

    def __init__(self, conversation: Conversation | None = None, mode: str = "auto") -> None:
        super().__init__()
        self.conversation = conversation or Conversation()
        self.mode = mode
        self.stops: list[str] = []
        self.selected: list[tuple[str, str]] = []
        self.transcripts = AgentTranscripts(self.conversation)

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield Static("chat", id="chat-log")
            yield TaskSidebar(self.conversation, mode=self.mode, id="sidebar")  # type: ignore[arg-type]
        yield Footer()

    @property
    def sidebar(self) -> TaskSidebar:
        return self.query_one(TaskSidebar)

    @on(TaskSidebar.StopRequested)
    def _stop(self, message: TaskSidebar.StopRequested) -> None:
        self.stops.append(message.task_id)

    @on(TaskSidebar.AgentSelected)
    def _selected(self, message: TaskSidebar.AgentSelected) -> None:
        self.selected.append((message.tool_use_id, message.task_id))
        self.transcripts.open(self, message.tool_use_id, on_stop=message.sidebar.request_stop)  # as the chat screen

    async def feed(self, lines: Iterable[str]) -> None:
        """What ChatScreen.show_changes does with the sidebar's and the agent transcript's share of the changes."""
        sidebar = self.sidebar
        for line in lines:
            dirty = False
            for change in self.conversation.apply(decode_line(line)):
                scope = getattr(change, "scope", None)
                if isinstance(change, ch.TextAppended) and scope is not None:
                    await self.transcripts.text(scope, change.item, change.text)
                elif isinstance(change, ch.ItemAdded) and scope is not None:
                    self.transcripts.item_added(scope, change.item)
                elif isinstance(change, ch.ItemChanged) and scope is not None:
                    await self.transcripts.item_changed(scope, change.item)
                elif isinstance(change, ch.TasksChanged):
                    dirty = True
            if dirty:
                sidebar.refresh_board()
                self.transcripts.refresh()


def plain(renderable: object, width: int = 34) -> str:
    console = Console(width=width, color_system=None, record=True, file=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def static_text(app: App[None], selector: str) -> str:
    return plain(app.query_one(selector, Static).content)


def agent_rows(app: App[None]) -> list[str]:
    options = app.query_one("#sidebar-agents", OptionList)
    return [plain(option.prompt) for option in options.options]


def screen_text(app: App[None]) -> str:
    """What the terminal shows, as plain text (from the SVG screenshot)."""
    return html.unescape(re.sub(r"<[^>]+>", "", app.export_screenshot())).replace("\xa0", " ")


def transcript_widgets(screen: AgentTranscriptScreen) -> list[object]:
    log = screen.chat_log
    return [w for w in (log.widget_for_item(i.id) for i in screen.log_data.items) if w is not None]


def until(lines: list[str], marker: str) -> tuple[list[str], list[str]]:
    """Split a recording before the first line containing `marker`."""
    index = next(i for i, line in enumerate(lines) if marker in line)
    return lines[:index], lines[index:]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """A hand-driven time.monotonic for the task board (elapsed times)."""
    now = [1000.0]
    monkeypatch.setattr(tasks_module, "monotonic", lambda: now[0])
    return now


async def test_auto_mode_hidden_when_empty_and_shows_with_tasks() -> None:
    app = SidebarHost()
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.sidebar.display is False
        await app.feed(recording("tasks"))
        await pilot.pause()
        assert app.sidebar.display is True
        assert app.sidebar.region.width >= 30


async def test_tasks_progress_statuses_and_active_form() -> None:
    app = SidebarHost()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(recording("tasks"))
        await pilot.pause()
        text = static_text(app, "#sidebar-tasks")
        assert "1 of 2 done" in text
        assert "☑ Read the code #1" in text
        # The in-progress task shows its activeForm, not its subject.
        assert "◐" in text and "Fixing the bug #2" in text
        assert "Patch the parser" not in text
        # TodoWrite failed ("No such tool available"): no todos section.
        assert app.query_one("#sidebar-todos").display is False
        assert app.query_one("#sidebar-agents").display is False


async def test_progress_header_follows_updates() -> None:
    app = SidebarHost()
    lines = recording("tasks")
    before, _after = until(lines, '"content":"Updated task #1 status"')
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(before)
        await pilot.pause()
        text = static_text(app, "#sidebar-tasks")
        assert "0 of 2 done" in text
        assert "☐ Read the code" in text


async def test_blocked_and_deleted_tasks() -> None:
    conversation = Conversation()
    board = conversation.tasks
    board.on_tool_result("t1", "TaskList", {"tasks": [
        {"id": "1", "subject": "Design", "status": "in_progress", "activeForm": "Designing"},
        {"id": "2", "subject": "Build", "status": "pending", "blockedBy": ["1"]},
        {"id": "3", "subject": "Old idea", "status": "deleted"},
    ]}, "", False)
    app = SidebarHost(conversation)
    async with app.run_test(size=(100, 30)) as pilot:
        app.sidebar.refresh_board()
        await pilot.pause()
        text = static_text(app, "#sidebar-tasks")
        assert "0 of 2 done" in text
        assert "⊘ Build #2" in text and "blocked by #1" in text
        assert "Old idea" not in text
        assert "Designing" in text


async def test_todos_section_when_todowrite_succeeds() -> None:
    conversation = Conversation()
    board = conversation.tasks
    board.on_tool_use("w1", "TodoWrite", {"todos": [
        {"content": "Write tests", "status": "completed", "activeForm": "Writing tests"},
        {"content": "Ship it", "status": "in_progress", "activeForm": "Shipping it"},
    ]})
    board.on_tool_result("w1", "TodoWrite", None, "Todos have been modified successfully.", False)
    app = SidebarHost(conversation)
    async with app.run_test(size=(100, 30)) as pilot:
        app.sidebar.refresh_board()
        await pilot.pause()
        assert app.sidebar.display is True
        text = static_text(app, "#sidebar-todos")
        assert "Todos" in text and "1 of 2 done" in text
        assert "Shipping it" in text and "Write tests" in text
        assert app.query_one("#sidebar-tasks").display is False


async def test_subagent_runs_then_completes_after_the_turn(clock: list[float]) -> None:
    app = SidebarHost()
    lines = recording("subagent")
    running, rest = until(lines, '"parent_tool_use_id":"toolu_msg_21_1"')
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(running)
        await pilot.pause()
        rows = agent_rows(app)
        assert rows[0].startswith("Agents") and "1 running" in rows[0]
        assert len(rows) == 2, "the Task call, the background list and task_started are one agent"
        assert "Explore tree" in rows[1] and "Explore · running" in rows[1] and "0s" in rows[1]
        clock[0] += 75
        app.sidebar.tick()
        assert "1m15s" in agent_rows(app)[1]
        await app.feed(rest)
        await pilot.pause()
        rows = agent_rows(app)
        assert "Explore · completed" in rows[1] and "✓" in rows[1]
        assert SUBAGENT_TEXT in rows[1], "the summary shows under a finished agent"
        assert "1m15s" in rows[1], "the clock stopped when the agent ended"


async def test_tick_is_idle_when_nothing_runs() -> None:
    app = SidebarHost()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(recording("subagent"))
        await pilot.pause()
        frame = app.sidebar._frame
        app.sidebar.tick()
        assert app.sidebar._frame == frame


async def test_enter_opens_transcript_with_subagent_text() -> None:
    app = SidebarHost()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(recording("subagent"))
        await pilot.pause()
        app.sidebar.focus()
        await pilot.pause()
        assert isinstance(app.focused, OptionList)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgentTranscriptScreen)
        assert app.selected == [(TOOL_ID, TASK_ID)]
        assert app.transcripts.screen is screen
        await pilot.pause()
        assert len(transcript_widgets(screen)) == 1
        assert SUBAGENT_TEXT in screen_text(app)
        header = plain(screen.query_one("#transcript-header", Static).content, width=80)
        assert "Explore tree" in header and "completed" in header
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, AgentTranscriptScreen)
        assert app.transcripts.screen is None


async def test_open_transcript_is_live_while_the_agent_runs() -> None:
    app = SidebarHost()
    lines = recording("subagent")
    running, rest = until(lines, '"parent_tool_use_id":"toolu_msg_21_1"')
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(running)
        await pilot.pause()
        app.sidebar.open_transcript(TOOL_ID)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgentTranscriptScreen)
        assert screen.query_one("#transcript-empty").display is True
        assert SUBAGENT_TEXT not in screen_text(app)
        assert screen.check_action("stop", ()) is True and "x" in screen.active_bindings
        await app.feed(rest)
        await pilot.pause()
        # Finished: the transcript no longer offers to stop it.
        assert screen.check_action("stop", ()) is False and "x" not in screen.active_bindings
        assert len(transcript_widgets(screen)) == 1
        assert SUBAGENT_TEXT in screen_text(app)
        assert screen.query_one("#transcript-empty").display is False
        item = app.conversation.log_for(TOOL_ID).items[0]
        assert isinstance(item, TextItem)
        # Forwarding the same item again does not mount a second widget.
        mounted = len(screen.chat_log.children)
        app.transcripts.item_added(TOOL_ID, item)
        await pilot.pause()
        assert len(screen.chat_log.children) == mounted


async def test_x_stops_a_running_agent_once() -> None:
    app = SidebarHost()
    running, _rest = until(recording("subagent"), '"parent_tool_use_id":"toolu_msg_21_1"')
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(running)
        await pilot.pause()
        app.sidebar.focus()
        await pilot.press("x")
        await pilot.pause()
        assert app.stops == [TASK_ID]
        assert "Explore · stopping" in agent_rows(app)[1]
        assert stop_key(app) == "disabled", "shown greyed out while the stop is on its way"
        await pilot.press("x")
        await pilot.pause()
        assert app.stops == [TASK_ID], "a second x while stopping sends nothing"


def stop_key(app: App[None]) -> str:
    """How the footer offers `x` (stop) right now: hidden, enabled or disabled (greyed out)."""
    active = app.screen.active_bindings.get("x")
    if active is None or active.binding.action != "stop":
        return "hidden"
    return "enabled" if active.enabled else "disabled"


def highlighted_row(app: App[None]) -> str:
    option = app.query_one("#sidebar-agents", OptionList).highlighted_option
    return plain(option.prompt) if option is not None else ""


async def test_stop_key_is_offered_only_for_a_row_that_can_be_stopped() -> None:
    conversation = Conversation()
    board = conversation.tasks
    board.on_task_started(p.TaskStarted(task_id="a-done", tool_use_id="toolu_done",
                                        description="Review the diff", subagent_type="code-reviewer",
                                        task_type="local_agent"))
    board.on_task_notification(p.TaskNotification(task_id="a-done", status="completed"))
    app = SidebarHost(conversation)
    running, rest = until(recording("subagent"), '"parent_tool_use_id":"toolu_msg_21_1"')
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(running)
        await pilot.pause()
        app.sidebar.focus()
        await pilot.pause()
        # A finished agent: nothing to stop, so no `x` in the footer or the hint.
        assert "Review the diff" in highlighted_row(app) and "completed" in highlighted_row(app)
        assert app.sidebar.check_action("stop", ()) is False
        assert stop_key(app) == "hidden"
        assert "Stop task" not in screen_text(app)
        assert "x stop" not in static_text(app, "#sidebar-hint")
        await pilot.press("x")
        await pilot.pause()
        assert app.stops == []
        # The running agent: `x` is offered, enabled, and works.
        await pilot.press("down")
        await pilot.pause()
        assert "Explore · running" in highlighted_row(app)
        assert app.sidebar.check_action("stop", ()) is True
        assert stop_key(app) == "enabled"
        assert "Stop task" in screen_text(app)
        assert "x stop" in static_text(app, "#sidebar-hint")
        # It finishes while highlighted: the footer follows the row's state, not only the highlight.
        await app.feed(rest)
        await pilot.pause()
        assert "Explore · completed" in highlighted_row(app)
        assert stop_key(app) == "hidden"
        assert "Stop task" not in screen_text(app)
        assert "x stop" not in static_text(app, "#sidebar-hint")
        await pilot.press("up")
        await pilot.pause()
        assert stop_key(app) == "hidden"


async def test_x_on_a_finished_agent_does_nothing() -> None:
    app = SidebarHost()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(recording("subagent"))
        await pilot.pause()
        app.sidebar.focus()
        await pilot.press("x")
        await pilot.pause()
        assert app.stops == []


async def test_x_in_transcript_posts_stop_through_the_sidebar() -> None:
    app = SidebarHost()
    running, _rest = until(recording("subagent"), '"parent_tool_use_id":"toolu_msg_21_1"')
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(running)
        await pilot.pause()
        app.sidebar.open_transcript(TOOL_ID)
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert app.stops == [TASK_ID]
        assert isinstance(app.screen, AgentTranscriptScreen), "the screen stays to show the agent stop"
        await pilot.press("q")
        await pilot.pause()
        assert not isinstance(app.screen, AgentTranscriptScreen)


async def test_toggle_beats_auto_mode() -> None:
    app = SidebarHost()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(recording("tasks"))
        await pilot.pause()
        assert app.sidebar.display is True
        app.sidebar.toggle()
        await pilot.pause()
        assert app.sidebar.display is False
        await app.feed(recording("subagent"))
        await pilot.pause()
        assert app.sidebar.display is False, "new content does not reopen a sidebar the user closed"
        app.sidebar.toggle()
        await pilot.pause()
        assert app.sidebar.display is True
        assert len(agent_rows(app)) == 2


async def test_hide_mode_and_show_mode() -> None:
    hidden = SidebarHost(mode="hide")
    async with hidden.run_test(size=(100, 30)) as pilot:
        await hidden.feed(recording("tasks"))
        await pilot.pause()
        assert hidden.sidebar.display is False
        hidden.sidebar.toggle()
        await pilot.pause()
        assert hidden.sidebar.display is True
    shown = SidebarHost(mode="show")
    async with shown.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert shown.sidebar.display is True
        assert shown.query_one("#sidebar-empty").display is True
        assert "No tasks or agents yet." in static_text(shown, "#sidebar-empty")


async def test_hiding_a_focused_sidebar_moves_focus_away() -> None:
    app = SidebarHost()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(recording("subagent"))
        await pilot.pause()
        app.sidebar.focus()
        await pilot.pause()
        assert app.focused is app.query_one("#sidebar-agents")
        app.sidebar.toggle()
        await pilot.pause()
        assert app.focused is None or app.sidebar not in app.focused.ancestors_with_self


async def test_background_work_is_listed_by_type_and_untrusted_text_is_inert() -> None:
    conversation = Conversation()
    conversation.tasks.on_background_tasks([
        p.BackgroundTask(task_id="b1", task_type="local_bash", description="npm run dev [bold]x[/bold]\x1b[31m"),
        p.BackgroundTask(task_id="m1", task_type="monitor", description="watch logs"),
    ])
    app = SidebarHost(conversation)
    async with app.run_test(size=(100, 30)) as pilot:
        app.sidebar.refresh_board()
        await pilot.pause()
        rows = agent_rows(app)
        assert rows[0].startswith("Background") and "2 running" in rows[0]
        assert "npm run dev [bold]x[/bold]␛[" in rows[1], "shown literally: no markup, ESC made visible"
        assert "shell · running" in rows[1]
        assert "monitor · running" in rows[2]
        app.sidebar.focus()
        await pilot.press("x")
        await pilot.pause()
        assert app.stops == ["b1"]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, AgentTranscriptScreen), "background shells have no transcript"


async def test_a_task_left_in_progress_stops_spinning_when_the_turn_ends() -> None:
    from claude_tui.session.status import Activity

    app = SidebarHost()
    lines = recording("tasks")
    index = max(i for i, line in enumerate(lines) if '"status":"in_progress"' in line)
    async with app.run_test(size=(100, 30)) as pilot:
        app.animation_level = "full"
        await app.feed(lines[: index + 2])
        await pilot.pause()
        board = app.conversation.tasks
        assert any(t.status == "in_progress" for t in board.visible_tasks + board.todos), "needs a running task"
        app.conversation.status.activity = Activity.RESPONDING
        frame = app.sidebar._frame
        app.sidebar.tick()
        assert app.sidebar._frame == frame + 1, "spins while the turn runs"
        app.conversation.status.activity = Activity.IDLE  # the turn ended, the task was left in progress
        app.sidebar.tick()
        assert app.sidebar._frame == frame + 1, "no spinner (and no redraw) in an idle session"


async def test_news_for_a_transcript_not_mounted_yet_or_closing_ends_nothing() -> None:
    """The sibling of the overview's crash (issue 27, defect 2): the agent's output arrives right
    after the transcript was pushed (its log not mounted yet) and right after Esc (its log gone)."""
    app = SidebarHost()
    lines = recording("subagent")
    running, rest = until(lines, '"parent_tool_use_id":"toolu_msg_21_1"')
    async with app.run_test(size=(100, 30)) as pilot:
        await app.feed(running)
        await pilot.pause()
        app.transcripts.open(app, TOOL_ID)  # as the chat screen does on the sidebar's AgentSelected
        screen = app.transcripts.screen
        assert screen is not None
        await app.feed(rest[:1])  # before the screen composed
        await wait_until(pilot, lambda: app.screen is screen and screen.query("#transcript-log")
                         and screen.chat_log.is_mounted)
        screen.action_close()
        await app.feed(rest[1:])  # while it closes
        await wait_until(pilot, lambda: app.transcripts.screen is None and not screen.is_attached)
        assert app.is_running
        app.sidebar.open_transcript(TOOL_ID)
        await wait_until(pilot, lambda: isinstance(app.screen, AgentTranscriptScreen)
                         and app.screen.query("#transcript-log") and app.screen.chat_log.is_mounted)
        assert SUBAGENT_TEXT in screen_text(app)  # drawn from the whole log when it opens


async def wait_until(pilot: object, predicate: object) -> None:
    from tests.pilot.helpers import wait_for

    await wait_for(pilot, predicate)  # type: ignore[arg-type]
