"""The conversation as a state machine fed by protocol messages.

`Conversation.apply(message)` updates the log items, tool calls, tasks and
status, and returns the list of changes for the UI. Pure and synchronous: the
same object renders live sessions and resumed transcripts.

Streaming and the final `assistant` message: the CLI streams each content block
(`stream_event`s) and then prints it once more, complete, as an `assistant`
message carrying that single block (same message id). The streamed item is
kept and its text replaced by the authoritative copy.
"""

from __future__ import annotations

from typing import Any

from claude_tui import protocol as p
from claude_tui.diff.stats import ChangeSet
from claude_tui.protocol.sanitize import printable
from claude_tui.session import content
from claude_tui.session.changes import (
    Change,
    ItemAdded,
    ItemChanged,
    PermissionClosed,
    StatusChanged,
    TasksChanged,
    TurnEnded,
)
from claude_tui.session.cli_state import CliStateMixin
from claude_tui.session.cost import CostMeter
from claude_tui.session.items import (
    Item,
    NoteItem,
    NoteKind,
    TextItem,
    ThinkingItem,
    ToolItem,
    ToolState,
    UserItem,
)
from claude_tui.session.log import Log, as_int
from claude_tui.session.permission_flow import PermissionsMixin
from claude_tui.session.permissions import PermissionRequest
from claude_tui.session.status import Activity, SessionStatus
from claude_tui.session.streaming import StreamingMixin
from claude_tui.session.tasks import TaskBoard
from claude_tui.session.values import as_list

_RESULT_NOTICES = {
    "error_max_turns": "Stopped: the maximum number of turns was reached.",
    "error_max_budget_usd": "Stopped: the cost budget for this session was reached.",
    "error_during_execution": "The turn ended with an error.",
    "error_max_structured_output_retries": "Stopped: structured output failed too many times.",
}


