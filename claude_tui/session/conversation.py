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

from claude_tui.session.values import as_list

from collections import deque
from typing import Any

from claude_tui import protocol as p
from claude_tui.diff.results import file_diff_from_tool_result
from claude_tui.diff.stats import ChangeSet
from claude_tui.protocol.sanitize import printable
from claude_tui.session import content
from claude_tui.session.changes import (
    Change,
    ItemAdded,
    ItemChanged,
    PermissionAsked,
    PermissionClosed,
    StatusChanged,
    TasksChanged,
    TextAppended,
    TurnEnded,
)
from claude_tui.session.items import Item, NoteItem, NoteKind, TextItem, ThinkingItem, ToolItem, ToolState, UserItem
from claude_tui.session.permissions import PermissionRequest
from claude_tui.session.status import Activity, SessionStatus, usage_tokens
from claude_tui.session.tasks import TaskBoard

_RESULT_NOTICES = {
    "error_max_turns": "Stopped: the maximum number of turns was reached.",
    "error_max_budget_usd": "Stopped: the cost budget for this session was reached.",
    "error_during_execution": "The turn ended with an error.",
    "error_max_structured_output_retries": "Stopped: structured output failed too many times.",
}


def _int(value: Any) -> int:
    """An int from untrusted JSON (a block index, a retry count); 0 for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return 0
    try:
        return int(value)
    except (ValueError, OverflowError):
        return 0


class Log:
    """The items of one agent's conversation (the main one, or a subagent's)."""

    def __init__(self, scope: str | None) -> None:
        self.scope = scope
        self.items: list[Item] = []
        self.tools: dict[str, ToolItem] = {}
        # (message id, block index) -> the item a stream is filling.
        self.streaming: dict[tuple[str, int], Item] = {}
        # Items streamed but not yet confirmed by their `assistant` message, per message id.
        self.unconfirmed: dict[str, deque[Item]] = {}

    def add(self, item: Item, changes: list[Change]) -> Item:
        self.items.append(item)
        if isinstance(item, ToolItem):
            self.tools[item.tool_use_id] = item
        changes.append(ItemAdded(item, self.scope))
        return item


class Conversation:
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
        self._turn_start_cost = 0.0
        self._tool_names: dict[str, str] = {}
        self.invalid_lines = 0

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
        busy = self.status.activity not in (Activity.IDLE, Activity.STARTING, Activity.EXITED)
        self.main.add(UserItem(text=text, image_count=image_count, queued=busy), changes)
        if not busy:
            self.status.activity = Activity.THINKING
            self._turn_start_cost = self.status.cost_total
            self.changes.begin_turn()
            changes.append(StatusChanged())
        return changes

    def add_note(self, text: str, kind: NoteKind = NoteKind.INFO, title: str = "") -> list[Change]:
        changes: list[Change] = []
        self.main.add(NoteItem(kind=kind, text=text, title=title), changes)
        return changes

    def apply_initialize(self, response: dict[str, Any]) -> list[Change]:
        self.commands = [c for c in as_list(response.get("commands")) if isinstance(c, dict)]
        self.models = [m for m in as_list(response.get("models")) if isinstance(m, dict)]
        account = response.get("account")
        self.account = account if isinstance(account, dict) else {}
        return [StatusChanged()]

    def record_decision(self, request_id: str, words: str, denied: bool,
                        updated_input: dict[str, Any] | None = None) -> list[Change]:
        request = self.permissions.pop(request_id, None)
        changes: list[Change] = [PermissionClosed(request_id, "answered")]
        if request is None:
            return changes
        tool = self.tool(request.tool_use_id)
        if tool is not None:
            tool.decision = words
            if updated_input and not denied and request.tool_name != "AskUserQuestion":
                # The card must show what was approved and ran, not what was first proposed.
                tool.input = {**tool.input, **updated_input}
            if denied:
                tool.state = ToolState.DENIED
            elif tool.state is ToolState.WAITING:
                tool.state = ToolState.RUNNING
            changes.append(ItemChanged(tool, self._scope_of(tool)))
        changes += self.add_note(words, NoteKind.DECISION, title=request.title)
        if not self.permissions:
            self.status.activity = Activity.RUNNING_TOOL if not denied else Activity.THINKING
            changes.append(StatusChanged())
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
        try:
            return handler(self, message)
        except Exception as error:  # noqa: BLE001 - the last line of defence against odd CLI output
            return self.add_note(f"A {type(message).__name__} from Claude Code could not be shown ({error!r}); "
                                 "the session goes on.", NoteKind.ERROR)

    def _system_init(self, message: p.SystemInit) -> list[Change]:
        raw = message.raw
        status = self.status
        status.session_id = str(raw.get("session_id") or status.session_id)
        status.model = str(raw.get("model") or status.model)
        status.permission_mode = str(raw.get("permissionMode") or status.permission_mode)
        status.cwd = str(raw.get("cwd") or status.cwd)
        status.cli_version = str(raw.get("claude_code_version") or status.cli_version)
        status.tools = [str(t) for t in as_list(raw.get("tools"))]
        status.slash_commands = [str(c) for c in as_list(raw.get("slash_commands"))]
        status.mcp_servers = [s for s in as_list(raw.get("mcp_servers")) if isinstance(s, dict)]
        status.agents = [str(a) for a in as_list(raw.get("agents"))]
        status.skills = [str(s) for s in as_list(raw.get("skills"))]
        changes: list[Change] = [StatusChanged()]
        # A turn starts: the oldest queued prompt is the one the CLI picked up now.
        for item in self.main.items:
            if isinstance(item, UserItem) and item.queued:
                item.queued = False
                changes.append(ItemChanged(item))
                break
        if status.activity in (Activity.IDLE, Activity.STARTING):
            # The CLI can start a turn on its own (a background agent finished).
            status.activity = Activity.THINKING
            self._turn_start_cost = status.cost_total
        return changes

    def _system_status(self, message: p.SystemStatus) -> list[Change]:
        raw = message.raw
        if raw.get("permissionMode"):
            self.status.permission_mode = str(raw["permissionMode"])
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
        self.status.retry_attempt = _int(raw.get("attempt"))
        self.status.retry_max = _int(raw.get("max_retries"))
        error = raw.get("error_status") or raw.get("error") or ""
        self.status.retry_error = str(error)
        return [StatusChanged()]

    def _compact(self, message: p.CompactBoundary) -> list[Change]:
        meta = message.raw.get("compact_metadata") or {}
        trigger = meta.get("trigger", "") if isinstance(meta, dict) else ""
        tokens = meta.get("pre_tokens") if isinstance(meta, dict) else None
        words = "Conversation compacted"
        if trigger:
            words += f" ({trigger})"
        if isinstance(tokens, int):
            words += f" — {tokens:,} tokens before"
        return self.add_note(words, NoteKind.COMPACT)

    def _task_system(self, message: p.SystemMessage) -> list[Change]:
        raw = message.raw
        subtype = raw.get("subtype")
        if subtype == "task_started":
            self.tasks.on_task_started(raw)
        elif subtype == "task_updated":
            self.tasks.on_task_updated(raw)
        elif subtype == "task_notification":
            self.tasks.on_task_notification(raw)
        elif subtype == "background_tasks_changed":
            self.tasks.on_background_tasks(as_list(raw.get("tasks")))
        return [TasksChanged()]

    def _stream(self, message: p.StreamEvent) -> list[Change]:
        # The hot path (a line per token): typed attributes only, no `.raw` (which
        # would parse the line a second time).
        event = message.event
        scope = message.parent_tool_use_id
        log = self.log_for(scope)
        message_id = str(getattr(message, "api_message_id", None) or "")
        changes: list[Change] = []
        if isinstance(event, p.ContentBlockDelta):
            item = log.streaming.get((message_id, event.index))
            if item is not None:
                text = content.apply_delta(item, event.delta)
                if text:
                    changes.append(TextAppended(item, text, scope))
        elif isinstance(event, p.ContentBlockStart):
            item = content.item_for_block_start(event.content_block.model_dump(), message_id)
            if item is not None:
                log.add(item, changes)
                log.streaming[(message_id, event.index)] = item
                log.unconfirmed.setdefault(message_id, deque()).append(item)
                if isinstance(item, ToolItem):
                    self._tool_names[item.tool_use_id] = item.name
                if scope is None:
                    changes += self._set_activity(Activity.RESPONDING if isinstance(item, TextItem) else Activity.THINKING)
        elif isinstance(event, p.ContentBlockStop):
            item = log.streaming.pop((message_id, event.index), None)
            if isinstance(item, (TextItem, ThinkingItem)):
                item.streaming = False
                changes.append(ItemChanged(item, scope))
            elif isinstance(item, ToolItem) and item.state is ToolState.STREAMING:
                content.finish_tool_input(item)
                changes.append(ItemChanged(item, scope))
        elif isinstance(event, p.MessageStart) and scope is None:
            usage = event.message.usage
            tokens = usage.context_tokens + (usage.output_tokens or 0) if usage is not None else 0
            if tokens:
                self.status.context_tokens = tokens
                changes.append(StatusChanged())
        return changes

    def _set_activity(self, activity: Activity) -> list[Change]:
        if self.status.activity is activity or self.status.activity is Activity.WAITING:
            return []
        self.status.activity = activity
        return [StatusChanged()]

    def _note_usage(self, usage: Any, changes: list[Change]) -> None:
        tokens = usage_tokens(usage)
        if tokens:
            self.status.context_tokens = tokens
            changes.append(StatusChanged())

    def _assistant(self, message: p.AssistantMessage) -> list[Change]:
        raw = message.raw
        msg = raw.get("message") if isinstance(raw.get("message"), dict) else {}
        scope = raw.get("parent_tool_use_id")
        log = self.log_for(scope)
        changes: list[Change] = []
        error = raw.get("error")
        if msg.get("model") == "<synthetic>":
            # The CLI reports API failures (e.g. authentication_failed) as synthetic messages too.
            text = content.blocks_text(msg.get("content"))
            if error:
                changes += self._note_in(log, content.assistant_error_words(str(error), msg), NoteKind.ERROR)
            elif text.strip():
                changes += self._note_in(log, text, NoteKind.LOCAL_COMMAND)
            return changes
        message_id = str(msg.get("id") or "")
        if scope is None and msg.get("model"):
            self.status.model = str(msg["model"]) if not self.status.model else self.status.model
        if scope is None:
            self._note_usage(msg.get("usage"), changes)
        pending = log.unconfirmed.get(message_id)
        for block in as_list(msg.get("content")):
            if not isinstance(block, dict):
                continue
            item = content.confirm(pending, block)
            if item is not None:
                changes.append(ItemChanged(item, scope))
            else:
                item = content.item_for_block(block, message_id)
                if item is None:
                    continue
                log.add(item, changes)
            if isinstance(item, ToolItem):
                self._tool_names[item.tool_use_id] = item.name
                if self.tasks.on_tool_use(item.tool_use_id, item.name, item.input):
                    changes.append(TasksChanged())
        if pending is not None and not pending:
            log.unconfirmed.pop(message_id, None)
        if error:
            changes += self._note_in(log, content.assistant_error_words(str(error), msg), NoteKind.ERROR)
        return changes

    def _note_in(self, log: Log, text: str, kind: NoteKind) -> list[Change]:
        changes: list[Change] = []
        log.add(NoteItem(kind=kind, text=text), changes)
        return changes

    def _user(self, message: p.UserMessage) -> list[Change]:
        raw = message.raw
        msg = raw.get("message") if isinstance(raw.get("message"), dict) else {}
        scope = raw.get("parent_tool_use_id")
        log = self.log_for(scope)
        changes: list[Change] = []
        body = msg.get("content")
        structured = raw.get("tool_use_result", raw.get("toolUseResult"))
        if isinstance(body, str):
            return self._user_text(log, body, raw)
        for block in as_list(body):
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_result":
                changes += self._tool_result(log, block, structured)
            elif block.get("type") == "text":
                changes += self._user_text(log, str(block.get("text", "")), raw)
        return changes

    def _user_text(self, log: Log, text: str, raw: dict[str, Any]) -> list[Change]:
        note = content.classify_user_text(text)
        if note is not None:
            kind, words = note
            return self._note_in(log, words, kind)
        command = content.typed_command(text)
        if command is not None:
            # A slash command the user typed (transcripts record it wrapped in tags).
            text = command
        if raw.get("isReplay") or raw.get("isMeta") or log.scope is not None:
            # Replays of our own prompts (and a subagent's prompt) are already shown or belong to the agent.
            if log.scope is not None and text.strip():
                changes: list[Change] = []
                log.add(UserItem(text=text), changes)
                return changes
            return []
        changes = []
        log.add(UserItem(text=text), changes)
        return changes

    def _tool_result(self, log: Log, block: dict[str, Any], structured: Any) -> list[Change]:
        tool_use_id = str(block.get("tool_use_id") or "")
        tool = log.tools.get(tool_use_id) or self.tool(tool_use_id)
        changes: list[Change] = []
        if tool is None:
            tool = ToolItem(tool_use_id=tool_use_id, name=self._tool_names.get(tool_use_id, "tool"), state=ToolState.RUNNING)
            log.add(tool, changes)
        text, images = content.result_text_and_images(block.get("content"))
        tool.result_text = text
        tool.images = images
        tool.structured = structured
        tool.result_is_error = bool(block.get("is_error")) or "<tool_use_error>" in text
        if tool.state is not ToolState.DENIED:
            tool.state = ToolState.ERROR if tool.result_is_error else ToolState.DONE
        if content.is_user_rejection(structured, text) and tool.state is ToolState.ERROR:
            tool.state = ToolState.DENIED
        changes.append(ItemChanged(tool, log.scope))
        if self.tasks.on_tool_result(tool_use_id, tool.name, structured, text, tool.result_is_error):
            changes.append(TasksChanged())
        if not tool.result_is_error and isinstance(structured, dict):
            diff = file_diff_from_tool_result(tool.name, tool.input, structured)
            if diff is not None:
                self.changes.record(diff)
        return changes

    def _result(self, message: p.ResultMessage) -> list[Change]:
        raw = message.raw
        status = self.status
        changes: list[Change] = []
        total = raw.get("total_cost_usd")
        if isinstance(total, (int, float)) and total >= status.cost_total:
            status.cost_last_turn = float(total) - self._turn_start_cost
            status.cost_total = float(total)
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
        self._turn_start_cost = status.cost_total
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

    def _control_request(self, message: p.ControlRequest) -> list[Change]:
        raw = message.raw
        request = raw.get("request") if isinstance(raw.get("request"), dict) else {}
        if request.get("subtype") != "can_use_tool":
            return []
        tool_use_id = str(request.get("tool_use_id") or "")
        tool = self.tool(tool_use_id)
        tool_input = request.get("input") if isinstance(request.get("input"), dict) else {}
        plan = ""
        if request.get("tool_name") == "ExitPlanMode" and tool is not None:
            plan = str(tool.input.get("plan", ""))
        permission = PermissionRequest(
            request_id=str(raw.get("request_id", "")),
            tool_name=str(request.get("tool_name", "")),
            input=tool_input,
            display_name=str(request.get("display_name") or ""),
            description=str(request.get("description") or ""),
            decision_reason=str(request.get("decision_reason") or ""),
            blocked_path=str(request.get("blocked_path") or ""),
            suggestions=[s for s in as_list(request.get("permission_suggestions")) if isinstance(s, dict)],
            tool_use_id=tool_use_id,
            plan=plan or str(tool_input.get("plan", "")),
            agent_scope=self._scope_of(tool) if tool is not None else None,
        )
        self.permissions[permission.request_id] = permission
        changes: list[Change] = [PermissionAsked(permission)]
        if tool is not None:
            tool.state = ToolState.WAITING
            changes.append(ItemChanged(tool, permission.agent_scope))
        self.status.activity = Activity.WAITING
        changes.append(StatusChanged())
        return changes

    def _control_cancel(self, message: p.ControlCancelRequest) -> list[Change]:
        request_id = str(message.raw.get("request_id", ""))
        if self.permissions.pop(request_id, None) is None:
            return []
        if not self.permissions and self.status.activity is Activity.WAITING:
            self.status.activity = Activity.THINKING
        return [PermissionClosed(request_id, "cancelled"), StatusChanged()]

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
}
