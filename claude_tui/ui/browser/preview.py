"""The session browser's preview pane (the last turns, drawn by the chat widgets) and rename dialog.

:func:`load_session_preview` does the disk work (read the transcript, replay it) and is
called from a thread worker; :class:`SessionPreview` only renders what it gets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from claude_tui.history.index import SessionRow
from claude_tui.history.search import SearchHit
from claude_tui.history.transcript import load_transcript
from claude_tui.protocol import units
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, UserItem
from claude_tui.session.log import Log
from claude_tui.session.replay import RESUMED, note_other_branches, replay
from claude_tui.ui.browser.table import snippet_text
from claude_tui.ui.dialogs.text_prompt import TextPrompt
from claude_tui.ui.log.chat_log import ChatLog

PREVIEW_TURNS = 3
"""How many of the newest user turns the preview shows."""
PREVIEW_MAX_ITEMS = 60


def visible_records(records: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Transcript records minus the compaction summary the CLI writes as a (hidden) user message."""
    return [r for r in records if not (r.get("type") == "user" and (r.get("isCompactSummary")
                                                                    or r.get("isVisibleInTranscriptOnly")))]


def conversation_from_file(path: Path | str) -> Conversation:
    """Read a transcript and replay it into a conversation (blocking: call from a thread)."""
    transcript = load_transcript(path)
    cost = transcript.cost_state.get("totalCostUSD") if transcript.cost_state else None
    conversation = replay(visible_records(transcript.records), transcript.subagents,
                          session_id=transcript.session_id,
                          cost_usd=float(cost) if isinstance(cost, (int, float)) else None)
    note_other_branches(conversation, transcript.other_branches)
    return conversation


@dataclass(slots=True)
class Preview:
    """The last turns of a session, as a standalone `Log` a ChatLog can render."""

    log: Log


def preview_of(conversation: Conversation, turns: int = PREVIEW_TURNS) -> Preview:
    items = list(conversation.main.items)
    if items and isinstance(items[-1], NoteItem) and items[-1].text.startswith(RESUMED):  # replay's own note
        items.pop()
    starts = [i for i, item in enumerate(items) if isinstance(item, UserItem)]
    start = starts[-turns] if len(starts) >= turns else 0
    start = max(start, len(items) - PREVIEW_MAX_ITEMS)
    log = Log(None)
    for item in items[start:]:
        log.items.append(item)
    return Preview(log)


class _Stopped(Exception):
    """The preview is not wanted any more (the cursor moved on)."""


def _checked(records: Iterable[Mapping[str, Any]], should_stop: Callable[[], bool]) -> Iterator[Mapping[str, Any]]:
    for count, record in enumerate(records):
        if count % 64 == 0 and should_stop():
            raise _Stopped
        yield record