class Conversation(CliStateMixin, StreamingMixin, PermissionsMixin):
    def __init__(self) -> None:
        self.status = SessionStatus()
        self.main = Log(None)
        self.subagents: dict[str, Log] = {}
        self.tasks = TaskBoard()
        self.changes = ChangeSet()
        """Files changed this turn and this session (the "what changed" panel)."""
        self.permissions: dict[str, PermissionRequest] = {}
        self.commands: list[dict[str, Any]] = []
        self.models: list[dict[str, Any]] = []
        self.account: dict[str, Any] = {}
        self.cost = CostMeter()
        self.reported_mode: str | None = None
        """The permission mode the CLI last reported (None until it does): what a respawn must ask for."""
        self.model_choice: str | None = None
        """The model list's value the CLI last reported switching to (`/model NAME`), if any."""
        self.requested_mode: str | None = None
        self.version_checked = False
        self._system_noted: set[str] = set()
        self._finished_in_turn: list[str] = []
        """Markers for background tasks that finished during a turn, shown when the turn ends."""
        self._init_pending = False
        """A prompt was sent while idle and its turn's `system/init` has not arrived yet."""
        self._tool_names: dict[str, str] = {}
        self.invalid_lines = 0

    @property
    def history_cost(self) -> float:
        """What the continued history (resume, fork) cost: the CLI's totals include it (see `CostMeter`)."""
        return self.cost.history

    @history_cost.setter
    def history_cost(self, value: float) -> None:
        self.cost.history = value

    # -- convenience -----------------------------------------------------------------
    @property
    def items(self) -> list[Item]:
        return self.main.items

    def log_for(self, scope: str | None) -> Log:
        if scope is None:
            return self.main
        log = self.subagents.get(scope)
        if log is None:
            log = self.subagents[scope] = Log(scope)
        return log

    def tool(self, tool_use_id: str) -> ToolItem | None:
        found = self.main.tools.get(tool_use_id)
        if found is None:
            for log in self.subagents.values():
                if tool_use_id in log.tools:
                    return log.tools[tool_use_id]
        return found

    # -- things the app does -----------------------------------------------------------
    def add_user_prompt(self, text: str, image_count: int = 0) -> list[Change]:
        changes: list[Change] = []
        busy = self.status.turn_running
        self.main.add(UserItem(text=text, image_count=image_count, queued=busy), changes)
        if not busy:
            self._init_pending = True
            self.status.activity = Activity.THINKING
            self.cost.mark_turn(self.status)
            self.changes.begin_turn()
            changes.append(StatusChanged())
        return changes

    def add_note(self, text: str, kind: NoteKind = NoteKind.INFO, title: str = "") -> list[Change]:
        changes: list[Change] = []
        self.main.add(NoteItem(kind=kind, text=text, title=title), changes)
        return changes

    def apply_initialize(self, response: dict[str, Any], installed_version: str | None = None) -> list[Change]:
        """The CLI's answer to `initialize`; `installed_version` (from its package) when it names none."""
        self.commands = [c for c in as_list(response.get("commands")) if isinstance(c, dict)]
        self.models = [m for m in as_list(response.get("models")) if isinstance(m, dict)]
        account = response.get("account")
        self.account = account if isinstance(account, dict) else {}
        current = response.get("current_model")
        if isinstance(current, str) and current:
            # The model this process runs (sent by CLIs that report it); else the first init says.
            self.status.model = content.resolved_model(self.models, current)
        changes: list[Change] = [StatusChanged()]
        changes += self._start_mode(response.get("current_permission_mode"))  # what this process runs in
        changes += self.check_cli_version(response.get("claude_code_version") or installed_version)
        self.cost.carry_history(self.status)
        return changes

    def process_exited(self, returncode: int | None) -> list[Change]:
        changes: list[Change] = [PermissionClosed(rid, "exited") for rid in self.permissions]
        self.permissions.clear()
        for log in (self.main, *self.subagents.values()):
            for tool in log.tools.values():
                if not tool.finished:
                    tool.state = ToolState.INTERRUPTED
                    changes.append(ItemChanged(tool, log.scope))
            for item in log.streaming.values():
                if isinstance(item, (TextItem, ThinkingItem)):
                    item.streaming = False
                    changes.append(ItemChanged(item, log.scope))
            log.streaming.clear()
            # A dead process never confirms what it streamed; left here, a later
            # message reusing the id would overwrite these items' text.
            log.unconfirmed.clear()
        changes += self._mark_finished()  # the turn will not end now: mark them here
        self.status.activity = Activity.EXITED
        changes.append(StatusChanged())
        return changes

    def _scope_of(self, tool: ToolItem) -> str | None:
        for scope, log in self.subagents.items():
            if tool.tool_use_id in log.tools:
                return scope
        return None

    # -- the protocol --------------------------------------------------------------------
    def apply(self, message: p.Message) -> list[Change]:
        """Apply one message. Never raises: a message that cannot be shown becomes an error note."""
        handler = _HANDLERS.get(type(message))
        if handler is None:
            for cls, candidate in _HANDLERS.items():
                if isinstance(message, cls):
                    handler = candidate
                    break
        if handler is None:
            return []
        shown = len(self.items)
        try:
            return handler(self, message)
        except Exception as error:  # noqa: BLE001 - the last line of defence against odd CLI output
            # What the handler added before it failed is in the log: show it, so the screen and the
            # log stay in step. A failed result still ends the turn, or the session would look busy forever.
            changes: list[Change] = [ItemAdded(item) for item in self.items[shown:]]
            if isinstance(message, p.ResultMessage) and self.status.turn_running:
                self.status.activity = Activity.IDLE
            changes.append(StatusChanged())
            return changes + self.add_note(f"A {type(message).__name__} from Claude Code could not be shown "
                                           f"({error!r}); the session goes on.", NoteKind.ERROR)

    def _system_init(self, message: p.SystemInit) -> list[Change]:
        raw = message.raw
        status = self.status
        status.session_id = str(raw.get("session_id") or status.session_id)
        status.model = str(raw.get("model") or status.model)
        changes: list[Change] = [StatusChanged()]
        changes += self._start_mode(raw.get("permissionMode"))
        status.cwd = str(raw.get("cwd") or status.cwd)
        changes += self.check_cli_version(raw.get("claude_code_version"))
        status.tools = [str(t) for t in as_list(raw.get("tools"))]
        status.slash_commands = [str(c) for c in as_list(raw.get("slash_commands"))]
        status.mcp_servers = [s for s in as_list(raw.get("mcp_servers")) if isinstance(s, dict)]
        status.agents = [str(a) for a in as_list(raw.get("agents"))]
        status.skills = [str(s) for s in as_list(raw.get("skills"))]
        if self._init_pending:
            # The turn of the prompt sent while idle: prompts queued behind it stay queued (they
            # can be added before this init arrives).
            self._init_pending = False
        else:
            # A later turn starts: the oldest queued prompt is the one the CLI picked up now.
            for item in self.main.items:
                if isinstance(item, UserItem) and item.queued:
                    item.queued = False
                    changes.append(ItemChanged(item))
                    break
        if status.activity in (Activity.IDLE, Activity.STARTING):
            # The CLI can start a turn on its own (a background agent finished).
            status.activity = Activity.THINKING
            self.cost.mark_turn(status)
        return changes

    def _system_status(self, message: p.SystemStatus) -> list[Change]:
        raw = message.raw
        self._mode_reported(raw.get("permissionMode"))  # changed by the CLI too (plan approval, a suggestion)
        state = raw.get("status")
        if state == "compacting":
            self.status.activity = Activity.COMPACTING
        elif state == "requesting" and self.status.activity not in (Activity.WAITING,):
            self.status.activity = Activity.THINKING
            self.status.retry_attempt = 0
        return [StatusChanged()]

    def _api_retry(self, message: p.ApiRetry) -> list[Change]:
        raw = message.raw
        self.status.activity = Activity.RETRYING
        self.status.retry_attempt = as_int(raw.get("attempt"))
        self.status.retry_max = as_int(raw.get("max_retries"))
        error = raw.get("error_status") or raw.get("error") or ""
        self.status.retry_error = str(error)
        return [StatusChanged()]

    def _task_system(self, message: p.SystemMessage) -> list[Change]:
        raw = message.raw
        subtype = raw.get("subtype")
        changes: list[Change] = [TasksChanged()]
        if subtype == "task_started":
            self.tasks.on_task_started(raw)
        elif subtype == "task_updated":
            self.tasks.on_task_updated(raw)
        elif subtype == "task_notification":
            self.tasks.on_task_notification(raw)
            changes += self._background_finished(raw)
        elif subtype == "background_tasks_changed":
            self.tasks.on_background_tasks(as_list(raw.get("tasks")))
        return changes

    def _background_finished(self, raw: dict[str, Any]) -> list[Change]:
        """Mark in the log where the CLI learns a background task ended (it then starts a turn of its own).

        A resumed transcript shows the same place as the `<task-notification>` user record
        ("Agent "…" finished"). During a turn the marker waits for the turn's end, so it
        sits between that turn's answer and the one the notification brings.
        """
        words = content.background_notice(raw, self.tasks.agents.get(str(raw.get("task_id", ""))))
        if not words:
            return []
        if not self.status.turn_running:
            return self.add_note(words, NoteKind.INFO)
        self._finished_in_turn.append(words)
        return []

    def _mark_finished(self) -> list[Change]:
        changes: list[Change] = []
        for words in self._finished_in_turn:
            changes += self.add_note(words, NoteKind.INFO)
        self._finished_in_turn.clear()
        return changes

    def _user(self, message: p.UserMessage) -> list[Change]:
        changes = super()._user(message)
        # An error result the CLI stamps as not run (refused, or cut off) is not a tool error:
        # a refusal "told" to Claude has only this to tell it apart (see content.not_run_states).
        for tool_use_id, state in content.not_run_states(message.raw).items():
            tool = self.tool(tool_use_id)
            if tool is not None and tool.state is ToolState.ERROR:
                tool.state = state
                if not any(isinstance(c, ItemChanged) and c.item is tool for c in changes):
                    changes.append(ItemChanged(tool, self._scope_of(tool)))
        return changes

    def _result(self, message: p.ResultMessage) -> list[Change]:
        raw = message.raw
        status = self.status
        changes: list[Change] = []
        total = raw.get("total_cost_usd")
        if isinstance(total, (int, float)) and not isinstance(total, bool) and total >= 0:
            self.cost.on_total(status, float(total))
        model_usage = raw.get("modelUsage") or raw.get("model_usage") or {}
        if isinstance(model_usage, dict):
            window = content.context_window(model_usage, status.model)
            if window:
                status.context_window = window
        status.turns += 1
        subtype = str(raw.get("subtype") or "success")
        is_error = bool(raw.get("is_error"))
        for denial in as_list(raw.get("permission_denials")):
            tool = self.tool(str(denial.get("tool_use_id", ""))) if isinstance(denial, dict) else None
            if tool is not None and tool.state is not ToolState.DENIED:
                tool.state = ToolState.DENIED
                changes.append(ItemChanged(tool, self._scope_of(tool)))
        if subtype in _RESULT_NOTICES and not self._just_interrupted():
            errors = [str(e) for e in as_list(raw.get("errors")) if not str(e).startswith("[ede_diagnostic]")]
            words = _RESULT_NOTICES[subtype] + ("\n" + "\n".join(errors) if errors else "")
            changes += self.add_note(words, NoteKind.ERROR)
        elif is_error and subtype == "success" and raw.get("result") and not self._already_said(str(raw["result"])):
            changes += self.add_note(str(raw["result"]), NoteKind.ERROR)
        changes += self._mark_finished()  # after the turn's own words, before the turn they start
        for log in (self.main,):
            for tool in log.tools.values():
                if tool.state in (ToolState.RUNNING, ToolState.PENDING, ToolState.STREAMING, ToolState.WAITING):
                    tool.state = ToolState.INTERRUPTED
                    changes.append(ItemChanged(tool))
        self.main.unconfirmed.clear()  # the turn is over: nothing streamed in it gets confirmed any more
        still_queued = any(isinstance(i, UserItem) and i.queued for i in self.main.items)
        status.activity = Activity.THINKING if still_queued else Activity.IDLE
        status.running_tool = ""
        changes.append(StatusChanged())
        changes.append(TurnEnded(subtype, is_error, status.cost_last_turn))
        self.cost.turn_ended(status)
        return changes

    def _already_said(self, text: str) -> bool:
        """True when the latest error note already carries `text` (the CLI repeats it in the result)."""
        for item in reversed(self.main.items[-5:]):
            if isinstance(item, NoteItem) and item.kind is NoteKind.ERROR and text.strip() in item.text:
                return True
        return False

    def _just_interrupted(self) -> bool:
        last = self.main.items[-1] if self.main.items else None
        return isinstance(last, NoteItem) and last.kind is NoteKind.INTERRUPT

    def _tool_progress(self, message: p.ToolProgress) -> list[Change]:
        raw = message.raw
        tool = self.tool(str(raw.get("tool_use_id", "")))
        if tool is None:
            return []
        elapsed = raw.get("elapsed_time_seconds")
        if isinstance(elapsed, (int, float)):
            tool.elapsed_seconds = float(elapsed)
        if tool.state in (ToolState.PENDING, ToolState.STREAMING):
            tool.state = ToolState.RUNNING
        self.status.activity = Activity.RUNNING_TOOL
        self.status.running_tool = tool.name
        return [ItemChanged(tool, self._scope_of(tool)), StatusChanged()]

    def _invalid_line(self, message: p.InvalidLine) -> list[Change]:
        # Something else printed to the CLI's stdout (a wrapper script, a
        # debug print): ignored, but said once so a broken setup is visible.
        self.invalid_lines += 1
        if self.invalid_lines > 1:
            return []
        sample = printable(message.text[:200]) + ("…" if len(message.text) > 200 else "")
        return self.add_note(f"Claude Code printed output that is not stream-json; it is ignored:\n{sample}",
                             NoteKind.ERROR, title="Unexpected output")

    def _auth_status(self, message: p.AuthStatus) -> list[Change]:
        raw = message.raw
        error = raw.get("error")
        if error:
            return self.add_note(f"Authentication: {error}", NoteKind.ERROR)
        return []


_HANDLERS: dict[type, Any] = {
    p.SystemInit: Conversation._system_init,
    p.SystemStatus: Conversation._system_status,
    p.ApiRetry: Conversation._api_retry,
    p.CompactBoundary: Conversation._compact,
    p.TaskStarted: Conversation._task_system,
    p.TaskUpdated: Conversation._task_system,
    p.TaskNotification: Conversation._task_system,
    p.BackgroundTasksChanged: Conversation._task_system,
    p.StreamEvent: Conversation._stream,
    p.AssistantMessage: Conversation._assistant,
    p.UserMessage: Conversation._user,
    p.ResultMessage: Conversation._result,
    p.ControlRequest: Conversation._control_request,
    p.ControlCancelRequest: Conversation._control_cancel,
    p.ToolProgress: Conversation._tool_progress,
    p.AuthStatus: Conversation._auth_status,
    p.InvalidLine: Conversation._invalid_line,
    p.UnknownMessage: Conversation._unknown,
    p.UnknownSystem: Conversation._unknown,
}
