"""Assistant text as Markdown: one widget per answer, drawn from cached lines.

Re-rendering a whole answer per frame gets slower the longer it grows, and
Textual's `Markdown` widget (one widget per block, each styled and laid out on
every frame) made a 2,000-token answer hundreds of widgets. So the text is split
into segments: only the last segment is live and re-rendered (at most once a
frame, when Textual asks for it); earlier ones are sealed and rendered to lines
once per width (`markdown_lines.render_part`). The answer is a single widget
handing out those lines, whatever its length. Segments (`answer_segments.py`)
end where a new block starts after a blank line, outside a code fence; text with
no such place is cut at a line break, and a single giant line is cut hard; the
blank line between two segments is the one a render of the whole text would
have. Beyond `MAX_SHOWN` characters the rest is
summarised, not rendered (the item keeps the whole text for copy and export).

Appending never mounts nor awaits: the text is stored and the widget marked for
a layout, so a burst of deltas costs one render of the live segment per frame,
and the first text is painted on the next frame.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.selection import Selection
from textual.strip import Strip
from textual.widget import Widget

from claude_tui.protocol.sanitize import printable
from claude_tui.session.items import TextItem
from claude_tui.ui.widgets.answer_segments import Segmenter, TextBuffer
from claude_tui.ui.widgets.markdown_lines import LinkTable, MarkdownPart, render_part
from claude_tui.ui.widgets.safe_markdown import ask_to_open

MAX_SHOWN = 256 * 1024
"""Characters of one answer rendered; the rest is counted, not laid out."""


class TextPlace(NamedTuple):
    """A place in an answer that does not depend on the width it is drawn at."""

    segment: int
    word: str
    """The first word on the row (or on the next row that has words)..."""
    occurrence: int
    """...and which occurrence of it in the segment, counting from 1."""
    rows_before: int
    """How many rows before that word's row the place is (blank rows above it)."""
    share: float
    """How far into the segment, if the word is not found again."""


