"""Assistant text as Markdown, streamed in bounded segments.

A single Markdown widget re-parses and re-mounts its tail on every append and
lays out all its blocks, so a long answer gets slower the longer it grows.
The text is therefore split into segments at paragraph breaks outside code
fences: only the last segment is live, earlier ones are finished documents.
Each append costs the same at the end of a 50 KB answer as at its start.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Markdown

from claude_tui.protocol.sanitize import printable
from claude_tui.session.items import TextItem

SEGMENT_CHARS = 1500
"""A segment is sealed at the first safe paragraph break after this many characters."""


def split_point(text: str, minimum: int = SEGMENT_CHARS) -> int | None:
    """Index just after a blank line past `minimum`, not inside a ``` fence; None if there is none."""
    if len(text) <= minimum:
        return None
    in_fence = False
    position = 0
    for line in text.splitlines(keepends=True):
        stripped = line.lstrip()
        if stripped.startswith("```") or stripped.startswith("~~~"):
            in_fence = not in_fence
        position += len(line)
        if position >= minimum and not in_fence and line.strip() == "" and position < len(text):
            return position
    return None


def segments_of(text: str) -> list[str]:
    parts = []
    while True:
        cut = split_point(text)
        if cut is None:
            parts.append(text)
            return parts
        parts.append(text[:cut])
        text = text[cut:]


class Segment(Markdown):
    """One part of an answer; `held` is text written but not yet applied."""

    def __init__(self, markdown: str) -> None:
        super().__init__(markdown, classes="assistant-segment")
        self.held = ""


class AssistantText(Vertical):
    def __init__(self, item: TextItem) -> None:
        super().__init__(classes="assistant-text")
        self.item = item
        self._shown = printable(item.text)
        self._segments: list[Segment] = [Segment(part) for part in segments_of(self._shown)]
        self._flush_scheduled = False
        self._live = ""
        """The text of the last (live) segment."""
        self._live = segments_of(self._shown)[-1]

    def compose(self) -> ComposeResult:
        yield from self._segments

    @property
    def source(self) -> str:
        """The text shown, as Markdown source."""
        return self._shown

    def rendered_source(self) -> str:
        """What the Markdown segments have actually taken in (lags `source` while deltas are held)."""
        if any(segment.held for segment in self._segments):
            return "\0"
        return "".join(segment.source for segment in self._segments)

    async def append_text(self, text: str) -> None:
        safe = printable(text)
        self._shown += safe
        cut = self._cut_in(safe)
        if cut is None:
            self._write(safe)
            return
        # Seal exactly at a paragraph break: the live segment already holds
        # everything before it, so sealing costs no re-parse.
        self._write(safe[:cut])
        fresh = Segment("")
        self._segments.append(fresh)
        self._live = ""
        await self.mount(fresh)
        self._write(safe[cut:])

    def _write(self, text: str) -> None:
        """Hold `text` for the live segment; one flush per screen refresh applies it.

        Coalescing here (not per delta) keeps a burst of tokens to one Markdown
        append per frame, and holding text until a segment is mounted avoids the
        Markdown widget resetting to its initial text while it mounts.
        """
        if not text:
            return
        self._live += text
        self._segments[-1].held += text
        self._schedule_flush()

    def _schedule_flush(self) -> None:
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self.call_after_refresh(self._flush)

    async def _flush(self) -> None:
        self._flush_scheduled = False
        for segment in self._segments:
            if not segment.held:
                continue
            if not segment.is_mounted:
                self._schedule_flush()
                return
            held, segment.held = segment.held, ""
            await segment.append(held)

    def _cut_in(self, text: str) -> int | None:
        """Where in `text` to seal the live segment (just after a blank line), if it is due."""
        if len(self._live) + len(text) < SEGMENT_CHARS or "\n\n" not in text:
            return None
        fences = sum(1 for line in self._live.splitlines() if line.lstrip().startswith(("```", "~~~")))
        index = text.find("\n\n")
        while index >= 0:
            before = text[:index]
            inside = (fences + sum(1 for line in before.splitlines() if line.lstrip().startswith(("```", "~~~")))) % 2
            if not inside and len(self._live) + index >= SEGMENT_CHARS // 2:
                return index + 2
            index = text.find("\n\n", index + 1)
        return None

    async def refresh_from(self, item: TextItem) -> None:
        self.item = item
        if item.streaming:
            return
        final = printable(item.text)
        # The complete `assistant` message is authoritative: rebuild only if it differs.
        if final == self._shown:
            return
        self._shown = final
        parts = segments_of(final)
        self._live = parts[-1]
        for segment in self._segments:
            segment.held = ""
        await self.remove_children()
        self._segments = [Segment(part) for part in parts]
        await self.mount_all(self._segments)
