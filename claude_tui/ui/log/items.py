"""Widgets for user prompts, assistant text, thinking and notes.

All text here is untrusted: it goes through `printable()` and into `Text`
objects or SafeMarkdown (which parses Markdown, never Rich markup, and decodes no
character references).
"""

from __future__ import annotations

import re

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content, Span
from textual.widgets import Static

from claude_tui.protocol.sanitize import printable
from claude_tui.session.items import NoteItem, NoteKind, ThinkingItem, UserItem
from claude_tui.session.shown import shown


class UserPrompt(Static):
    """What the user sent (marked while the CLI still holds it in its queue)."""

    DEFAULT_CSS = """
    UserPrompt {
        margin: 1 0 0 0;
        padding: 0 1;
        background: $boost;
        border-left: outer $primary;

        &.-queued {
            border-left: outer $warning;
            color: $text-muted;
        }
    }
    """

    def __init__(self, item: UserItem) -> None:
        super().__init__(classes="user-prompt")
        self.item = item
        self.opened = False
        """A prompt with a large paste shows its placeholder until clicked (then the whole paste)."""

    def on_mount(self) -> None:
        self.refresh_from(self.item)

    def on_click(self) -> None:
        if self.item.shown is not None:
            self.opened = not self.opened
            self.refresh_from(self.item)

    def refresh_from(self, item: UserItem) -> None:
        text = Text("❯ ", style="bold")
        text.append(printable(shown(item.text if self.opened or item.shown is None else item.shown)))
        if item.shown is not None:
            text.append("  (click to close)" if self.opened else "  (click to open the paste)", style="dim")
        if item.image_count:
            text.append(f"  [{item.image_count} image{'s' if item.image_count > 1 else ''}]", style="dim")
        if item.queued:
            text.append("  (queued)", style="italic dim")
        self.set_class(item.queued, "-queued")
        self.update(text)


class ThinkingBlock(Vertical):
    """Collapsed by default; streams live into its body while open."""

    DEFAULT_CSS = """
    ThinkingBlock {
        height: auto;
        margin: 0 0 0 1;
        color: $text-muted;

        .thinking-title {
            color: $text-muted;
        }
        .thinking-body {
            padding: 0 0 0 2;
            border-left: vkey $secondary 50%;
            color: $text-muted;
        }
    }
    """

    def __init__(self, item: ThinkingItem, expanded: bool = False) -> None:
        super().__init__(classes="thinking")
        self.item = item
        self.expanded = expanded
        # Children exist from the start so updates can arrive before mounting.
        self._title_widget = Static(self._title(), classes="thinking-title")
        self._body_widget = Static(self._body(), classes="thinking-body")
        self._body_widget.display = expanded

    def compose(self) -> ComposeResult:
        yield self._title_widget
        yield self._body_widget

    def _title(self) -> Text:
        arrow = "▼" if self.expanded else "▶"
        if self.item.redacted:
            return Text(f"{arrow} Thinking (redacted by the API)", style="italic")
        label = "Thinking…" if self.item.streaming else "Thought"
        words = len(self.item.text.split())
        suffix = f"  {words} words" if words else ""
        return Text.assemble((f"{arrow} {label}", "italic"), ("  " + suffix.strip() if suffix else "", "dim"))

    def _body(self) -> Text:
        if self.item.redacted:
            return Text("The model's reasoning was redacted and cannot be shown.", style="dim italic")
        return Text(printable(shown(self.item.text)), style="italic")

    def toggle(self) -> None:
        self.set_expanded(not self.expanded)

    def set_expanded(self, expanded: bool) -> None:
        self.expanded = expanded
        self.set_class(self.expanded, "-expanded")
        self._body_widget.display = self.expanded
        self._redraw()

    def on_click(self) -> None:
        self.toggle()

    def _redraw(self) -> None:
        self._title_widget.update(self._title())
        if self.expanded:
            self._body_widget.update(self._body())

    def append_text(self, text: str) -> None:
        # Collapsed thinking costs nothing per delta. Open, the body is redrawn once the deltas
        # already queued are taken (at most once a frame, not once per token: a redraw re-renders
        # the whole text), without waiting for a timer.
        if self.expanded and not self._redraw_pending:
            self._redraw_pending = True
            self.call_after_refresh(self._timed_redraw)

    _redraw_pending = False

    def _timed_redraw(self) -> None:
        self._redraw_pending = False
        self._redraw()

    def refresh_from(self, item: ThinkingItem) -> None:
        self.item = item
        self._redraw()