class AssistantText(Widget):
    """An answer (streaming or finished), as Markdown lines."""

    DEFAULT_CSS = """
    AssistantText {
        height: auto;
        margin: 0 0 0 1;
    }
    """

    def __init__(self, item: TextItem) -> None:
        super().__init__(classes="assistant-text")
        self.item = item
        self._shown = TextBuffer()
        self._hidden = 0
        """Characters beyond MAX_SHOWN, counted but not rendered."""
        self._links = LinkTable()
        self._layout_asked = False
        """A layout is pending: more deltas before it need not ask again (refresh costs per call)."""
        self._set_text(self._cap(printable(item.text)))

    def _set_text(self, visible: str) -> None:
        self._segments = Segmenter()
        """Sealed segments and the live one (the last, still growing)."""
        self._segments.feed(visible)
        self._width = -1
        """The width the sealed lines were rendered at."""
        self._sealed_lines: list[Strip] = []
        self._sealed_done = 0
        """How many sealed segments `_sealed_lines` holds."""
        self._after_rule: bool | None = None
        """Whether the last sealed segment drawn ends with a rule (None: none drawn yet)."""
        self._sealed_starts: list[int] = []
        """Where each sealed segment's lines start in `_sealed_lines`."""
        self._live_lines: list[Strip] = []
        self._live_key: tuple[int, int, int] = (-1, -1, -1)
        """(width, sealed segments, length of the live text) `_live_lines` were rendered for."""
        self._more_lines: list[Strip] = []
        self._more_key: tuple[int, int] = (-1, 0)

    def _cap(self, text: str) -> str:
        """Record `text` as shown, up to MAX_SHOWN; return the part that may be rendered."""
        room = max(0, MAX_SHOWN - len(self._shown))
        visible, rest = text[:room], text[room:]
        self._shown.append(visible)
        self._hidden += len(rest)
        return visible

    @property
    def sealed_count(self) -> int:
        """How many segments are sealed (rendered once, kept)."""
        return len(self._segments.sealed)

    @property
    def source(self) -> str:
        """The Markdown source rendered (at most MAX_SHOWN characters)."""
        return str(self._shown)

    def append_text(self, text: str) -> None:
        # What is sealed is rendered once (per width) and kept; only the live segment changes.
        self._segments.feed(self._cap(printable(text)))
        # Only marked here: Textual renders (below) once per frame, however many deltas came.
        if not self._layout_asked:
            self._layout_asked = True
            self.refresh(layout=True)

    def refresh_from(self, item: TextItem) -> None:
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
        self._set_text(self._cap(final))
        self.refresh(layout=True)

    # -- drawing --------------------------------------------------------------------------
    def _render_segment(self, source: str, width: int) -> MarkdownPart:
        base = self.rich_style if self.is_mounted else Style()
        return render_part(source, width, self.app.console, self.app.console_options, base, self._links,
                           dark=self.app.current_theme.dark)

    @staticmethod
    def _joined(part: MarkdownPart, after_rule: bool | None) -> list[Strip]:
        """A segment's lines, with the blank line a render of the whole text puts before them
        (`after_rule`: whether the text before ends with a rule; None: nothing is before)."""
        if not part.lines or after_rule is None:
            return part.lines
        blank = part.blank_before if part.blank_before is not None else not after_rule
        return [Strip([]), *part.lines] if blank else part.lines

    def _lines(self, width: int) -> tuple[list[Strip], list[Strip], list[Strip]]:
        """(sealed lines, live lines, the "more characters" line) at `width`, rendering what is not cached."""
        self._layout_asked = False
        if width != self._width:
            self._width, self._sealed_lines, self._sealed_done, self._after_rule = width, [], 0, None
            self._sealed_starts = []
        sealed, live = self._segments.sealed, self._segments.live
        while self._sealed_done < len(sealed):
            part = self._render_segment(sealed[self._sealed_done], width)
            self._sealed_starts.append(len(self._sealed_lines))
            self._sealed_lines.extend(self._joined(part, self._after_rule))
            if part.lines:
                self._after_rule = part.ends_with_rule
            self._sealed_done += 1
        key = (width, len(sealed), len(live))
        if key != self._live_key:
            self._live_key, self._live_lines = key, self._joined(self._render_segment(live, width), self._after_rule)
        if self._more_key != (width, self._hidden):
            self._more_key, self._more_lines = (width, self._hidden), []
            if self._hidden:
                note = Text(f"… {self._hidden:,} more characters not shown "
                            "(copy or export the answer to read them all)", style="italic dim")
                self._more_lines = [Strip(line) for line in self.app.console.render_lines(
                    note, self.app.console_options.update_width(max(1, width)), pad=False)]
        return self._sealed_lines, self._live_lines, self._more_lines

    # -- keeping the reader's place when the width changes (see log_window.KeepsPlaceOnResize) --------
    def _segment_rows(self) -> list[tuple[int, int]]:
        """(first row, end row) of each segment at the width last drawn."""
        sealed, live, _more = self._lines(self._width)
        starts = [*self._sealed_starts, len(sealed)]
        return list(zip(starts, [*starts[1:], len(sealed) + len(live)]))

    def place_at(self, row: int) -> TextPlace | None:
        """Where the text shown on `row` is, in terms that survive rewrapping: its segment, and the
        first word on that row (or the next row with words) counted from the segment's start."""
        if self._width < 0:
            return None
        segments = self._segment_rows()
        lines = self._all_lines()
        for index, (start, end) in enumerate(segments):
            if start <= row < end:
                seen: dict[str, int] = {}
                for at in range(start, end):
                    words = lines[at].text.split()
                    if at >= row and words:
                        return TextPlace(index, words[0], seen.get(words[0], 0) + 1, at - row,
                                         (row - start) / (end - start))
                    for word in words:
                        seen[word] = seen.get(word, 0) + 1
                return TextPlace(index, "", 0, 0, (row - start) / (end - start))
        return None

    def row_of(self, place: object) -> int | None:
        """The row showing `place` now (after a new width), or None."""
        if not isinstance(place, TextPlace) or self._width < 0:
            return None
        segments = self._segment_rows()
        if place.segment >= len(segments):
            return None
        start, end = segments[place.segment]
        lines = self._all_lines()
        count = 0
        for at in range(start, end):
            # Rewrapping keeps the order of the words: the same occurrence of the same word.
            count += lines[at].text.split().count(place.word) if place.word else 0
            if place.word and count >= place.occurrence:
                return max(start, at - place.rows_before)
        return start + round(place.share * (end - start))

    def _all_lines(self) -> list[Strip]:
        sealed, live, _more = self._lines(self._width)
        return [*sealed, *live]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        sealed, live, more = self._lines(width)
        return len(sealed) + len(live) + len(more)

    def render_line(self, y: int) -> Strip:
        strip = self._line(y)
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(y)) is not None:
            # Mouse selection, as Textual's Log draws it: the selected columns in the selection style.
            start, end = span
            end = strip.cell_length if end == -1 else end
            marked = self.screen.get_component_rich_style("screen--selection")
            middle = Strip([Segment(text, (style or Style()) + marked, control)
                            for text, style, control in strip.crop(start, end)])
            strip = Strip.join([strip.crop(0, start), middle, strip.crop(end, strip.cell_length)])
        return strip.apply_offsets(0, y)  # where each cell is, for selecting with the mouse

    def _line(self, y: int) -> Strip:
        sealed, live, more = self._lines(self.size.width)
        for lines in (sealed, live, more):
            if y < len(lines):
                return lines[y]
            y -= len(lines)
        return Strip.blank(self.size.width)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The text selected with the mouse, as shown (wrapped lines, rendered Markdown)."""
        sealed, live, more = self._lines(self.size.width)
        text = "\n".join(strip.text.rstrip() for lines in (sealed, live, more) for strip in lines)
        return selection.extract(text), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self.refresh(layout=True)

    def _watch_theme(self) -> None:
        self._width = -1  # code blocks are highlighted for a dark or a light background
        self._live_key = (-1, -1, -1)
        self.refresh(layout=True)

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._watch_theme, init=False)

    def on_unmount(self) -> None:
        # Dropped from the log's window: a removed widget can wait in a reference cycle until a
        # full collection, and its rendered lines are most of its memory.
        self._width, self._sealed_lines, self._sealed_done, self._after_rule = -1, [], 0, None
        self._sealed_starts = []
        self._live_key, self._live_lines = (-1, -1, -1), []

    def action_open_link(self, number: int) -> None:
        """A click on a link: the address is shown and asked about, never opened at once."""
        if 0 <= number < len(self._links.hrefs):
            ask_to_open(self, self._links.hrefs[number])