def _may_be_prompt(record: Mapping[str, Any]) -> bool:
    """A user record that can become a prompt in the log (text, not a tool result or a meta record)."""
    message = record.get("message")
    if record.get("type") != "user" or record.get("isMeta") or not isinstance(message, dict):
        return False
    content = message.get("content")
    if isinstance(content, str):
        return True
    blocks = [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []
    return any(b.get("type") == "text" for b in blocks) and not any(b.get("type") == "tool_result" for b in blocks)


_TOOL_USES = ("tool_use", "server_tool_use", "mcp_tool_use")


def _tool_ids(records: Iterable[Mapping[str, Any]]) -> tuple[set[str], set[str]]:
    """The ids of the tool calls made in `records`, and of the tool results they hold."""
    used: set[str] = set()
    answered: set[str] = set()
    for record in records:
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else ():
            if not isinstance(block, dict):
                continue
            if block.get("type") in _TOOL_USES and isinstance(block.get("id"), str):
                used.add(block["id"])
            elif block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
                answered.add(block["tool_use_id"])
    return used, answered


def tail_start(records: list[Mapping[str, Any]], turns: int = PREVIEW_TURNS) -> int:
    """Where to start replaying so the last `turns` prompts come out as a full replay shows them.

    A turn's records only refer to its own tool calls, so replaying from a prompt gives the
    same items from there on. Two spare prompts allow for candidates that turn out not to be
    prompts (local command output, task notices); :func:`load_session_preview` checks the outcome and
    replays everything when the tail was not enough.
    """
    seen = 0
    for index in range(len(records) - 1, -1, -1):
        if _may_be_prompt(records[index]):
            seen += 1
            if seen == turns + 2:
                return index
    return 0


def load_session_preview(path: str, should_stop: Callable[[], bool] | None = None) -> Preview | None:
    """The preview of one transcript (None if cancelled before it was ready).

    Only the newest turns are replayed: the preview shows three turns, and turning a long
    session's whole history into items to show them would cost the whole history's time.
    """
    transcript = load_transcript(path, with_subagent_files=False)
    stop = should_stop or (lambda: False)
    if stop():
        return None
    records = visible_records(transcript.records)
    start = tail_start(records)
    try:
        if start > 0:
            tail = records[start:]
            used, answered = _tool_ids(tail)
            if answered <= used:  # no result of a call made before the tail
                conversation = replay(_checked(tail, stop), None, session_id=transcript.session_id)
                if sum(isinstance(item, UserItem) for item in conversation.main.items) >= PREVIEW_TURNS:
                    note_other_branches(conversation, transcript.other_branches)
                    return preview_of(conversation)
        conversation = replay(_checked(records, stop), None, session_id=transcript.session_id)
        note_other_branches(conversation, transcript.other_branches)
        return preview_of(conversation)
    except _Stopped:
        return None


def header_text(row: SessionRow, now: float) -> Text:
    text = Text(one_line(row.display_title) or "(no prompt)", style="bold", no_wrap=True, overflow="ellipsis")
    if row.name and row.title and row.name != row.title:
        text.append("  " + one_line(row.title), style="dim italic")
    details = [row.session_id[:8], one_line(row.cwd) or one_line(row.project)]
    if row.forked_from:
        details.insert(1, f"fork of {row.forked_from[:8]}")
    details += [one_line(x) for x in (row.git_branch, row.model) if x]
    if row.cost_usd is not None:
        details.append(units.cost(row.cost_usd))
    if row.message_count is not None:
        details.append(f"{row.message_count:,} messages")
    if row.created:
        details.append(f"started {units.ago(row.created, now)}")
    if row.entrypoint:
        details.append(one_line(row.entrypoint))
    text.append("\n")
    text.append(" · ".join(d for d in details if d), style="dim")
    return text


class SessionPreview(Vertical):
    """Header, search matches (in search mode) and the newest turns of the highlighted session."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"session-preview--match"}

    def compose(self) -> ComposeResult:
        yield Static(id="preview-header", markup=False)
        yield Static(id="preview-matches", markup=False)
        yield Static(id="preview-message", markup=False)
        yield Vertical(id="preview-holder")

    def on_mount(self) -> None:
        self.query_one("#preview-matches").display = False
        self.show_message("")

    def show_row(self, row: SessionRow | None, now: float, hits: list[SearchHit] | None) -> None:
        """Header and matches now; the turns follow when :meth:`show_preview` gets them."""
        header = self.query_one("#preview-header", Static)
        header.update(header_text(row, now) if row is not None else "")
        header.display = row is not None
        matches = self.query_one("#preview-matches", Static)
        matches.display = bool(hits)
        if hits:
            style: Style = self.get_component_rich_style("session-preview--match", partial=True)
            lines = Text("\n").join(snippet_text(hit, style, kind=True) for hit in hits)
            matches.update(lines)
        self.set_class(True, "-stale")

    def refresh_header(self, row: SessionRow, now: float) -> None:
        """The header again, for facts learnt later (the message count, once indexed); turns untouched."""
        self.query_one("#preview-header", Static).update(header_text(row, now))

    def show_message(self, message: str) -> None:
        widget = self.query_one("#preview-message", Static)
        widget.update(Text(message, style="dim italic"))
        widget.display = bool(message)

    async def show_preview(self, preview: Preview | None, error: str = "") -> None:
        holder = self.query_one("#preview-holder", Vertical)
        await holder.remove_children()
        self.set_class(False, "-stale")
        if preview is None:
            self.show_message(error)
            return
        if not preview.log.items:
            self.show_message("This session has no messages to show.")
            return
        self.show_message("")
        log = ChatLog(preview.log, max_mounted=PREVIEW_MAX_ITEMS, id="preview-log")
        await holder.mount(log)
        # The chat anchors to its bottom edge; a preview reads top-down, ending at the newest turn.
        log.anchor(False)
        log.call_after_refresh(log.scroll_end, animate=False, immediate=True)

    async def show_nothing(self, message: str = "") -> None:
        self.show_row(None, 0.0, None)
        await self.show_preview(None, message)


def rename_prompt(current: str, title: str) -> TextPrompt:
    """Name a session (our own store): dismisses with the name ("" removes it), or None when cancelled."""
    return TextPrompt("Rename session", value=current, note=title, enter="Save",
                      placeholder="A name for this session (empty: remove the name)", id="rename-session")
