"""The turn under way: when one starts and ends, what the status bar says meanwhile.

`Turns` is a part of `Conversation` with its own state (a prompt waiting for its turn's
`system/init`, background tasks that finished mid-turn). It handles `system/init`, `system/status`,
`system/api_retry`, the task system messages, `tool_progress` and `result`.
"""

from __future__ import annotations

from claude_tui import protocol as p
from claude_tui.diff.stats import ChangeSet
from claude_tui.session import content
from claude_tui.session.changes import Change, ItemChanged, StatusChanged, TasksChanged, TurnEnded
from claude_tui.session.cli_state import CliState
from claude_tui.session.cost import CostMeter
from claude_tui.session.items import NoteItem, NoteKind, ToolState, UserItem
from claude_tui.session.log import Logs
from claude_tui.session.status import Activity, SessionStatus
from claude_tui.session.tasks import TaskBoard

_RESULT_NOTICES = {
    "error_max_turns": "Stopped: the maximum number of turns was reached.",
    "error_max_budget_usd": "Stopped: the cost budget for this session was reached.",
    "error_during_execution": "The turn ended with an error.",
    "error_max_structured_output_retries": "Stopped: structured output failed too many times.",
}

TaskMessage = p.TaskStarted | p.TaskUpdated | p.TaskNotification | p.BackgroundTasksChanged