_NOTE_ICONS = {
    NoteKind.INFO: "ℹ",
    NoteKind.LOCAL_COMMAND: "⌘",
    NoteKind.INTERRUPT: "■",
    NoteKind.COMPACT: "✂",
    NoteKind.ERROR: "✖",
    NoteKind.DECISION: "⚑",
}


def looks_like_markdown(text: str) -> bool:
    """/context writes Markdown (headings, tables); /cost writes aligned plain text."""
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("#", "|", "- ", "* ", "```")) or "**" in stripped:
            return True
    return False


_INLINE_CODE = re.compile(r"`([^`\n]+)`")
CODE_STYLE = "$text-warning on $warning 10%"
"""Inline code in command output, in the colours Markdown gives ``code`` in the chat."""


def with_inline_code(text: str) -> Content:
    """Plain text with each `code` span shown as code, backticks dropped (never markup, only backtick pairs)."""
    text = printable(text)
    plain: list[str] = []
    spans: list[Span] = []
    length = cursor = 0
    for match in _INLINE_CODE.finditer(text):
        before, code = text[cursor : match.start()], match.group(1)
        plain += [before, code]
        length += len(before)
        spans.append(Span(length, length + len(code), CODE_STYLE))
        length += len(code)
        cursor = match.end()
    plain.append(text[cursor:])
    return Content("".join(plain), spans, strip_control_codes=False).expand_tabs()


COMMAND_OUTPUT_RULES = """
        margin: 0 0 1 1;
        padding: 0 1;
        background: $boost;
        border-left: outer $secondary 60%;
        color: $text-muted;
"""
"""How a command's output is set apart, plain (below) or Markdown (`command_output.py`)."""


class PlainCommandOutput(Static):
    """Plain-text command output (e.g. /cost's aligned table, /model's "Set model to `…`").

    Kept as printed, except that `inline code` is shown as code instead of with backticks.
    """

    DEFAULT_CSS = f"PlainCommandOutput {{{COMMAND_OUTPUT_RULES}}}"

    def __init__(self, item: NoteItem) -> None:
        super().__init__(with_inline_code(shown(item.text)), classes="note note-local-command")
        self.item = item

    def refresh_from(self, item: NoteItem) -> None:
        self.item = item
        self.update(with_inline_code(shown(item.text)))


class NoteLine(Static):
    """System notes: local command output, interruptions, compaction, errors, decisions."""

    DEFAULT_CSS = """
    NoteLine {
        margin: 0 0 0 1;
        color: $text-muted;

        &.note-error {
            color: $text-error;
            border-left: outer $error;
            padding-left: 1;
        }
        &.note-compact {
            color: $text-accent;
            margin: 1 0;
        }
        &.note-interrupt {
            color: $text-warning;
        }
    }
    """

    def __init__(self, item: NoteItem) -> None:
        super().__init__(classes=f"note note-{item.kind.value}")
        self.item = item

    def on_mount(self) -> None:
        self.refresh_from(self.item)

    def refresh_from(self, item: NoteItem) -> None:
        if item.kind is NoteKind.COMPACT:
            self.update(Text(f"──── {printable(shown(item.text))} ────", justify="center"))
            return
        text = Text(f"{_NOTE_ICONS[item.kind]} ")
        if item.title:
            text.append(printable(item.title), style="bold")
            text.append(": ")
        text.append(printable(shown(item.text)))
        self.update(text)
