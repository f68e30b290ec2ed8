"""An answer's sealed segments as lines at one width, some of them held back.

Sealed segments are rendered once per width and kept (see `assistant_text.py`). While a burst
streams into a log that follows its end, the segments it seals scroll up and out of the view within
a frame or two, and rendering them then made every frame of the burst longer (a long frame holds
back the reading of the CLI's next lines, and so the last token). Such a segment is *held back*: it
takes the rows its source is estimated to need (`HELD` rows) until it is rendered. This class keeps
the parts, the lines and the rows they start on; which segments are rendered when (the ones in view,
all of them once the reader leaves the end or selects) is the widget's decision, made with `newest`
and `held_after`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from textual.strip import Strip

from claude_tui.ui.render.markdown_part import MarkdownPart

HELD = Strip([])
"""A row of a held-back segment (not drawn as such: see `SealedLines.row`)."""


def estimate(source: str, width: int) -> int:
    """About how many rows `source` takes at `width`, with the blank line before it (a fence's own
    lines take none: Rich draws the code alone)."""
    columns, rows = max(1, width - 2), 1
    for line in source.split("\n"):
        if not line.lstrip().startswith(("```", "~~~")):
            rows += len(line) // columns + 1
    return rows


def joined(part: MarkdownPart, after_rule: bool | None) -> list[Strip]:
    """A segment's lines, with the blank line a render of the whole text puts before them
    (`after_rule`: whether the text before ends with a rule; None: nothing is before)."""
    if not part.lines or after_rule is None:
        return part.lines
    blank = part.blank_before if part.blank_before is not None else not after_rule
    return [Strip([]), *part.lines] if blank else part.lines


class SealedLines:
    """The sealed segments of one answer at `width`: rendered parts or held-back ones, and their lines."""

    def __init__(self, sources: list[str], width: int, render: Callable[[str, int], MarkdownPart],
                 previewed: Callable[[], None]) -> None:
        self._sources = sources
        """The sealed segments' Markdown (the segmenter's own list: it grows as segments are sealed)."""
        self.width = width
        self._render = render
        self._previewed = previewed
        """Called when a paint rendered a held-back segment (its height may differ from the estimate)."""
        self.parts: list[MarkdownPart | None] = []
        """Each sealed segment rendered at `width`; None: held back (rows estimated)."""
        self.held = 0
        """How many of `parts` are held back."""
        self._previews: dict[int, MarkdownPart] = {}
        """Held-back segments rendered because a frame painted their rows before a layout could
        place them (a scroll away from the end races the layout it asks for); placed by the next."""
        self.lines: list[Strip] = []
        self.starts: list[int] = []
        """Where each segment's lines start in `lines`."""
        self._rule_before: list[bool | None] = []
        """For each segment, whether the text before it ends with a rule (None: no text before)."""
        self.after_rule: bool | None = None
        """Whether the sealed text ends with a rule (None: nothing drawn), for the live segment after it."""

    def take_new(self) -> int:
        """Hold back the segments sealed since the last call; return how many were known before."""
        known = len(self.parts)
        if known < len(self._sources):
            self.held += len(self._sources) - known
            self.parts.extend([None] * (len(self._sources) - known))
        return known

    def held_indexes(self) -> list[int]:
        return [index for index, part in enumerate(self.parts) if part is None]

    def render(self, indexes: list[int]) -> int:
        """Render held-back segments `indexes`; return the first (`len(parts)` for none), where `build` starts."""
        for index in indexes:
            part = self._previews.pop(index, None)
            self.parts[index] = part if part is not None else self._render(self._sources[index], self.width)
            self.held -= 1
        return min(indexes, default=len(self.parts))

    def newest(self, rows: int) -> list[int]:
        """The held-back segments among the newest ones that fill `rows` rows (the bottom of a view)."""
        wanted = []
        for index in range(len(self.parts) - 1, -1, -1):
            if rows <= 0:
                break
            part = self.parts[index]
            if part is None:
                wanted.append(index)
            rows -= estimate(self._sources[index], self.width) if part is None else len(part.lines) + 1
        return wanted

    def held_after(self, row: int) -> list[int]:
        """The held-back segments that reach below `row`, as last built."""
        return [index for index, part in enumerate(self.parts) if part is None and self.end_of(index) > row]

    def build(self, start: int) -> None:
        """Lay out the segments' lines from segment `start` on."""
        start = min(start, len(self._rule_before))
        del self.lines[self.end_of(start - 1) if start else 0:]
        del self.starts[start:]
        del self._rule_before[start:]
        after_rule = self._rule_before[start - 1] if start else None
        if start:
            previous = self.parts[start - 1]
            if previous is None:
                after_rule = False  # held back: a block, most likely not a rule
            elif previous.lines:
                after_rule = previous.ends_with_rule
        for index in range(start, len(self.parts)):
            part = self.parts[index]
            self.starts.append(len(self.lines))
            self._rule_before.append(after_rule)
            if part is None:
                self.lines.extend([HELD] * estimate(self._sources[index], self.width))
                after_rule = False
            else:
                self.lines.extend(joined(part, after_rule))
                if part.lines:
                    after_rule = part.ends_with_rule
        self.after_rule = after_rule

    def end_of(self, index: int) -> int:
        """The row after segment `index`'s last."""
        return self.starts[index + 1] if index + 1 < len(self.starts) else len(self.lines)

    def drawn(self, index: int) -> list[Strip]:
        """Segment `index`'s lines as drawn (a held-back one's from its preview)."""
        part = self.parts[index]
        if part is None:
            part = self._previews.get(index)
            if part is None:
                part = self._previews[index] = self._render(self._sources[index], self.width)
                self._previewed()
        return joined(part, self._rule_before[index])

    def row(self, y: int, live: list[Strip]) -> Strip:
        """Row `y` of a held-back segment, asked by a paint before the layout that renders it. The
        segment is rendered now and drawn from its first estimated row on, running into the segments
        after it (and the `live` lines), so that the frame shows text (perhaps a few rows off) rather
        than blank rows until the layout places it exactly."""
        index = bisect_right(self.starts, y) - 1
        offset = y - self.starts[index]
        while index < len(self.parts):
            lines = self.drawn(index)
            if offset < len(lines):
                return lines[offset]
            offset -= len(lines)
            index += 1
        return live[offset] if offset < len(live) else Strip([])
