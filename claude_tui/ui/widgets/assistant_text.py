"""Assistant text as Markdown, streamed in bounded segments.

A single Markdown widget re-parses and re-mounts its tail on every append and
lays out all its blocks, so a long answer gets slower the longer it grows.
The text is therefore split into segments: only the last segment is live,
earlier ones are finished documents, and each append costs the same at the end
of a long answer as at its start. Segments end at a paragraph break outside a
code fence; text with no such break is cut at a line break, and a single giant
line is cut hard. Beyond `MAX_SHOWN` characters the rest is summarised, not
rendered (the item keeps the whole text for copy and export).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from claude_tui.protocol.sanitize import printable
from claude_tui.session.items import TextItem
from claude_tui.ui.widgets.safe_markdown import SafeMarkdown

SEGMENT_CHARS = 1500
"""A segment is sealed at the first paragraph break after this many characters."""
LINE_CUT_CHARS = 6 * SEGMENT_CHARS
"""With no paragraph break, a segment is sealed at a line break after this many."""
HARD_CUT_CHARS = 16 * SEGMENT_CHARS
"""With no line break either (one giant line), it is cut here."""
MAX_SHOWN = 256 * 1024
"""Characters of one answer rendered; the rest is counted, not laid out."""
FLUSH_SECONDS = 0.08
"""How often held stream text is applied to the Markdown."""

_FENCES = ("```", "~~~")


class TextBuffer:
    """A string that grows by appends: O(1) per append, joined once when read.

    `text += delta` on an attribute copies the whole text per delta, which makes a
    long stream quadratic.
    """

    __slots__ = ("_parts", "_length")

    def __init__(self, text: str = "") -> None:
        self._parts = [text] if text else []
        self._length = len(text)

    def append(self, text: str) -> None:
        if text:
            self._parts.append(text)
            self._length += len(text)

    def __len__(self) -> int:
        return self._length

    def __str__(self) -> str:
        if len(self._parts) > 1:
            self._parts[:] = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""


def _fence_open(text: str) -> bool:
    return sum(1 for line in text.splitlines() if line.lstrip().startswith(_FENCES)) % 2 == 1


def cut_in(live: str | TextBuffer, incoming: str) -> int | None:
    """Where in `incoming` to seal the live segment (an index into `incoming`), if it is due.

    `live` is only turned into a string in the branches that read it (a paragraph or
    line break arrives in a long segment), not for every delta.
    """
    size = len(live) + len(incoming)
    if size < SEGMENT_CHARS // 2:
        return None
    if "\n\n" in incoming:
        fenced = _fence_open(str(live))
        index = incoming.find("\n\n")
        while index >= 0:
            if len(live) + index >= SEGMENT_CHARS // 2 and \
                    not (fenced ^ _fence_open(incoming[:index])) and size >= SEGMENT_CHARS:
                return index + 2
            index = incoming.find("\n\n", index + 1)
    if size >= LINE_CUT_CHARS and "\n" in incoming and not _fence_open(str(live) + incoming[:incoming.rfind("\n")]):
        return incoming.rfind("\n") + 1
    if size >= HARD_CUT_CHARS:
        return max(1, HARD_CUT_CHARS - len(live))
    return None


def segments_of(text: str) -> list[str]:
    """Split a complete text the way streaming would have."""
    parts: list[str] = []
    live = ""
    while text:
        cut = cut_in(live, text)
        if cut is None or cut >= len(text):
            live += text
            break
        parts.append(live + text[:cut])
        live, text = "", text[cut:]
    parts.append(live)
    return parts


class Segment(SafeMarkdown):
    """One part of an answer; `held` is text written but not yet applied."""

    def __init__(self, markdown: str) -> None:
        super().__init__(markdown, classes="assistant-segment")
        self.held = ""


class AssistantText(Vertical):
    def __init__(self, item: TextItem) -> None:
        super().__init__(classes="assistant-text")
        self.item = item
        self._shown = TextBuffer()
        self._hidden = 0
        """Characters beyond MAX_SHOWN, counted but not rendered."""
        self._hidden_told = 0
        """`_hidden` as the "more characters" line last said it."""
        self._flush_scheduled = False
        self._more = Static(classes="assistant-more")
        self._more.display = False
        visible = self._cap(printable(item.text))
        self._tell_hidden()
        parts = segments_of(visible)
        self._segments: list[Segment] = [Segment(part) for part in parts]
        self._live = TextBuffer(parts[-1])
        """The text of the last (live) segment."""

    def compose(self) -> ComposeResult:
        yield from self._segments
        yield self._more

    def _cap(self, text: str) -> str:
        """Record `text` as shown, up to MAX_SHOWN; return the part that may be rendered."""
        room = max(0, MAX_SHOWN - len(self._shown))
        visible, rest = text[:room], text[room:]
        self._shown.append(visible)
        self._hidden += len(rest)
        return visible

    def _tell_hidden(self) -> None:
        """Show the count of characters not rendered (with the flush while streaming, not per delta)."""
        if self._hidden != self._hidden_told:
            self._hidden_told = self._hidden
            self._more.display = self._hidden > 0
            self._more.update(Text(f"… {self._hidden:,} more characters not shown "
                                   "(copy or export the answer to read them all)", style="italic dim"))

    @property
    def source(self) -> str:
        """The Markdown source rendered (at most MAX_SHOWN characters)."""
        return str(self._shown)

    def rendered_source(self) -> str:
        """What the Markdown segments have actually taken in (lags `source` while deltas are held)."""
        if any(segment.held for segment in self._segments):
            return "\0"
        return "".join(segment.source for segment in self._segments)

    async def append_text(self, text: str) -> None:
        hidden = self._hidden
        safe = self._cap(printable(text))
        if self._hidden != hidden:
            self._schedule_flush()  # which updates the "more characters" line
        if self._more.parent is None:
            # Not composed yet: nothing to mount beside; the segment is split on the final refresh.
            self._write(safe)
            return
        while safe:
            cut = cut_in(self._live, safe)
            if cut is None or cut >= len(safe):
                self._write(safe)
                return
            # Seal at the cut: the live segment already holds everything before it,
            # so sealing costs no re-parse.
            self._write(safe[:cut])
            fresh = Segment("")
            self._segments.append(fresh)
            self._live = TextBuffer()
            await self.mount(fresh, before=self._more)
            safe = safe[cut:]

    def _write(self, text: str) -> None:
        """Hold `text` for the live segment; one flush per screen refresh applies it.

        Coalescing here (not per delta) keeps a burst of tokens to one Markdown
        append per frame, and holding text until a segment is mounted avoids the
        Markdown widget resetting to its initial text while it mounts.
        """
        if not text:
            return
        self._live.append(text)
        self._segments[-1].held += text
        self._schedule_flush()

    def _schedule_flush(self) -> None:
        # At most one Markdown append per FLUSH_SECONDS: each append re-lays out the
        # screen, so fewer, larger appends keep the event loop responsive while a
        # fast stream arrives (and the text still appears ~12 times a second).
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self.set_timer(FLUSH_SECONDS, self._flush)

    async def _flush(self) -> None:
        self._flush_scheduled = False
        self._tell_hidden()
        for segment in self._segments:
            if not segment.held:
                continue
            if not segment.is_mounted:
                self._schedule_flush()
                return
            held, segment.held = segment.held, ""
            await segment.append(held)

    async def refresh_from(self, item: TextItem) -> None:
        self.item = item
        if item.streaming:
            return
        final = printable(item.text)
        # The complete `assistant` message is authoritative: rebuild only if it differs.
        shown = str(self._shown)
        if final == shown and not self._hidden:
            return
        if final[:MAX_SHOWN] == shown and len(final) - MAX_SHOWN == self._hidden:
            return
        self._shown, self._hidden = TextBuffer(), 0
        parts = segments_of(self._cap(final))
        self._tell_hidden()
        self._live = TextBuffer(parts[-1])
        for segment in self._segments:
            segment.held = ""
        if self._more.parent is None:
            # Not composed yet: compose will yield the new segments.
            self._segments = [Segment(part) for part in parts]
            return
        await self.remove_children(self._segments)
        self._segments = [Segment(part) for part in parts]
        await self.mount_all(self._segments, before=self._more)
