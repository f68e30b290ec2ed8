"""How the task sidebar draws its rows: tasks, todos, agents, background work, headers.

Rendering only, no widget state: `RowPainter` turns task-board entries into Rich
renderables for a given app (theme colours) and spinner frame. Every string from the
CLI is untrusted, so it goes through `one_line()` / `printable()` into `rich.text.Text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App

from claude_tui.protocol import units
from claude_tui.protocol.sanitize import one_line, printable
from claude_tui.session.tasks import AgentEntry, TaskEntry, TodoEntry
from claude_tui.ui.kit.theme import theme_color

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
TASK_ICONS = {"pending": "☐", "in_progress": "◐", "completed": "☑"}
BLOCKED_ICON = "⊘"
AGENT_ICONS = {"starting": "◌", "completed": "✓", "failed": "✗", "stopped": "■", "stopping": "■"}
ACTIVE = frozenset({"running", "starting", "stopping"})
TASK_TYPES = {"local_bash": "shell", "local_agent": "agent", "remote_agent": "remote agent"}

AgentRows = Sequence[tuple[str, AgentEntry]]
"""(option id, entry) pairs of one section of the agent list."""


def status_color(app: App[object], status: str) -> str:
    names = {"running": ("text-accent", "cyan"), "starting": ("text-accent", "cyan"),
             "completed": ("text-success", "green"), "failed": ("text-error", "red"),
             "stopping": ("text-warning", "yellow")}
    if status not in names:
        return "dim"
    return theme_color(app, *names[status])


@dataclass(frozen=True)
class RowPainter:
    """Renders the sidebar's sections in `app`'s theme, spinners at `frame`."""

    app: App[object]
    frame: int = 0

    def _color(self, name: str, fallback: str) -> str:
        return theme_color(self.app, name, fallback)

    def _spinner(self) -> str:
        return SPINNER[self.frame % len(SPINNER)]

    def header(self, title: str, right: str = "") -> Table:
        grid = Table.grid(expand=True)
        grid.add_column(ratio=1, no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(Text(title, style=f"bold {self._color('text-primary', 'blue')}"), Text(right, style="dim"))
        return grid

    @staticmethod
    def _grid() -> Table:
        grid = Table.grid(padding=(0, 1, 0, 0))
        grid.add_column(no_wrap=True, width=1)
        grid.add_column(ratio=1, overflow="fold")
        return grid

    # -- tasks and todos ---------------------------------------------------------------
    def tasks(self, tasks: Sequence[TaskEntry]) -> RenderableType:
        done = sum(t.status == "completed" for t in tasks)
        grid = self._grid()
        for task in tasks:
            grid.add_row(*self.task_row(task))
        return Group(self.header("Tasks", f"{done} of {len(tasks)} done"), grid)

    def task_row(self, task: TaskEntry) -> tuple[Text, Text]:
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

    def todos(self, todos: Sequence[TodoEntry]) -> RenderableType:
        done = sum(t.status == "completed" for t in todos)
        grid = self._grid()
        for todo in todos:
            grid.add_row(*self.todo_row(todo))
        return Group(self.header("Todos", f"{done} of {len(todos)} done"), grid)

    def todo_row(self, todo: TodoEntry) -> tuple[Text, Text]:
        if todo.status == "in_progress":
            label = Text(self._spinner() + " ", style=self._color("text-accent", "cyan"))
            label.append(one_line(todo.active_form or todo.content), style="bold")
            return Text(TASK_ICONS["in_progress"], style=f"bold {self._color('text-accent', 'cyan')}"), label
        if todo.status == "completed":
            return (Text(TASK_ICONS["completed"], style=self._color("text-success", "green")),
                    Text(one_line(todo.content), style="dim strike"))
        return Text(TASK_ICONS["pending"], style="dim"), Text(one_line(todo.content))

    # -- agents and background work ----------------------------------------------------
    def entry(self, entry: AgentEntry, status: str) -> RenderableType:
        """One agent-list row; `status` is the shown one (the sidebar knows "stopping")."""
        color = status_color(self.app, status)
        icon = self._spinner() if status == "running" else AGENT_ICONS.get(status, "•")
        grid = Table.grid(expand=True, padding=(0, 1, 0, 0))
        grid.add_column(no_wrap=True, width=1)
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        title = one_line(entry.description) or (one_line(entry.agent_type) or "agent" if entry.is_agent
                                                else one_line(entry.task_id))
        grid.add_row(Text(icon, style=f"bold {color}"), Text(title, style="bold"),
                     Text(units.elapsed(entry.elapsed()), style="dim"))
        kind = one_line(entry.agent_type) if entry.is_agent and entry.agent_type else \
            TASK_TYPES.get(entry.task_type, one_line(entry.task_type) or "task")
        detail = Text(kind, style="dim")
        detail.append(" · ", style="dim")
        detail.append(one_line(status), style=color)  # the CLI's word: an unknown one is shown, inert
        grid.add_row(Text(""), detail, Text(""))
        if entry.summary and status not in ACTIVE:
            grid.add_row(Text(""), Text(one_line(entry.summary), style="dim italic"), Text(""))
        return grid

    def section_title(self, title: str, entries: AgentRows) -> Table:
        running = sum(e.status in ACTIVE for _, e in entries)
        return self.header(title, f"{running} running" if running else "")

    def background_title(self, agents: AgentRows, others: AgentRows) -> RenderableType:
        """The "Background" header, spaced from the agents section above it if any."""
        title = self.section_title("Background", others)
        return Group(Text(""), title) if agents else title
