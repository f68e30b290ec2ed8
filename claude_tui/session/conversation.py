"""The conversation as a state machine fed by protocol messages.

`Conversation.apply(message)` updates the log items, tool calls, tasks and
status, and returns the list of changes for the UI. Pure and synchronous: the
same object renders live sessions and resumed transcripts.

The session's parts own their state and are handed what they need (no mixins):
`Logs` (log.py: the main log and each subagent's), `Streaming` (streaming.py: stream events,
assistant and user messages, tool results), `PermissionBook` (permission_flow.py: pending
`can_use_tool` requests and decisions), `CliState` (cli_state.py: modes, model, resets),
`Turns` (turns.py: turn starts and ends, retries, background work), the `TaskBoard` and the
`CostMeter`. Handlers take the typed protocol models (`match` on them); `.raw` is read only
for what the models do not type (Unknown messages, blocks and control requests).
"""

from __future__ import annotations

from typing import Any, Self

from claude_tui import protocol as p
from claude_tui.diff.stats import ChangeSet
from claude_tui.protocol.sanitize import printable
from claude_tui.session import content
from claude_tui.session.changes import Change, ItemAdded, StatusChanged
from claude_tui.session.cli_state import CliState
from claude_tui.session.cost import CostMeter
from claude_tui.session.hooks import HookRuns
from claude_tui.session.items import Item, NoteKind, ToolItem, UserItem
from claude_tui.session.limits import limit_words
from claude_tui.session.log import Log, Logs
from claude_tui.session.permission_flow import PermissionBook
from claude_tui.session.permissions import PermissionRequest
from claude_tui.session.status import Activity, SessionStatus
from claude_tui.session.streaming import Streaming
from claude_tui.session.tasks import TaskBoard
from claude_tui.session.turns import Turns


