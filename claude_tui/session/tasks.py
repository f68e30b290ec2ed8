"""Tasks, todos, subagents and background work: the sidebar's model.

Fed by tool calls (TaskCreate/TaskUpdate/TaskList/TaskGet/TodoWrite/Task) and by
the CLI's `system` task messages. Pure data, no Textual.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from claude_tui import protocol as p
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.values import as_list

_CREATED = re.compile(r"Task #(\S+) created")

AGENT_STATUSES = frozenset({"starting", "running", "completed", "failed", "stopped"})
"""What an agent or background task can be: ours ("starting") and the CLI's (`task_notification`)."""
_STATUS_ALIASES = {"killed": "stopped"}
STATUS_LIMIT = 40


def agent_status(raw: object) -> str:
    """The CLI's status word as one of AGENT_STATUSES; any other is kept (a newer CLI may say
    more) but as one short inert line, since the sidebar and the transcript show it."""
    word = str(raw if raw is not None else "").strip()
    known = _STATUS_ALIASES.get(word.casefold(), word.casefold())
    if known in AGENT_STATUSES:
        return known
    return one_line(word)[:STATUS_LIMIT] or "unknown"


def monotonic() -> float:
    """The board's clock. Tests replace this (never `time.monotonic`, which asyncio needs)."""
    return time.monotonic()


@dataclass
class TaskEntry:
    id: str
    subject: str = ""
    description: str = ""
    active_form: str = ""
    status: str = "pending"
    owner: str = ""
    blocks: list[str] = field(default_factory=list)
    blocked_by: list[str] = field(default_factory=list)

    @property
    def is_blocked(self) -> bool:
        return bool(self.blocked_by) and self.status != "completed"


@dataclass
class TodoEntry:
    content: str
    status: str = "pending"
    active_form: str = ""


@dataclass
class AgentEntry:
    """A subagent or other background task the CLI reported."""

    task_id: str
    tool_use_id: str = ""
    description: str = ""
    agent_type: str = ""
    task_type: str = "local_agent"
    status: str = "running"
    started_at: float = field(default_factory=lambda: monotonic())
    ended_at: float | None = None
    summary: str = ""
    background: bool = False

    @property
    def is_agent(self) -> bool:
        return self.task_type in ("local_agent", "remote_agent", "agent") or bool(self.agent_type)

    def elapsed(self, now: float | None = None) -> float:
        end = self.ended_at if self.ended_at is not None else (now if now is not None else monotonic())
        return max(0.0, end - self.started_at)