class Turns:
    """Turn starts and ends, retries, running tools and background work (see the module docstring)."""

    def __init__(self, status: SessionStatus, logs: Logs, tasks: TaskBoard, cost: CostMeter, files: ChangeSet,
                 cli: CliState) -> None:
        self._status = status
        self._logs = logs
        self._tasks = tasks
        self._cost = cost
        self._files = files
        self._cli = cli
        self._finished_in_turn: list[str] = []
        """Markers for background tasks that finished during a turn, shown when the turn ends."""
        self._init_pending = False
        """A prompt was sent while idle and its turn's `system/init` has not arrived yet."""

    def prompt_sent(self, changes: list[Change]) -> bool:
        """The user sent a prompt: a turn starts now unless one runs (then the prompt is queued)."""
        if self._status.turn_running:
            return False
        self._init_pending = True
        self._status.activity = Activity.THINKING
        self._cost.mark_turn(self._status)
        self._files.begin_turn()
        changes.append(StatusChanged())
        return True

    def on_init(self, message: p.SystemInit) -> list[Change]:
        status = self._status
        status.session_id = message.session_id or status.session_id
        status.model = message.model or status.model
        changes: list[Change] = [StatusChanged()]
        changes += self._cli.start_mode(message.permission_mode)
        status.cwd = message.cwd or status.cwd
        changes += self._cli.check_cli_version(message.claude_code_version)
        status.output_style = message.output_style or status.output_style
        extra = message.model_extra or {}
        dirs = extra.get("additional_directories")
        if isinstance(dirs, list):
            status.added_dirs = [str(d) for d in dirs]
        status.fast_mode = extra.get("fast_mode_state") == "on"
        status.tools = list(message.tools)
        status.slash_commands = list(message.slash_commands)
        status.mcp_servers = list(message.mcp_servers)
        status.agents = list(message.agents)
        # Names today; the protocol leaves their shape open (`skills: list[Any]`), so shown as words.
        status.skills = [str(skill) for skill in message.skills]
        if self._init_pending:
            # The turn of the prompt sent while idle: prompts queued behind it stay queued (they
            # can be added before this init arrives).
            self._init_pending = False
        else:
            # A later turn starts: the oldest queued prompt is the one the CLI picked up now.
            for item in self._logs.main.items:
                if isinstance(item, UserItem) and item.queued:
                    item.queued = False
                    changes.append(ItemChanged(item))
                    break
        if status.activity in (Activity.IDLE, Activity.STARTING):
            # The CLI can start a turn on its own (a background agent finished).
            status.activity = Activity.THINKING
            self._cost.mark_turn(status)
        return changes

    def on_status(self, message: p.SystemStatus) -> list[Change]:
        self._cli.mode_reported(message.permission_mode)  # changed by the CLI too (plan approval, a suggestion)
        if message.status == "compacting":
            self._status.activity = Activity.COMPACTING
        elif message.status == "requesting" and self._status.activity is not Activity.WAITING:
            self._status.activity = Activity.THINKING
            self._status.retry_attempt = 0
        return [StatusChanged()]

    def on_retry(self, message: p.ApiRetry) -> list[Change]:
        self._status.activity = Activity.RETRYING
        self._status.retry_attempt = message.attempt or 0
        self._status.retry_max = message.max_retries or 0
        # `error` is untyped in the protocol (a code such as "rate_limit"): shown as words.
        self._status.retry_error = str(message.error_status or message.error or "")
        return [StatusChanged()]

    def on_task(self, message: TaskMessage) -> list[Change]:
        changes: list[Change] = [TasksChanged()]
        match message:
            case p.TaskStarted():
                self._tasks.on_task_started(message)
            case p.TaskUpdated():
                self._tasks.on_task_updated(message)
            case p.TaskNotification():
                self._tasks.on_task_notification(message)
                changes += self._background_finished(message)
            case p.BackgroundTasksChanged():
                self._tasks.on_background_tasks(message.tasks)
        return changes

    def _background_finished(self, message: p.TaskNotification) -> list[Change]:
        """Mark in the log where the CLI learns a background task ended (it then starts a turn of its own).

        A resumed transcript shows the same place as the `<task-notification>` user record
        ("Agent "…" finished"). During a turn the marker waits for the turn's end, so it
        sits between that turn's answer and the one the notification brings.
        """
        words = content.background_notice(message, self._tasks.agents.get(message.task_id))
        if not words:
            return []
        if not self._status.turn_running:
            return self._logs.note(words, NoteKind.INFO)
        self._finished_in_turn.append(words)
        return []

    def mark_finished(self) -> list[Change]:
        changes: list[Change] = []
        for words in self._finished_in_turn:
            changes += self._logs.note(words, NoteKind.INFO)
        self._finished_in_turn.clear()
        return changes

    def on_result(self, message: p.ResultMessage) -> list[Change]:
        status = self._status
        changes: list[Change] = []
        total = message.total_cost_usd
        if total is not None and total >= 0:
            self._cost.on_total(status, total)
        if message.duration_api_ms is not None and message.duration_api_ms > 0:
            status.api_duration_ms += message.duration_api_ms
        window = content.context_window(message.model_usage, status.model)
        if window:
            status.context_window = window
        status.turns += 1
        subtype = message.subtype or "success"
        for denial in message.permission_denials:
            tool = self._logs.tool(denial.tool_use_id or "")
            if tool is not None and tool.state is not ToolState.DENIED:
                tool.state = ToolState.DENIED
                changes.append(ItemChanged(tool, self._logs.scope_of(tool)))
        if subtype in _RESULT_NOTICES and not self._just_interrupted():
            # `errors` is untyped in the protocol (strings today): shown as words.
            errors = [str(e) for e in message.errors or () if not str(e).startswith("[ede_diagnostic]")]
            words = _RESULT_NOTICES[subtype] + ("\n" + "\n".join(errors) if errors else "")
            changes += self._logs.note(words, NoteKind.ERROR)
        elif message.is_error and subtype == "success" and message.result \
                and not self._already_said(message.result):
            changes += self._logs.note(message.result, NoteKind.ERROR)
        changes += self.mark_finished()  # after the turn's own words, before the turn they start
        for tool in self._logs.main.tools.values():
            if tool.state in (ToolState.RUNNING, ToolState.PENDING, ToolState.STREAMING, ToolState.WAITING):
                tool.state = ToolState.INTERRUPTED
                changes.append(ItemChanged(tool))
        self._logs.main.unconfirmed.clear()  # the turn is over: nothing streamed in it gets confirmed any more
        still_queued = any(isinstance(i, UserItem) and i.queued for i in self._logs.main.items)
        status.activity = Activity.THINKING if still_queued else Activity.IDLE
        status.running_tool = ""
        changes.append(StatusChanged())
        changes.append(TurnEnded(subtype, message.is_error, status.cost_last_turn))
        self._cost.turn_ended(status)
        return changes

    def _already_said(self, text: str) -> bool:
        """True when the latest error note already carries `text` (the CLI repeats it in the result)."""
        for item in reversed(self._logs.main.items[-5:]):
            if isinstance(item, NoteItem) and item.kind is NoteKind.ERROR and text.strip() in item.text:
                return True
        return False

    def _just_interrupted(self) -> bool:
        last = self._logs.main.items[-1] if self._logs.main.items else None
        return isinstance(last, NoteItem) and last.kind is NoteKind.INTERRUPT

    def on_tool_progress(self, message: p.ToolProgress) -> list[Change]:
        tool = self._logs.tool(message.tool_use_id or "")
        if tool is None:
            return []
        if message.elapsed_time_seconds is not None:
            tool.elapsed_seconds = message.elapsed_time_seconds
        if tool.state in (ToolState.PENDING, ToolState.STREAMING):
            tool.state = ToolState.RUNNING
        self._status.activity = Activity.RUNNING_TOOL
        self._status.running_tool = tool.name
        return [ItemChanged(tool, self._logs.scope_of(tool)), StatusChanged()]