class Conversation:
    """One session's conversation, made of parts that each own their state: the logs (`Logs`),
    what streams (`Streaming`), the pending permission requests (`PermissionBook`), what the CLI
    reports about itself (`CliState`), the turn under way (`Turns`), the task board and the cost
    meter. `apply` hands each typed message to the part that handles it."""

    def __init__(self) -> None:
        self.status = SessionStatus()
        self.logs = Logs()
        self.tasks = TaskBoard()
        self.changes = ChangeSet()
        """Files changed this turn and this session (the "what changed" panel)."""
        self.cost = CostMeter()
        self.cli = CliState(self.status, self.logs)
        self.streaming = Streaming(self.status, self.logs, self.tasks, self.changes, self.cli)
        self.permission_book = PermissionBook(self.status, self.logs)
        self.turns = Turns(self.status, self.logs, self.tasks, self.cost, self.changes, self.cli)
        self.hook_runs = HookRuns(self.logs)
        self.commands: list[dict[str, Any]] = []
        """The initialize response's commands, as the CLI sent them (the completion menu shows them)."""
        self.account: dict[str, Any] = {}
        self.invalid_lines = 0

    # -- the parts' state, under the names the UI has always used ----------------------
    @property
    def main(self) -> Log:
        return self.logs.main

    @property
    def subagents(self) -> dict[str, Log]:
        return self.logs.subagents

    @property
    def permissions(self) -> dict[str, PermissionRequest]:
        """Pending permission requests by request id (the `PermissionBook`'s)."""
        return self.permission_book.pending

    @property
    def models(self) -> list[dict[str, Any]]:
        return self.cli.models

    @models.setter
    def models(self, value: list[dict[str, Any]]) -> None:
        self.cli.models = value

    @property
    def reported_mode(self) -> str | None:
        """The permission mode the CLI last reported (None until it does): what a respawn must ask for."""
        return self.cli.reported_mode

    @property
    def model_choice(self) -> str | None:
        """The model list's value the CLI last reported switching to (`/model NAME`), if any."""
        return self.cli.model_choice

    @model_choice.setter
    def model_choice(self, value: str | None) -> None:
        self.cli.model_choice = value

    @property
    def requested_mode(self) -> str | None:
        return self.cli.requested_mode

    @property
    def version_checked(self) -> bool:
        return self.cli.version_checked

    @property
    def history_cost(self) -> float:
        """What the continued history (resume, fork) cost: the CLI's totals include it (see `CostMeter`)."""
        return self.cost.history

    @history_cost.setter
    def history_cost(self, value: float) -> None:
        self.cost.history = value

    @property
    def items(self) -> list[Item]:
        return self.logs.main.items

    def log_for(self, scope: str | None) -> Log:
        return self.logs.log_for(scope)

    def tool(self, tool_use_id: str) -> ToolItem | None:
        return self.logs.tool(tool_use_id)

    # -- things the app does -----------------------------------------------------------------
    def add_user_prompt(self, text: str, image_count: int = 0, shown: str | None = None) -> list[Change]:
        changes: list[Change] = []
        item = UserItem(text=text, image_count=image_count, queued=self.status.turn_running, shown=shown)
        self.main.add(item, changes)
        self.turns.prompt_sent(changes)
        return changes

    def rewind_to(self, prompt: UserItem, resume_at: str | None) -> int:
        """The log goes back to before `prompt` (the CLI resumes at `resume_at`, see
        `session.rewind_points`); returns how many items left the log. The turns stay in the
        transcript, the cost and "what changed" stay as they are (files are rewound on their own)."""
        dropped = self.logs.main.cut(prompt)
        if dropped:
            self.streaming.chain_uuid = resume_at
        return len(dropped)

    def add_note(self, text: str, kind: NoteKind = NoteKind.INFO, title: str = "") -> list[Change]:
        return self.logs.note(text, kind, title)

    def expect_mode(self, mode: str | None) -> Self:
        """A CLI is being started with `--permission-mode` (see `CliState.expect_mode`)."""
        self.cli.expect_mode(mode)
        return self

    def mode_switched(self, mode: str) -> None:
        """The CLI confirmed a `set_permission_mode` (see `CliState.mode_switched`)."""
        self.cli.mode_switched(mode)

    def check_cli_version(self, version: object) -> list[Change]:
        return self.cli.check_cli_version(version)

    def record_decision(self, request_id: str, words: str, denied: bool,
                        updated_input: dict[str, Any] | None = None) -> list[Change]:
        """The user answered a permission request (see `PermissionBook.record_decision`)."""
        return self.permission_book.record_decision(request_id, words, denied, updated_input)

    def apply_initialize(self, response: dict[str, Any] | p.InitializeResponse,
                         installed_version: str | None = None) -> list[Change]:
        """The CLI's answer to `initialize` (the control response's payload, or it typed);
        `installed_version` (from its package) when it names none."""
        init = response if isinstance(response, p.InitializeResponse) else p.InitializeResponse.from_payload(response)
        self.commands = init.commands
        self.cli.models = init.models
        self.account = init.account
        if init.current_model:
            # The model this process runs (sent by CLIs that report it); else the first init says.
            self.status.model = content.resolved_model(self.models, init.current_model)
        changes: list[Change] = [StatusChanged()]
        changes += self.cli.start_mode(init.current_permission_mode)  # what this process runs in
        changes += self.cli.check_cli_version(init.claude_code_version or installed_version)
        self.cost.carry_history(self.status)
        return changes

    def process_exited(self, returncode: int | None) -> list[Change]:
        changes = self.permission_book.close_all("exited")
        for log in self.logs:
            log.stop(changes)
        changes += self.turns.mark_finished()  # the turn will not end now: mark them here
        self.status.activity = Activity.EXITED
        changes.append(StatusChanged())
        return changes

    # -- the protocol --------------------------------------------------------------------
    def apply(self, message: p.Message) -> list[Change]:
        """Apply one message. Never raises: a message that cannot be shown becomes an error note."""
        shown = len(self.logs.main.items)
        try:
            return self._dispatch(message)
        except Exception as error:  # noqa: BLE001 - the last line of defence against odd CLI output
            # What the handler added before it failed is in the log: show it, so the screen and the
            # log stay in step. A failed result still ends the turn, or the session would look busy forever.
            changes: list[Change] = [ItemAdded(item) for item in self.items[shown:]]
            if isinstance(message, p.ResultMessage) and self.status.turn_running:
                self.status.activity = Activity.IDLE
            changes.append(StatusChanged())
            return changes + self.add_note(f"A {type(message).__name__} from Claude Code could not be shown "
                                           f"({error!r}); the session goes on.", NoteKind.ERROR)

    def _dispatch(self, message: p.Message) -> list[Change]:
        match message:  # the most frequent first: a stream event per token
            case p.StreamEvent():
                return self.streaming.on_stream(message)
            case p.AssistantMessage():
                return self.streaming.on_assistant(message)
            case p.UserMessage():
                return self.streaming.on_user(message)
            case p.SystemStatus():
                return self.turns.on_status(message)
            case p.SystemInit():
                return self.turns.on_init(message)
            case p.ResultMessage():
                return self.turns.on_result(message)
            case p.ControlRequest():
                return self.permission_book.on_request(message)
            case p.ControlCancelRequest():
                return self.permission_book.on_cancel(message)
            case p.ToolProgress():
                return self.turns.on_tool_progress(message)
            case p.ApiRetry():
                return self.turns.on_retry(message)
            case p.CompactBoundary():
                return self.cli.on_compact(message)
            case p.TaskStarted() | p.TaskUpdated() | p.TaskNotification() | p.BackgroundTasksChanged():
                return self.turns.on_task(message)
            case p.HookStarted() | p.HookProgress() | p.HookResponse():
                return self.hook_runs.on_hook(message)
            case p.AuthStatus():
                return self._auth_status(message)
            case p.RateLimitEvent():
                return self._rate_limit(message)
            case p.InvalidLine():
                return self._invalid_line(message)
            case p.UnknownBase():  # UnknownMessage, UnknownSystem: only their raw dict is known
                return self.cli.on_unknown(message)
        return []  # keep-alives, thinking tokens, rate limits, control responses: nothing to show

    def _invalid_line(self, message: p.InvalidLine) -> list[Change]:
        # Something else printed to the CLI's stdout (a wrapper script, a
        # debug print): ignored, but said once so a broken setup is visible.
        self.invalid_lines += 1
        if self.invalid_lines > 1:
            return []
        sample = printable(message.text[:200]) + ("…" if len(message.text) > 200 else "")
        return self.add_note(f"Claude Code printed output that is not stream-json; it is ignored:\n{sample}",
                             NoteKind.ERROR, title="Unexpected output")

    def _rate_limit(self, message: p.RateLimitEvent) -> list[Change]:
        words = limit_words(message.rate_limit_info)
        if words == self.status.limit_warning:
            return []
        self.status.limit_warning = words
        return [StatusChanged()]

    def _auth_status(self, message: p.AuthStatus) -> list[Change]:
        if message.error:
            return self.add_note(f"Authentication: {message.error}", NoteKind.ERROR)
        return []
