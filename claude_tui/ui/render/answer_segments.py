"""An answer's text cut into segments that are rendered, and cached, separately.

Where the cuts fall depends only on the text, never on how it arrived, so a streamed answer ends
segmented, and drawn, exactly as the finished message is; and a cut falls only where a render of
the whole text would start a new block, so the segments drawn one after the other look as the
whole message drawn at once (`AssistantText` adds the blank line between them as Rich would).
"""

from __future__ import annotations

import re

SEGMENT_CHARS = 1500
"""A segment is sealed at the first paragraph break after this many characters."""
LINE_CUT_CHARS = 6 * SEGMENT_CHARS
"""With no paragraph break, a segment is sealed at a line break after this many."""
HARD_CUT_CHARS = 16 * SEGMENT_CHARS
"""With no line break either (one giant line), it is cut here."""
_FENCES = ("```", "~~~")
_LIST_ITEM = re.compile(r"([-+*]|[0-9]{1,9}[.)])([ \t]|$)")


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


class Segmenter:
    """Cuts a growing text into segments; where it cuts depends only on the text, never on how
    it arrived (deltas of any size, or all at once), so a streamed answer ends segmented, and
    drawn, exactly as the finished message is.

    Only complete lines are looked at, each once. A segment is sealed before a line that starts a
    new block after a blank line (not indented, not a list item: those may continue the block
    above, a loose list or an item's second paragraph), at least `SEGMENT_CHARS // 2` characters
    in, outside a code fence; failing that, after the first line ending `LINE_CUT_CHARS` in,
    outside a fence; failing that, hard at `HARD_CUT_CHARS`.
    """

    __slots__ = ("sealed", "live", "_pos", "_fenced", "_after_blank")

    def __init__(self) -> None:
        self.sealed: list[str] = []
        self.live = ""
        self._pos = 0
        """Where the first line not yet looked at starts, in `live`."""
        self._fenced = False
        """Whether `live[:_pos]` leaves a code fence open."""
        self._after_blank = False
        """Whether the last line looked at was blank, outside a fence."""

    def feed(self, text: str) -> None:
        self.live += text
        while (cut := self._next_cut()) is not None:
            self.sealed.append(self.live[:cut])
            self.live, self._pos, self._fenced, self._after_blank = self.live[cut:], 0, False, False

    def _next_cut(self) -> int | None:
        live = self.live
        while (end := live.find("\n", self._pos)) >= 0:
            start, self._pos = self._pos, end + 1
            line = live[start:end]
            blank = not line.strip()
            if (self._after_blank and not blank and start > SEGMENT_CHARS // 2 and not self._fenced
                    and _starts_block(line)):
                return min(start, HARD_CUT_CHARS)  # this line starts the next segment
            self._after_blank = blank and not self._fenced
            if line.lstrip().startswith(_FENCES):
                self._fenced = not self._fenced
            if end >= LINE_CUT_CHARS and not self._fenced:
                return min(end + 1, HARD_CUT_CHARS)
        if len(live) >= HARD_CUT_CHARS:
            return HARD_CUT_CHARS
        return None


def _starts_block(line: str) -> bool:
    """A line after a blank one that cannot continue the block above it."""
    return not line.startswith((" ", "\t")) and _LIST_ITEM.match(line) is None


def segments_of(text: str) -> list[str]:
    """Split a complete text the way streaming does."""
    segmenter = Segmenter()
    segmenter.feed(text)
    return [*segmenter.sealed, segmenter.live]
