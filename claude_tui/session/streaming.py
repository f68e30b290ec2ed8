"""Content as it streams: stream events, complete assistant messages, user messages and tool results.

`Streaming` is a part of `Conversation` with its own state (the tool names seen, for results whose
call was never shown). The CLI streams each content block and then prints it once more, complete,
as an `assistant` message carrying that single block; the streamed item is kept and its content
replaced by the authoritative copy.

Which streamed item a final block completes: stream events carry the response's
id as `api_message_id` only from CLI 2.1.295 on. Before that the id comes from
the response's `message_start` (every version sends it), and when even that is
missing the final blocks confirm what streamed in the same scope in block order
(`_pending_for`). Without this, every answer on an older CLI showed twice.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from claude_tui import protocol as p
from claude_tui.diff.results import file_diff_from_tool_result
from claude_tui.diff.stats import ChangeSet
from claude_tui.session import content
from claude_tui.session.changes import (
    Change,
    ItemChanged,
    StatusChanged,
    TasksChanged,
    TextAppended,
)
from claude_tui.session.cli_state import CliState, is_compact_summary
from claude_tui.session.items import Item, NoteKind, TextItem, ThinkingItem, ToolItem, ToolState, UserItem
from claude_tui.session.log import Log, Logs
from claude_tui.session.status import Activity, SessionStatus, usage_tokens
from claude_tui.session.tasks import TaskBoard


class Streaming:
    """Handlers for stream_event, assistant and user messages (see the module docstring)."""

    def __init__(self, status: SessionStatus, logs: Logs, tasks: TaskBoard, files: ChangeSet,
                 cli: CliState) -> None:
        self._status = status
        self._logs = logs
        self._tasks = tasks
        self._files = files
        self._cli = cli
        self._tool_names: dict[str, str] = {}
        """tool_use_id -> tool name, for a result whose card is gone (or was never shown)."""
        self.chain_uuid: str | None = None
        """The uuid of the newest main-conversation message (assistant or user): where the CLI's
        transcript chain ends now, so the point a prompt that starts here can be rewound to."""

    def on_stream(self, message: p.StreamEvent) -> list[Change]:
        # The hot path (a line per token): typed attributes only, no `.raw` (which
        # would parse the line a second time).
        event = message.event
        scope = message.parent_tool_use_id
        log = self._logs.log_for(scope)
        changes: list[Change] = []
        match event:
            case p.ContentBlockDelta():
                item = log.streaming.get((message.api_message_id or log.stream_message_id, event.index))
                if item is not None:
                    text = content.apply_delta(item, event.delta)
                    if text:
                        changes.append(TextAppended(item, text, scope))
            case p.ContentBlockStart():
                self._block_start(log, message.api_message_id or log.stream_message_id, event, changes)
            case p.ContentBlockStop():
                item = log.streaming.pop((message.api_message_id or log.stream_message_id, event.index), None)
                if isinstance(item, (TextItem, ThinkingItem)):
                    item.streaming = False
                    changes.append(ItemChanged(item, scope))
                elif isinstance(item, ToolItem) and item.state is ToolState.STREAMING:
                    content.finish_tool_input(item)
                    changes.append(ItemChanged(item, scope))
            case p.MessageStart():
                log.stream_message_id = event.message.id or ""
                if scope is None:
                    self._note_usage(event.message.usage, changes)
            case p.MessageDelta():
                # The reply's final output count (message_start said 1): what a status line is told.
                last = self._status.last_usage
                if scope is None and last is not None and event.usage is not None and event.usage.output_tokens:
                    last["output_tokens"] = event.usage.output_tokens
        return changes

    def _block_start(self, log: Log, message_id: str, event: p.ContentBlockStart, changes: list[Change]) -> None:
        item = content.item_for_block_start(event.content_block, message_id)
        if item is None:
            return
        log.add(item, changes)
        log.streaming[(message_id, event.index)] = item
        log.unconfirmed.setdefault(message_id, deque()).append(item)
        if isinstance(item, ToolItem):
            self._tool_names[item.tool_use_id] = item.name
        if log.scope is None:
            changes += self._set_activity(Activity.RESPONDING if isinstance(item, TextItem) else Activity.THINKING)

    def _set_activity(self, activity: Activity) -> list[Change]:
        if self._status.activity is activity or self._status.activity is Activity.WAITING:
            return []
        self._status.activity = activity
        return [StatusChanged()]

    def _note_usage(self, usage: p.Usage | None, changes: list[Change]) -> None:
        tokens = usage_tokens(usage)
        if tokens and usage is not None:
            self._status.context_tokens = tokens
            self._status.last_usage = {
                "input_tokens": usage.input_tokens or 0, "output_tokens": usage.output_tokens or 0,
                "cache_creation_input_tokens": usage.cache_creation_input_tokens or 0,
                "cache_read_input_tokens": usage.cache_read_input_tokens or 0}
            changes.append(StatusChanged())

    def on_assistant(self, message: p.AssistantMessage) -> list[Change]:
        body = message.message
        scope = message.parent_tool_use_id
        log = self._logs.log_for(scope)
        changes: list[Change] = []
        # `error` is untyped in the protocol (a code such as "authentication_failed"; shown as words).
        error = str(message.error) if message.error else ""
        if message.is_synthetic:
            # The CLI reports API failures (e.g. authentication_failed) as synthetic messages too.
            text = content.blocks_text(body.content)
            if error:
                changes += log.note(content.assistant_error_words(error, text), NoteKind.ERROR)
            elif text.strip():
                changes += log.note(text, NoteKind.LOCAL_COMMAND)
            return changes
        message_id = body.id or ""
        if scope is None:
            if body.model and not self._status.model:
                self._status.model = body.model
            self._note_usage(body.usage, changes)
        pending_id, pending = _pending_for(log, message_id)
        for block in body.content:
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
                if self._tasks.on_tool_use(item.tool_use_id, item.name, item.input):
                    changes.append(TasksChanged())
        if pending is not None and not pending:
            log.unconfirmed.pop(pending_id, None)
        if error:
            changes += log.note(content.assistant_error_words(error, content.blocks_text(body.content)),
                                NoteKind.ERROR)
        if scope is None and message.uuid:
            self.chain_uuid = message.uuid
        return changes

    def on_user(self, message: p.UserMessage) -> list[Change]:
        try:
            return self._on_user(message)
        finally:
            # After the prompt took the chain's end as its rewind point: the chain now ends at it.
            # The CLI's own meta and synthetic lines are left out: not every version keeps them in
            # the messages `--resume-session-at` looks the uuid up in.
            if message.parent_tool_use_id is None and message.uuid and not (message.is_meta or message.is_synthetic):
                self.chain_uuid = message.uuid

    def _on_user(self, message: p.UserMessage) -> list[Change]:
        scope = message.parent_tool_use_id
        log = self._logs.log_for(scope)
        body = message.message.content
        if isinstance(body, str):
            changes = self._user_text(log, body, message)
        else:
            changes = []
            for block in body:
                match block:
                    case p.ToolResultBlock():
                        changes += self._tool_result(log, block, message.tool_use_result)
                    case p.TextBlock():
                        changes += self._user_text(log, block.text, message)
                    case p.UnknownBlock():
                        changes += self._unknown_block(log, block.raw, message)
        # An error result the CLI stamps as not run (refused, or cut off) is not a tool error:
        # a refusal "told" to Claude has only this to tell it apart (see content.not_run_states).
        for tool_use_id, state in content.not_run_states(message.tool_result_meta).items():
            tool = self._logs.tool(tool_use_id)
            if tool is not None and tool.state is ToolState.ERROR:
                tool.state = state
                if not any(isinstance(c, ItemChanged) and c.item is tool for c in changes):
                    changes.append(ItemChanged(tool, self._logs.scope_of(tool)))
        return changes

    def _unknown_block(self, log: Log, raw: dict[str, Any], message: p.UserMessage) -> list[Change]:
        """A text or tool_result block with a malformed field (so not typed): read from its raw dict,
        as lenient as before, so a result still reaches its card."""
        kind = raw.get("type")
        if kind == "text":
            return self._user_text(log, str(raw.get("text", "")), message)
        if kind != "tool_result":
            return []
        body = raw.get("content")
        block = p.ToolResultBlock.model_construct(
            tool_use_id=str(raw.get("tool_use_id") or ""),
            content=body if isinstance(body, (str, list)) else None,
            is_error=bool(raw.get("is_error")),
        )
        return self._tool_result(log, block, message.tool_use_result)

    def _user_text(self, log: Log, text: str, message: p.UserMessage) -> list[Change]:
        bash = content.bash_mode_text(text)
        if bash is not None:
            # Our own echo: the command's card shows it already. From a transcript: a note each.
            return [] if message.is_replay or log.scope is not None else log.note(bash[1], bash[0])
        if is_compact_summary(message, text):
            # Checked first: the summary quotes the old conversation (its interrupts, command output).
            return self._cli.compact_summary_note() if log.scope is None else []
        note = content.classify_user_text(text)
        if note is not None:
            kind, words = note
            if log.scope is None and kind is NoteKind.INTERRUPT:
                words = _interrupt_words(log, words)
            changes = log.note(words, kind)
            if log.scope is None and kind is NoteKind.LOCAL_COMMAND:
                changes += self._cli.local_output(words)
            return changes
        command = content.typed_command(text)
        if command is not None:
            # A slash command the user typed (transcripts record it wrapped in tags).
            text = command
        if message.is_replay and log.scope is None:
            echoed = _claim_echo(log, text, message.uuid)
            if echoed is not None:
                echoed.resume_at = self.chain_uuid
            if echoed is not None and echoed.queued:
                # The echo comes when the CLI starts the prompt's turn: it is not waiting any more.
                echoed.queued = False
                return [ItemChanged(echoed)]
        changes = []
        if message.is_replay or message.is_meta or message.is_synthetic or log.scope is not None:
            # Replays of our own prompts (and a subagent's prompt) are already shown or belong to the agent;
            # synthetic ones (the CLI's own: meta, transcript-only) were never typed by the user.
            if log.scope is not None and text.strip():
                log.add(UserItem(text=text), changes)
            return changes
        log.add(UserItem(text=text, uuid=message.uuid or None,
                         resume_at=self.chain_uuid if message.uuid else None), changes)
        return changes

    def _tool_result(self, log: Log, block: p.ToolResultBlock, structured: Any) -> list[Change]:
        tool_use_id = block.tool_use_id
        tool = log.tools.get(tool_use_id) or self._logs.tool(tool_use_id)
        changes: list[Change] = []
        if tool is None:
            tool = ToolItem(tool_use_id=tool_use_id, name=self._tool_names.get(tool_use_id, "tool"),
                            state=ToolState.RUNNING)
            log.add(tool, changes)
        text, images = content.result_text_and_images(block.content)
        tool.result_text = text
        tool.images = images
        tool.structured = structured
        if isinstance(structured, dict) and not block.is_error:
            tool.input = applied_input(tool.name, tool.input, structured)
        tool.result_is_error = bool(block.is_error) or "<tool_use_error>" in text
        if tool.state is not ToolState.DENIED:
            tool.state = ToolState.ERROR if tool.result_is_error else ToolState.DONE
        if content.is_user_rejection(structured, text) and tool.state is ToolState.ERROR:
            tool.state = ToolState.DENIED
        changes.append(ItemChanged(tool, log.scope))
        if self._tasks.on_tool_result(tool_use_id, tool.name, structured, text, tool.result_is_error):
            changes.append(TasksChanged())
        if isinstance(structured, dict):
            # Computed once here: the card shows it and the "what changed" panel counts it.
            tool.diff = file_diff_from_tool_result(tool.name, tool.input, structured)
            if tool.diff is not None and not tool.result_is_error:
                self._files.record(tool.diff)
                self._status.lines_added += tool.diff.added
                self._status.lines_removed += tool.diff.removed
        return changes


def _pending_for(log: Log, message_id: str) -> tuple[str, deque[Item] | None]:
    """The streamed items a final `assistant` message confirms: those of its id, else those streamed
    with no id at all (a CLI that named neither), oldest first."""
    pending = log.unconfirmed.get(message_id)
    if pending is None and message_id:
        return "", log.unconfirmed.get("")
    return message_id, pending


def _interrupt_words(log: Log, words: str) -> str:
    """The interrupt note lands after prompts queued during the turn: say it was not them that stopped."""
    queued = sum(1 for item in log.items if isinstance(item, UserItem) and item.queued)
    if not queued:
        return words
    which = "your queued prompt is" if queued == 1 else f"your {queued} queued prompts are"
    return f"{words}: the running turn stopped; {which} next"


def _claim_echo(log: Log, text: str, uuid: str | None) -> UserItem | None:
    """Give the oldest prompt still waiting for its echo the CLI's uuid (prompts echo in the order sent)."""
    if not uuid:
        return None
    wanted = text.strip()
    match: UserItem | None = None
    for item in reversed(log.items):
        if isinstance(item, UserItem):
            if item.uuid is not None:
                break  # everything older was echoed already
            if item.text.strip() == wanted:
                match = item
    if match is not None:
        match.uuid = uuid
    return match


_APPLIED_FIELDS = {"Edit": (("oldString", "old_string"), ("newString", "new_string")),
                   "Write": (("content", "content"),)}


def applied_input(name: str, tool_input: dict[str, Any], structured: dict[str, Any]) -> dict[str, Any]:
    """The input as the CLI applied it, from its result: a change taken in part was sent rebuilt, while the
    transcript's tool_use keeps what Claude asked, so a resumed card and the export show what ran."""
    pairs = _APPLIED_FIELDS.get(name, ())
    updated = {key: structured[field] for field, key in pairs
               if isinstance(structured.get(field), str) and structured[field] != tool_input.get(key)}
    return {**tool_input, **updated} if updated else tool_input
