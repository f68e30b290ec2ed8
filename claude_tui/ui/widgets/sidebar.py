"""The task sidebar: tasks, todos, subagents and background work at a glance.

Cheap by construction: `refresh_board()` re-renders two Statics and the prompts of
one OptionList (rebuilt only when its rows change); `tick()` touches only what is
running. Every string from the CLI is untrusted: `printable()` into `rich.text.Text`.

Keys (while the agent list has focus): up/down move, Enter opens the agent's
transcript (`AgentTranscriptScreen`, pushed here; `AgentSelected` is posted too),
`x` stops a running agent or background task (`StopRequested`, which the chat
screen turns into a `stop_task` control request). The transcript screen's own `x`
posts the same `StopRequested` through this widget, so the chat screen has one
message to handle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from claude_tui.protocol.sanitize import one_line, printable
from claude_tui.ui.theme import theme_color
from claude_tui.session.items import Item
from claude_tui.session.tasks import AgentEntry, TaskEntry, TodoEntry

if TYPE_CHECKING:
    from claude_tui.session.conversation import Conversation
    from claude_tui.ui.screens.agent_transcript import AgentTranscriptScreen

SidebarMode = Literal["auto", "show", "hide"]

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
TASK_ICONS = {"pending": "☐", "in_progress": "◐", "completed": "☑"}
BLOCKED_ICON = "⊘"
AGENT_ICONS = {"starting": "◌", "completed": "✓", "failed": "✗", "stopped": "■", "stopping": "■"}
ACTIVE = frozenset({"running", "starting", "stopping"})
TASK_TYPES = {"local_bash": "shell", "local_agent": "agent", "remote_agent": "remote agent"}
AGENTS_HEADER = "\x00agents"
BACKGROUND_HEADER = "\x00background"


def format_elapsed(seconds: float) -> str:
    """12s, 3m05s, 1h02m."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"




def status_color(app: App[object], status: str) -> str:
    names = {"running": ("text-accent", "cyan"), "starting": ("text-accent", "cyan"),
             "completed": ("text-success", "green"), "failed": ("text-error", "red"),
             "stopping": ("text-warning", "yellow")}
    if status not in names:
        return "dim"
    return theme_color(app, *names[status])


