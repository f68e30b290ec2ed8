"""Content as it streams: stream events, complete assistant messages, user messages and tool results.

A mixin of `Conversation` (kept apart so each module stays small): the CLI
streams each content block and then prints it once more, complete, as an
`assistant` message carrying that single block; the streamed item is kept and
its content replaced by the authoritative copy.

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
from claude_tui.session import content
from claude_tui.session.changes import (
    Change,
    ItemChanged,
    StatusChanged,
    TasksChanged,
    TextAppended,
)
from claude_tui.session.cli_state import is_compact_summary
from claude_tui.session.items import NoteItem, NoteKind, TextItem, ThinkingItem, ToolItem, ToolState, UserItem
from claude_tui.session.log import Log
from claude_tui.session.status import Activity, usage_tokens
from claude_tui.session.values import as_list


class StreamingMixin:
    """Handlers for stream_event, assistant and user messages (see the module docstring)."""

    def _stream(self, message: p.StreamEvent) -> list[Change]:
        # The hot path (a line per token): typed attributes only, no `.raw` (which
        # would parse the line a second time).
        event = message.event
        scope = message.parent_tool_use_id
        log = self.log_for(scope)
        if isinstance(event, p.MessageStart):
            log.stream_message_id = str(event.message.id or "")
        message_id = str(getattr(message, "api_message_id", None) or log.stream_message_id)
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
                    activity = Activity.RESPONDING if isinstance(item, TextItem) else Activity.THINKING
                    changes += self._set_activity(activity)
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
        pending_id, pending = _pending_for(log, message_id)
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
            log.unconfirmed.pop(pending_id, None)
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
        if is_compact_summary(raw, text):
            # Checked first: the summary quotes the old conversation (its interrupts, command output).
            return self._compact_summary_note() if log.scope is None else []
        note = content.classify_user_text(text)
        if note is not None:
            kind, words = note
            if log.scope is None and kind is NoteKind.INTERRUPT:
                words = _interrupt_words(log, words)
            changes = self._note_in(log, words, kind)
            if log.scope is None and kind is NoteKind.LOCAL_COMMAND:
                changes += self._local_output(words)
            return changes
        command = content.typed_command(text)
        if command is not None:
            # A slash command the user typed (transcripts record it wrapped in tags).
            text = command
        if raw.get("isReplay") and log.scope is None:
            echoed = _claim_echo(log, text, raw.get("uuid"))
            if echoed is not None and echoed.queued:
                # The echo comes when the CLI starts the prompt's turn: it is not waiting any more.
                echoed.queued = False
                return [ItemChanged(echoed)]
        if raw.get("isReplay") or raw.get("isMeta") or raw.get("isSynthetic") or log.scope is not None:
            # Replays of our own prompts (and a subagent's prompt) are already shown or belong to the agent;
            # synthetic ones (the CLI's own: meta, transcript-only) were never typed by the user.
            if log.scope is not None and text.strip():
                changes: list[Change] = []
                log.add(UserItem(text=text), changes)
                return changes
            return []
        changes = []
        uuid = raw.get("uuid")
        log.add(UserItem(text=text, uuid=uuid if isinstance(uuid, str) and uuid else None), changes)
        return changes

    def _tool_result(self, log: Log, block: dict[str, Any], structured: Any) -> list[Change]:
        tool_use_id = str(block.get("tool_use_id") or "")
        tool = log.tools.get(tool_use_id) or self.tool(tool_use_id)
        changes: list[Change] = []
        if tool is None:
            tool = ToolItem(tool_use_id=tool_use_id, name=self._tool_names.get(tool_use_id, "tool"),
                            state=ToolState.RUNNING)
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
        if isinstance(structured, dict):
            # Computed once here: the card shows it and the "what changed" panel counts it.
            tool.diff = file_diff_from_tool_result(tool.name, tool.input, structured)
            if tool.diff is not None and not tool.result_is_error:
                self.changes.record(tool.diff)
        return changes


def _pending_for(log: Log, message_id: str) -> tuple[str, deque[Any] | None]:
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


def _claim_echo(log: Log, text: str, uuid: object) -> UserItem | None:
    """Give the oldest prompt still waiting for its echo the CLI's uuid (prompts echo in the order sent)."""
    if not isinstance(uuid, str) or not uuid:
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