def _as_list(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


class TaskBoard:
    def __init__(self) -> None:
        self.tasks: dict[str, TaskEntry] = {}
        self.todos: list[TodoEntry] = []
        self.agents: dict[str, AgentEntry] = {}
        self._pending_creates: dict[str, dict[str, Any]] = {}
        # TaskUpdate and TodoWrite inputs wait for a successful result: a denied or
        # failing call (TodoWrite is disabled on current models) must not change the board.
        self._pending_updates: dict[str, dict[str, Any]] = {}
        self._pending_todos: dict[str, list[Any]] = {}
        self._listed: set[str] = set()
        """Task ids seen in a `background_tasks_changed` list (live background work)."""

    # -- what the sidebar asks -------------------------------------------------
    @property
    def visible_tasks(self) -> list[TaskEntry]:
        return [task for task in self.tasks.values() if task.status != "deleted"]

    def progress(self) -> tuple[int, int]:
        tasks = self.visible_tasks
        if tasks:
            return sum(t.status == "completed" for t in tasks), len(tasks)
        return sum(t.status == "completed" for t in self.todos), len(self.todos)

    @property
    def has_content(self) -> bool:
        return bool(self.visible_tasks or self.todos or self.agents)

    def agent_for_tool(self, tool_use_id: str) -> AgentEntry | None:
        for agent in self.agents.values():
            if agent.tool_use_id == tool_use_id:
                return agent
        return None

    # -- tool calls ----------------------------------------------------------------
    def on_tool_use(self, tool_use_id: str, name: str, tool_input: dict[str, Any]) -> bool:
        if name == "TaskCreate":
            self._pending_creates[tool_use_id] = tool_input
            return False
        if name == "TaskUpdate":
            self._pending_updates[tool_use_id] = tool_input
            return False
        if name == "TodoWrite":
            todos = tool_input.get("todos")
            if isinstance(todos, list):
                self._pending_todos[tool_use_id] = todos
            return False
        if name in ("Task", "Agent"):
            # The system task_started message gives the task id; until then key by tool id.
            if self.agent_for_tool(tool_use_id) is None and not self._claim_background(tool_use_id, tool_input):
                self.agents[tool_use_id] = AgentEntry(
                    task_id=tool_use_id,
                    tool_use_id=tool_use_id,
                    description=str(tool_input.get("description", "")),
                    agent_type=str(tool_input.get("subagent_type", "")),
                    status="starting",
                )
                return True
        return False

    def on_tool_result(self, tool_use_id: str, name: str, result: Any, text: str, is_error: bool) -> bool:
        if name == "TaskCreate":
            pending = self._pending_creates.pop(tool_use_id, {})
            if is_error:
                return False
            task_id = None
            if isinstance(result, dict) and isinstance(result.get("task"), dict):
                task_id = result["task"].get("id")
            if task_id is None:
                match = _CREATED.search(text)
                task_id = match.group(1) if match else None
            if task_id is None:
                return False
            self.tasks[str(task_id)] = TaskEntry(
                id=str(task_id),
                subject=str(pending.get("subject", "")),
                description=str(pending.get("description", "")),
                active_form=str(pending.get("activeForm", "")),
            )
            return True
        if name == "TaskUpdate":
            update = self._pending_updates.pop(tool_use_id, None)
            if update is None or is_error or (isinstance(result, dict) and result.get("success") is False):
                return False
            return self._update(update)
        if name == "TodoWrite":
            todos = self._pending_todos.pop(tool_use_id, None)
            if is_error:
                return False
            if isinstance(result, dict) and isinstance(result.get("newTodos"), list):
                todos = result["newTodos"]
            if todos is None:
                return False
            self.todos = [
                TodoEntry(str(t.get("content", "")), str(t.get("status", "pending")), str(t.get("activeForm", "")))
                for t in todos
                if isinstance(t, dict)
            ]
            return True
        if name in ("Task", "Agent"):
            return self._agent_result(tool_use_id, result, is_error)
        if name in ("TaskList", "TaskGet") and isinstance(result, dict):
            items = result.get("tasks") if name == "TaskList" else [result.get("task")]
            changed = False
            for raw in as_list(items):
                if isinstance(raw, dict) and raw.get("id") is not None:
                    self._merge(raw)
                    changed = True
            return changed
        return False

    def _agent_result(self, tool_use_id: str, result: Any, is_error: bool) -> bool:
        """The Task tool's own result: a foreground agent finished, failed, or went async."""
        entry = self.agent_for_tool(tool_use_id)
        if entry is None:
            return False
        status = result.get("status") if isinstance(result, dict) else None
        if is_error:
            self._set_status(entry, "failed")
        elif status == "async_launched":
            entry.background = True
            if entry.status == "starting":
                entry.status = "running"
            return True
        elif status == "completed" or entry.status == "starting":
            # A foreground agent's result arrives when it is done.
            self._set_status(entry, "completed")
        else:
            return False
        return True

    def _claim_background(self, tool_use_id: str, tool_input: dict[str, Any]) -> bool:
        """Link a Task call to a live entry `background_tasks_changed` already listed (same description)."""
        description = str(tool_input.get("description", ""))
        for entry in self.agents.values():
            if not entry.tool_use_id and entry.is_agent and entry.description == description \
                    and entry.status == "running":
                entry.tool_use_id = tool_use_id
                entry.agent_type = entry.agent_type or str(tool_input.get("subagent_type", ""))
                return True
        return False

    def _merge(self, raw: dict[str, Any]) -> None:
        task = self.tasks.setdefault(str(raw["id"]), TaskEntry(id=str(raw["id"])))
        task.subject = str(raw.get("subject", task.subject))
        task.description = str(raw.get("description", task.description))
        task.active_form = str(raw.get("activeForm", task.active_form))
        task.status = str(raw.get("status", task.status))
        task.owner = str(raw.get("owner", task.owner) or "")
        if "blocks" in raw:
            task.blocks = _as_list(raw["blocks"])
        if "blockedBy" in raw:
            task.blocked_by = _as_list(raw["blockedBy"])

    def _update(self, tool_input: dict[str, Any]) -> bool:
        task_id = tool_input.get("taskId")
        if task_id is None:
            return False
        task = self.tasks.setdefault(str(task_id), TaskEntry(id=str(task_id)))
        for key, attr in (("status", "status"), ("subject", "subject"), ("description", "description"),
                          ("activeForm", "active_form"), ("owner", "owner")):
            if key in tool_input and tool_input[key] is not None:
                setattr(task, attr, str(tool_input[key]))
        task.blocks += [b for b in _as_list(tool_input.get("addBlocks")) if b not in task.blocks]
        task.blocked_by += [b for b in _as_list(tool_input.get("addBlockedBy")) if b not in task.blocked_by]
        return True

    # -- system task messages -----------------------------------------------------------
    def on_task_started(self, message: p.TaskStarted) -> None:
        task_id = message.task_id
        tool_use_id = message.tool_use_id or ""
        entry = None
        if tool_use_id and tool_use_id != task_id and tool_use_id in self.agents:
            # Listed by background_tasks_changed first: the Task call's entry wins, one row.
            self.agents.pop(task_id, None)
            entry = self._rekey(tool_use_id, task_id)
        entry = entry or self.agents.get(task_id)
        if entry is None:
            entry = self.agents[task_id] = AgentEntry(task_id=task_id)
        entry.task_id = task_id
        entry.tool_use_id = tool_use_id or entry.tool_use_id
        entry.description = message.description or entry.description
        entry.agent_type = message.subagent_type or entry.agent_type
        entry.task_type = message.task_type or entry.task_type
        if message.is_backgrounded is not None:
            entry.background = message.is_backgrounded
        entry.status = "running"

    def _rekey(self, old: str, new: str) -> AgentEntry:
        """Move an entry to a new key, keeping its place in the order the sidebar shows."""
        entry = self.agents[old]
        ordered = [((new if key == old else key), value) for key, value in self.agents.items()]
        self.agents.clear()
        self.agents.update(ordered)
        return entry

    def on_task_updated(self, message: p.TaskUpdated) -> None:
        entry = self.agents.get(message.task_id)
        if entry is None:
            return
        patch = message.patch  # the changed fields: any of the task's, so kept as a dict
        if "status" in patch:
            self._set_status(entry, str(patch["status"]))
        if patch.get("description"):
            entry.description = str(patch["description"])

    def on_task_notification(self, message: p.TaskNotification) -> None:
        entry = self.agents.get(message.task_id)
        if entry is None:
            entry = AgentEntry(task_id=message.task_id, tool_use_id=message.tool_use_id or "")
            self.agents[entry.task_id] = entry
        if message.status:
            self._set_status(entry, message.status)
        if message.summary:
            entry.summary = message.summary

    def on_background_tasks(self, tasks: list[p.BackgroundTask]) -> None:
        """The CLI's full list of live background tasks: add new ones (shells, monitors…).

        The list can arrive before `task_started`; a Task call still waiting for its
        task id ("starting", keyed by tool_use_id) with the same description is the
        same agent, so it takes the task id here instead of showing twice.
        A listed task that drops out of the list while still "running" (no
        notification came) has ended: its clock stops.
        """
        live = {task.task_id for task in tasks if task.task_id}
        for task_id in self._listed - live:
            gone = self.agents.get(task_id)
            if gone is not None and gone.status in ("running", "starting"):
                self._set_status(gone, "completed")
        self._listed = live
        for task in tasks:
            task_id = task.task_id
            if not task_id or task_id in self.agents:
                continue
            description = task.description or ""
            agent_type = task.subagent_type or ""
            task_type = task.task_type or ""
            starting = next((key for key, entry in self.agents.items()
                             if entry.status == "starting" and key == entry.tool_use_id
                             and entry.description == description
                             and (not agent_type or entry.agent_type in ("", agent_type))), None)
            if starting is not None:
                entry = self._rekey(starting, task_id)
                entry.task_id = task_id
                entry.agent_type = agent_type or entry.agent_type
                entry.task_type = task_type or entry.task_type
                entry.status = "running"
                entry.background = True
                self.agents[task_id] = entry
                continue
            self.agents[task_id] = AgentEntry(
                task_id=task_id,
                description=description,
                agent_type=agent_type,
                task_type=task_type,
                background=True,
            )

    def _set_status(self, entry: AgentEntry, status: str) -> None:
        entry.status = agent_status(status)
        if entry.status in ("completed", "failed", "stopped") and entry.ended_at is None:
            entry.ended_at = monotonic()
