"""The task sidebar: tasks, todos, subagents and background work at a glance.

Cheap by construction: `refresh_board()` re-renders two Statics and the prompts of
one OptionList (rebuilt only when its rows change); `tick()` touches only what is
running. The rows themselves are drawn by `sidebar_rows.RowPainter`.

Keys (while the agent list has focus): up/down move, Enter asks for the agent's
transcript (`AgentSelected`: the chat screen opens it, `ui/chat/agents.py`),
`x` stops a running agent or background task (`StopRequested`, which the chat
screen turns into a `stop_task` control request). `x` is offered (footer and hint)
only while the highlighted row can be stopped: `check_action` decides, and
`_sync_keys()` refreshes the bindings when the highlight or that row's state
changes. The transcript screen's own `x` calls `request_stop`, which posts the same
`StopRequested` from this widget, so the chat screen has one message to handle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from claude_tui.protocol import units
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.tasks import AgentEntry
from claude_tui.ui.panels.sidebar_rows import (
    ACTIVE,
    RowPainter,
    status_color,
)

if TYPE_CHECKING:
    from rich.console import RenderableType

    from claude_tui.session.conversation import Conversation

__all__ = ["SidebarMode", "TaskSidebar", "status_color"]

SidebarMode = Literal["auto", "show", "hide"]

AGENTS_HEADER = "\x00agents"
BACKGROUND_HEADER = "\x00background"
HINT = "↑↓ select · ↵ transcript"
STOP_HINT = " · x stop"
_UNSYNCED = object()
"""`_stop_offered` before the first `_sync_keys()`: differs from every state."""


class TaskSidebar(Vertical):
    """Shows `conversation.tasks`; the chat screen calls `refresh_board()` after `TasksChanged`."""

    DEFAULT_CSS = """
    /* Tasks, todos, agents and background work, right of the chat log. */
    TaskSidebar {
        dock: right;
        width: 36;
        max-width: 40%;
        height: 1fr;
        padding: 0 1;
        background: $surface;
        border-left: vkey $panel-lighten-2;
        overflow-y: auto;
        scrollbar-size-vertical: 1;

        &:focus-within {
            border-left: vkey $accent;
        }

        .sidebar-section {
            height: auto;
            margin: 1 0 0 0;
        }

        #sidebar-agents {
            border: none;
            padding: 0;
            background: transparent;
            scrollbar-size-vertical: 1;

            & > .option-list--option-disabled {
                color: $foreground;
            }
            &:focus {
                background-tint: transparent;
            }
        }

        #sidebar-hint {
            display: none;
            height: auto;
            margin: 1 0 0 0;
        }

        &:focus-within #sidebar-hint {
            display: block;
        }

        #sidebar-empty {
            height: auto;
            margin: 1 0 0 0;
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "stop", "Stop task", show=True)]

    class AgentSelected(Message):
        """The user chose a subagent: its host opens the transcript (`AgentTranscripts.open`)."""

        def __init__(self, sidebar: TaskSidebar, tool_use_id: str, task_id: str) -> None:
            super().__init__()
            self.sidebar = sidebar
            self.tool_use_id = tool_use_id
            self.task_id = task_id

        @property
        def control(self) -> TaskSidebar:
            return self.sidebar

    class StopRequested(Message):
        """The user asked to stop a running agent or background task: send `stop_task`."""

        def __init__(self, task_id: str) -> None:
            super().__init__()
            self.task_id = task_id

    now: var[float] = var(0.0, init=False)
    """The clock (bound to the chat view's `now`): spinners and elapsed times follow it."""

    def __init__(self, conversation: Conversation, mode: SidebarMode = "auto", *,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.conversation = conversation
        self.mode: SidebarMode = mode
        self._user_choice: bool | None = None
        """Set by `toggle()`: the user's wish beats the mode from then on."""
        self._frame = 0
        self._drawn: dict[str, object] = {}
        """What each part last drawn moves with the clock (the tasks', the todos' frame; an agent
        row's frame, status and elapsed time): a tick that would draw the same draws nothing."""
        self._rows: list[str] = []
        """Option ids currently in the agent list, in order (headers included)."""
        self._stopping: set[str] = set()
        self._stop_offered: object = _UNSYNCED
        """What `check_action("stop")` said at the last `_sync_keys()`."""

    def compose(self) -> ComposeResult:
        yield Static(id="sidebar-tasks", classes="sidebar-section")
        yield Static(id="sidebar-todos", classes="sidebar-section")
        agents = OptionList(id="sidebar-agents", classes="sidebar-section")
        agents.display = False  # until it has rows: never auto-focused while empty
        yield agents
        yield Static(Text(HINT, style="dim"), id="sidebar-hint")
        yield Static(Text("No tasks or agents yet.", style="dim italic"), id="sidebar-empty")

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh_board())
        self.refresh_board()

    # -- what the chat screen calls --------------------------------------------------
    def refresh_board(self) -> None:
        """Show the board's current state; while hidden, only decide whether to show."""
        board = self.conversation.tasks
        self._stopping &= {entry.task_id for entry in board.agents.values() if entry.status in ACTIVE}
        self._apply_visibility()
        if not self.display:
            return
        tasks = self.query_one("#sidebar-tasks", Static)
        tasks.display = bool(board.visible_tasks)
        if tasks.display:
            tasks.update(self._render_tasks())
        todos = self.query_one("#sidebar-todos", Static)
        todos.display = bool(board.todos)
        if todos.display:
            todos.update(self._render_todos())
        self._refresh_agents()
        self.query_one("#sidebar-empty").display = not board.has_content

    def watch_now(self) -> None:
        self.tick()

    def tick(self) -> None:
        """On each tick of the clock: advance spinners and elapsed times, only if something runs."""
        if not self.display:
            return
        board = self.conversation.tasks
        # A task left "in progress" when the turn ended is not being worked on: no spinner then
        # (and no redraws 4×/s in an idle session). Agents report their own end, so they count alone.
        turn = self.conversation.status.turn_running
        tasks_running = turn and any(t.status == "in_progress" for t in board.visible_tasks)
        todos_running = turn and any(t.status == "in_progress" for t in board.todos)
        entries = [(key, e) for key, e in board.agents.items() if e.status in ACTIVE and key in self._rows]
        if not (tasks_running or todos_running or entries):
            return
        if self.app.animation_level != "none":  # still frames for snapshots and reduced motion
            self._frame += 1
        if tasks_running and self._drawn.get("\x00tasks") != self._frame:
            self.query_one("#sidebar-tasks", Static).update(self._render_tasks())
        if todos_running and self._drawn.get("\x00todos") != self._frame:
            self.query_one("#sidebar-todos", Static).update(self._render_todos())
        options = self.query_one("#sidebar-agents", OptionList)
        for key, entry in entries:
            if self._drawn.get(entry.task_id) != self._entry_clock(entry):
                options.replace_option_prompt(key, self._render_entry(entry))

    def toggle(self) -> None:
        self._user_choice = not self.display
        self._apply_visibility()
        if self.display:
            self.refresh_board()

    @property
    def wants_display(self) -> bool:
        if self._user_choice is not None:
            return self._user_choice
        if self.mode == "show":
            return True
        if self.mode == "hide":
            return False
        return self.conversation.tasks.has_content

    def _apply_visibility(self) -> None:
        show = self.wants_display
        if show == self.display:
            return
        if not show and self.screen.focused is not None and self in self.screen.focused.ancestors_with_self:
            self.screen.focus_next()
        self.display = show

    # -- opening and stopping ----------------------------------------------------------
    def focus(self, scroll_visible: bool = True) -> TaskSidebar:
        """Focus the agent list (the only focusable part) when it has rows."""
        options = self.query_one("#sidebar-agents", OptionList)
        if options.display and options.option_count:
            options.focus(scroll_visible)
        return self

    def open_transcript(self, tool_use_id: str) -> None:
        """Ask for the transcript of the subagent started by this Task call (the host pushes it)."""
        entry = self.conversation.tasks.agent_for_tool(tool_use_id)
        self.post_message(self.AgentSelected(self, tool_use_id, entry.task_id if entry else ""))

    def request_stop(self, task_id: str) -> bool:
        """Post `StopRequested` for a running entry; False if there is nothing to stop."""
        entry = next((e for e in self.conversation.tasks.agents.values() if e.task_id == task_id), None)
        if self._stop_state(entry) is not True:
            return False
        self._stopping.add(task_id)
        self.post_message(self.StopRequested(task_id))
        self.refresh_board()
        return True

    @on(OptionList.OptionSelected, "#sidebar-agents")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        entry = self._entry_for(event.option.id)
        if entry is None:
            return
        if entry.is_agent and entry.tool_use_id:
            self.open_transcript(entry.tool_use_id)
        elif entry.is_agent:
            self.notify("This agent's transcript is not available yet.", severity="warning")
        else:
            self.notify(f"{one_line(entry.description) or one_line(entry.task_id)}: {one_line(self._status_of(entry))}",
                        title="Background task")

    def action_stop(self) -> None:
        entry = self._highlighted_entry()
        if entry is None:
            return
        if not self.request_stop(entry.task_id):  # only reachable by calling it: the key is disabled
            self.notify("That task is not running." if entry.status not in ACTIVE
                        else "That task cannot be stopped yet.", severity="warning")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`x` is offered only for a highlighted row that can be stopped (see `_stop_state`)."""
        if action == "stop":
            return self._stop_state(self._highlighted_entry())
        return True

    def _stop_state(self, entry: AgentEntry | None) -> bool | None:
        """True: `stop_task` can be sent for it. None: it runs, but cannot be stopped now (no
        task id yet, or a stop is already on its way): shown greyed out. False: nothing to stop."""
        if entry is None or entry.status not in ACTIVE:
            return False
        if entry.status in ("running", "starting") and entry.task_id != entry.tool_use_id \
                and entry.task_id not in self._stopping:
            return True
        return None

    @on(OptionList.OptionHighlighted, "#sidebar-agents")
    def _highlighted(self, _event: OptionList.OptionHighlighted) -> None:
        self._sync_keys()

    def _sync_keys(self) -> None:
        """Keep the footer and the hint truthful about `x` for the highlighted row.

        Refreshes the bindings only when the answer changed: this runs on every board update."""
        state = self._stop_state(self._highlighted_entry())
        if state is self._stop_offered:
            return
        self._stop_offered = state
        self.query_one("#sidebar-hint", Static).update(Text(HINT + STOP_HINT if state else HINT, style="dim"))
        self.refresh_bindings()

    def _highlighted_entry(self) -> AgentEntry | None:
        if not self.is_mounted:
            return None
        option = self.query_one("#sidebar-agents", OptionList).highlighted_option
        return self._entry_for(option.id if option else None)

    def _entry_for(self, key: str | None) -> AgentEntry | None:
        if key is None or key.startswith("\x00"):
            return None
        return self.conversation.tasks.agents.get(key)

    # -- rendering (the rows are drawn by `RowPainter`) ---------------------------------
    def _painter(self) -> RowPainter:
        return RowPainter(self.app, self._frame)

    def _render_tasks(self) -> RenderableType:
        self._drawn["\x00tasks"] = self._frame
        return self._painter().tasks(self.conversation.tasks.visible_tasks)

    def _render_todos(self) -> RenderableType:
        self._drawn["\x00todos"] = self._frame
        return self._painter().todos(self.conversation.tasks.todos)

    def _status_of(self, entry: AgentEntry) -> str:
        if entry.task_id in self._stopping and entry.status in ("running", "starting"):
            return "stopping"
        return entry.status

    def _entry_clock(self, entry: AgentEntry) -> tuple[int, str, str]:
        return (self._frame, self._status_of(entry), units.elapsed(entry.elapsed()))

    def _render_entry(self, entry: AgentEntry) -> RenderableType:
        self._drawn[entry.task_id] = self._entry_clock(entry)
        return self._painter().entry(entry, self._status_of(entry))

    def _refresh_agents(self) -> None:
        options = self.query_one("#sidebar-agents", OptionList)
        agents = [(k, e) for k, e in self.conversation.tasks.agents.items() if e.is_agent]
        others = [(k, e) for k, e in self.conversation.tasks.agents.items() if not e.is_agent]
        rows: list[str] = []
        if agents:
            rows += [AGENTS_HEADER, *(k for k, _ in agents)]
        if others:
            rows += [BACKGROUND_HEADER, *(k for k, _ in others)]
        if not rows and options.has_focus:
            self.screen.focus_next()
        options.display = bool(rows)
        painter = self._painter()
        if rows == self._rows:
            if agents:
                options.replace_option_prompt(AGENTS_HEADER, painter.section_title("Agents", agents))
            if others:
                options.replace_option_prompt(BACKGROUND_HEADER, painter.background_title(agents, others))
            for key, entry in agents + others:
                options.replace_option_prompt(key, self._render_entry(entry))
            options.refresh(layout=True)
            self._sync_keys()
            return
        highlighted = options.highlighted_option
        keep = highlighted.id if highlighted is not None else None
        built: list[Option] = []
        for key in rows:
            if key == AGENTS_HEADER:
                built.append(Option(painter.section_title("Agents", agents), id=key, disabled=True))
            elif key == BACKGROUND_HEADER:
                built.append(Option(painter.background_title(agents, others), id=key, disabled=True))
            else:
                built.append(Option(self._render_entry(self.conversation.tasks.agents[key]), id=key))
        options.set_options(built)
        self._rows = rows
        selectable = [i for i, key in enumerate(rows) if not key.startswith("\x00")]
        if selectable:
            options.highlighted = rows.index(keep) if keep in rows else selectable[0]
        self._sync_keys()