class TaskSidebar(Vertical):
    """Shows `conversation.tasks`; the chat screen calls `refresh_board()` after `TasksChanged`."""

    BINDINGS = [Binding("x", "stop", "Stop task", show=True)]

    class AgentSelected(Message):
        """The user opened a subagent's transcript (the sidebar pushes the screen itself)."""

        def __init__(self, tool_use_id: str, task_id: str) -> None:
            super().__init__()
            self.tool_use_id = tool_use_id
            self.task_id = task_id

    class StopRequested(Message):
        """The user asked to stop a running agent or background task: send `stop_task`."""

        def __init__(self, task_id: str) -> None:
            super().__init__()
            self.task_id = task_id

    def __init__(self, conversation: Conversation, mode: SidebarMode = "auto", *,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.conversation = conversation
        self.mode: SidebarMode = mode
        self._user_choice: bool | None = None
        """Set by `toggle()`: the user's wish beats the mode from then on."""
        self._frame = 0
        self._rows: list[str] = []
        """Option ids currently in the agent list, in order (headers included)."""
        self._stopping: set[str] = set()
        self.transcript: AgentTranscriptScreen | None = None
        """The open transcript screen, if any: live agent output is forwarded to it."""

    def compose(self) -> ComposeResult:
        yield Static(id="sidebar-tasks", classes="sidebar-section")
        yield Static(id="sidebar-todos", classes="sidebar-section")
        agents = OptionList(id="sidebar-agents", classes="sidebar-section")
        agents.display = False  # until it has rows: never auto-focused while empty
        yield agents
        yield Static(Text("↑↓ select · ↵ transcript · x stop", style="dim"), id="sidebar-hint")
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
        if self.transcript is not None and self.transcript.is_attached:
            self.transcript.refresh_header()
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

    def tick(self) -> None:
        """Called 4×/s: advance spinners and elapsed times, only if something runs."""
        if not self.display:
            return
        board = self.conversation.tasks
        tasks_running = any(t.status == "in_progress" for t in board.visible_tasks)
        todos_running = any(t.status == "in_progress" for t in board.todos)
        entries = [(key, e) for key, e in board.agents.items() if e.status in ACTIVE and key in self._rows]
        if not (tasks_running or todos_running or entries):
            return
        if self.app.animation_level != "none":  # still frames for snapshots and reduced motion
            self._frame += 1
        if tasks_running:
            self.query_one("#sidebar-tasks", Static).update(self._render_tasks())
        if todos_running:
            self.query_one("#sidebar-todos", Static).update(self._render_todos())
        options = self.query_one("#sidebar-agents", OptionList)
        for key, entry in entries:
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

    async def agent_text(self, scope: str, item: Item, text: str) -> None:
        if (screen := self._transcript_for(scope)) is not None:
            await screen.append_text(item, text)

    def agent_item_added(self, scope: str, item: Item) -> None:
        if (screen := self._transcript_for(scope)) is not None:
            screen.add_item(item)

    async def agent_item_changed(self, scope: str, item: Item) -> None:
        if (screen := self._transcript_for(scope)) is not None:
            await screen.update_item(item)

    def _transcript_for(self, scope: str) -> AgentTranscriptScreen | None:
        screen = self.transcript
        if screen is not None and screen.tool_use_id == scope and screen.is_attached:
            return screen
        return None

    # -- opening and stopping ----------------------------------------------------------
    def focus(self, scroll_visible: bool = True) -> TaskSidebar:
        """Focus the agent list (the only focusable part) when it has rows."""
        options = self.query_one("#sidebar-agents", OptionList)
        if options.display and options.option_count:
            options.focus(scroll_visible)
        return self

    def open_transcript(self, tool_use_id: str) -> None:
        """Push the transcript screen for the subagent started by this Task call."""
        from claude_tui.ui.screens.agent_transcript import AgentTranscriptScreen

        entry = self.conversation.tasks.agent_for_tool(tool_use_id)
        self.post_message(self.AgentSelected(tool_use_id, entry.task_id if entry else ""))
        screen = AgentTranscriptScreen(self.conversation, tool_use_id, on_stop=self.request_stop)
        self.transcript = screen
        self.app.push_screen(screen, self._transcript_closed)

    def _transcript_closed(self, _result: object = None) -> None:
        self.transcript = None

    def request_stop(self, task_id: str) -> bool:
        """Post `StopRequested` for a running entry; False if there is nothing to stop."""
        entry = next((e for e in self.conversation.tasks.agents.values() if e.task_id == task_id), None)
        if entry is None or entry.status not in ("running", "starting") or task_id == entry.tool_use_id \
                or task_id in self._stopping:
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
            self.notify(f"{one_line(entry.description) or entry.task_id}: {self._status_of(entry)}",
                        title="Background task")

    def action_stop(self) -> None:
        options = self.query_one("#sidebar-agents", OptionList)
        option = options.highlighted_option
        entry = self._entry_for(option.id if option else None)
        if entry is None:
            return
        if not self.request_stop(entry.task_id):
            self.notify("That task is not running." if entry.status not in ACTIVE
                        else "That task cannot be stopped yet.", severity="warning")

    def _entry_for(self, key: str | None) -> AgentEntry | None:
        if key is None or key.startswith("\x00"):
            return None
        return self.conversation.tasks.agents.get(key)

    # -- rendering -------------------------------------------------------------------
    def _color(self, name: str, fallback: str) -> str:
        return theme_color(self.app, name, fallback)

    def _spinner(self) -> str:
        return SPINNER[self._frame % len(SPINNER)]

    def _header(self, title: str, right: str = "") -> Table:
        grid = Table.grid(expand=True)
        grid.add_column(ratio=1, no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(Text(title, style=f"bold {self._color('text-primary', 'blue')}"), Text(right, style="dim"))
        return grid

    def _grid(self) -> Table:
        grid = Table.grid(padding=(0, 1, 0, 0))
        grid.add_column(no_wrap=True, width=1)
        grid.add_column(ratio=1, overflow="fold")
        return grid

    def _render_tasks(self) -> RenderableType:
        tasks = self.conversation.tasks.visible_tasks
        done = sum(t.status == "completed" for t in tasks)
        grid = self._grid()
        for task in tasks:
            grid.add_row(*self._task_row(task))
        return Group(self._header("Tasks", f"{done} of {len(tasks)} done"), grid)

    def _task_row(self, task: TaskEntry) -> tuple[Text, Text]:
        label = Text()
        if task.is_blocked:
            icon = Text(BLOCKED_ICON, style=self._color("text-warning", "yellow"))
            label.append(one_line(task.subject) or f"Task {task.id}")
        elif task.status == "in_progress":
            icon = Text(TASK_ICONS["in_progress"], style=f"bold {self._color('text-accent', 'cyan')}")
            label.append(self._spinner() + " ", style=self._color("text-accent", "cyan"))
            label.append(one_line(task.active_form or task.subject) or f"Task {task.id}", style="bold")
        elif task.status == "completed":
            icon = Text(TASK_ICONS["completed"], style=self._color("text-success", "green"))
            label.append(one_line(task.subject) or f"Task {task.id}", style="dim strike")
        else:
            icon = Text(TASK_ICONS.get(task.status, "☐"), style="dim")
            label.append(one_line(task.subject) or f"Task {task.id}")
        label.append(f" #{printable(task.id)}", style="dim")
        if task.owner:
            label.append(f" @{one_line(task.owner)}", style="dim italic")
        if task.is_blocked:
            blockers = ", ".join("#" + printable(b) for b in task.blocked_by)
            label.append(f"\nblocked by {blockers}", style=f"italic {self._color('text-warning', 'yellow')}")
        return icon, label

    def _render_todos(self) -> RenderableType:
        todos = self.conversation.tasks.todos
        done = sum(t.status == "completed" for t in todos)
        grid = self._grid()
        for todo in todos:
            grid.add_row(*self._todo_row(todo))
        return Group(self._header("Todos", f"{done} of {len(todos)} done"), grid)

    def _todo_row(self, todo: TodoEntry) -> tuple[Text, Text]:
        if todo.status == "in_progress":
            label = Text(self._spinner() + " ", style=self._color("text-accent", "cyan"))
            label.append(one_line(todo.active_form or todo.content), style="bold")
            return Text(TASK_ICONS["in_progress"], style=f"bold {self._color('text-accent', 'cyan')}"), label
        if todo.status == "completed":
            return (Text(TASK_ICONS["completed"], style=self._color("text-success", "green")),
                    Text(one_line(todo.content), style="dim strike"))
        return Text(TASK_ICONS["pending"], style="dim"), Text(one_line(todo.content))

    def _status_of(self, entry: AgentEntry) -> str:
        if entry.task_id in self._stopping and entry.status in ("running", "starting"):
            return "stopping"
        return entry.status

    def _render_entry(self, entry: AgentEntry) -> RenderableType:
        status = self._status_of(entry)
        color = status_color(self.app, status)
        icon = self._spinner() if status == "running" else AGENT_ICONS.get(status, "•")
        grid = Table.grid(expand=True, padding=(0, 1, 0, 0))
        grid.add_column(no_wrap=True, width=1)
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        title = one_line(entry.description) or (one_line(entry.agent_type) or "agent" if entry.is_agent
                                                else entry.task_id)
        grid.add_row(Text(icon, style=f"bold {color}"), Text(title, style="bold"),
                     Text(format_elapsed(entry.elapsed()), style="dim"))
        kind = one_line(entry.agent_type) if entry.is_agent and entry.agent_type else \
            TASK_TYPES.get(entry.task_type, one_line(entry.task_type) or "task")
        detail = Text(kind, style="dim")
        detail.append(" · ", style="dim")
        detail.append(status, style=color)
        grid.add_row(Text(""), detail, Text(""))
        if entry.summary and status not in ACTIVE:
            grid.add_row(Text(""), Text(one_line(entry.summary), style="dim italic"), Text(""))
        return grid

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
        if rows == self._rows:
            self._update_headers(options, agents, others)
            for key, entry in agents + others:
                options.replace_option_prompt(key, self._render_entry(entry))
            options.refresh(layout=True)
            return
        highlighted = options.highlighted_option
        keep = highlighted.id if highlighted is not None else None
        built: list[Option] = []
        for key in rows:
            if key == AGENTS_HEADER:
                built.append(Option(self._section_title("Agents", agents), id=key, disabled=True))
            elif key == BACKGROUND_HEADER:
                built.append(Option(self._background_title(agents, others), id=key, disabled=True))
            else:
                built.append(Option(self._render_entry(self.conversation.tasks.agents[key]), id=key))
        options.set_options(built)
        self._rows = rows
        selectable = [i for i, key in enumerate(rows) if not key.startswith("\x00")]
        if selectable:
            options.highlighted = rows.index(keep) if keep in rows else selectable[0]

    def _update_headers(self, options: OptionList, agents: list[Any], others: list[Any]) -> None:
        if agents:
            options.replace_option_prompt(AGENTS_HEADER, self._section_title("Agents", agents))
        if others:
            options.replace_option_prompt(BACKGROUND_HEADER, self._background_title(agents, others))

    def _background_title(self, agents: list[Any], others: list[Any]) -> RenderableType:
        title = self._section_title("Background", others)
        return Group(Text(""), title) if agents else title

    def _section_title(self, title: str, entries: list[tuple[str, AgentEntry]]) -> Table:
        running = sum(e.status in ACTIVE for _, e in entries)
        return self._header(title, f"{running} running" if running else "")
