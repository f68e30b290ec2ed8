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

import time
from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.selection import Selection
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from claude_tui.protocol.sanitize import printable
from claude_tui.session.items import TextItem
from claude_tui.ui.kit.styled_rows import StyledRows
from claude_tui.ui.log.log_window import PlaceKeepingScroll
from claude_tui.ui.render.answer_lines import HELD, SealedLines, estimate, joined
from claude_tui.ui.render.answer_segments import Segmenter, TextBuffer
from claude_tui.ui.render.markdown_part import LinkTable, MarkdownPart

MAX_SHOWN = 256 * 1024
"""Characters of one answer rendered; the rest is counted, not laid out."""
STREAM_GAP = 1 / 30
"""Seconds at least between two layouts of an answer while it streams. Each is a frame of the whole
log (its layout, and the compositor redrawing every row the log scrolled), and at Textual's 60 a
second a 0.1 s burst paid 6-7 of them; the first delta and the end of the answer are drawn at once."""


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
        self._laid_out = 0.0
        """When the last layout rendered the answer (`time.monotonic`), for `STREAM_GAP`."""
        self._paced: Timer | None = None
        """The layout put off to `STREAM_GAP` after the last one (None: none waits)."""
        self._styled = StyledRows()
        """The rows painted, styled, while they stay the same (a growing answer changes size every frame,
        and Textual then styles every row again)."""
        self._streamed = item.streaming
        """Whether the text came in deltas (a resumed answer, drawn whole, holds nothing back)."""
        self._set_text(self._cap(printable(item.text)))

    def _set_text(self, visible: str) -> None:
        self._segments = Segmenter()
        """Sealed segments and the live one (the last, still growing)."""
        self._segments.feed(visible)
        self._reset_sealed(-1)
        self._live_lines: list[Strip] = []
        self._more_lines: list[Strip] = []
        self._more_key: tuple[int, int] = (-1, 0)

    def _reset_sealed(self, width: int) -> None:
        self._sealed = SealedLines(self._segments.sealed, width, self._render_segment, self._previewed)
        """The sealed segments' lines at the width they were rendered at."""
        self._live_key: tuple[int, int, int, bool | None] = (-1, -1, -1, None)
        """(width, sealed segments, length of the live text, the sealed text's `after_rule`) `_live_lines`
        were rendered for."""

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
        self._streamed = True
        # Only marked here: Textual renders (below) once per frame, however many deltas came, and
        # while deltas keep coming at most once per STREAM_GAP.
        if not self._layout_asked and self._paced is None:
            self._layout_asked = True
            wait = self._laid_out + STREAM_GAP - time.monotonic()
            if wait <= 0 or not self.is_mounted:
                self.refresh(layout=True)
            else:
                self._paced = self.set_timer(wait, self._paced_layout, name="answer pacing")

    def _paced_layout(self) -> None:
        self._paced = None
        self.refresh(layout=True)

    def _layout_now(self) -> None:
        """The answer ended (or changed whole): what waits for `STREAM_GAP` is drawn in this frame."""
        if self._paced is not None:
            self._paced.stop()
            self._paced_layout()

    def refresh_from(self, item: TextItem) -> None:
        self.item = item
        if item.streaming:
            return
        self._layout_now()  # the last token is not kept waiting
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
        from claude_tui.ui.render.markdown_lines import render_part  # loaded after the first paint (markdown_part.py)

        base = self.rich_style if self.is_mounted else Style()
        return render_part(source, width, self.app.console, self.app.console_options, base, self._links,
                           dark=self.app.current_theme.dark)

    def _lines(self, width: int, *, layout: bool = False, whole: bool = False,
               ) -> tuple[list[Strip], list[Strip], list[Strip]]:
        """(sealed lines, live lines, the "more characters" line) at `width`, rendering what is not
        cached. Held-back segments are rendered (and laid out) only in a `layout`, where their heights
        may change, or for the `whole` text; a paint that reaches one renders a preview (`SealedLines.row`)."""
        if self._paced is not None and width == self._sealed.width and not whole:
            # Text waits for its paced layout: until then the answer is drawn as last laid out, so
            # that the layout Textual runs after every change of size (and then the next, and so
            # on at 60 a second) finds nothing new and the burst's frames stay STREAM_GAP apart.
            return self._sealed.lines, self._live_lines, self._more_lines
        self._layout_asked = False
        if layout:
            self._laid_out = time.monotonic()
        if width != self._sealed.width:
            self._reset_sealed(width)
            layout = True
        sealed = self._sealed
        changed = known = sealed.take_new()
        if (layout or whole) and sealed.held:
            changed = min(changed, self._render_held(whole or self.text_selection is not None))
        if changed < len(sealed.parts):
            sealed.build(changed)
            if not layout and changed < known:
                self.refresh(layout=True)  # held rows rendered for the whole text: heights changed
        self._render_live(width)
        while sealed.held and layout and self._holds_back():
            # The estimates above can be off: whatever held row still reaches the view is rendered now
            # (and again, as rendering them may shrink the answer and bring earlier ones into view).
            shown = sealed.held_after(len(sealed.lines) + len(self._live_lines) - self._view_rows())
            if not shown:
                break
            sealed.build(sealed.render(shown))
            self._render_live(width)
        if self._more_key != (width, self._hidden):
            self._more_key, self._more_lines = (width, self._hidden), []
            if self._hidden:
                note = Text(f"… {self._hidden:,} more characters not shown "
                            "(copy or export the answer to read them all)", style="italic dim")
                self._more_lines = [Strip(line) for line in self.app.console.render_lines(
                    note, self.app.console_options.update_width(max(1, width)), pad=False)]
        return sealed.lines, self._live_lines, self._more_lines

    def _render_live(self, width: int) -> None:
        live = self._segments.live
        after_rule = self._sealed.after_rule
        key = (width, len(self._segments.sealed), len(live), after_rule)
        if key != self._live_key:
            self._live_key, self._live_lines = key, joined(self._render_segment(live, width), after_rule)

    # -- holding back what a burst has already scrolled past (see answer_lines.py) -----------
    # Only the segments that reach the view are rendered; the others stay held back (rows estimated)
    # for as long as the log follows its end, after the burst too: most of a long answer scrolls past
    # unread, and rendering it anyway (a timer did, once the burst was over) was a third of the app's
    # CPU over a session of long answers. A reader who leaves the very end (one wheel notch is enough)
    # gets them all at the next layout, and the log keeps the row they read in place (it asks
    # `rows_pending`). A selection gets them all at once too: rows must not move under it.

    @property
    def rows_pending(self) -> bool:
        """Whether rows of this answer may still change at the same width (segments held back)."""
        return self._sealed.held > 0

    def _holds_back(self) -> bool:
        log = self.parent
        return self._streamed and isinstance(log, PlaceKeepingScroll) and log.follows_end

    def _view_rows(self) -> int:
        # The terminal's height bounds the log's view (whose own size is not to be asked mid-layout).
        return self.app.size.height

    def _render_held(self, whole: bool) -> int:
        """Render the held-back segments due now; return the first index rendered (`len(parts)`: none)."""
        sealed = self._sealed
        if whole or not self._holds_back():
            return sealed.render(sealed.held_indexes())
        # The newest segments, back to the top of the view (the live text below them takes rows too).
        return sealed.render(sealed.newest(self._view_rows() - estimate(self._segments.live, sealed.width)))

    def _previewed(self) -> None:
        self.refresh(layout=True)  # a paint rendered a held-back segment: the next layout places it

    # -- keeping the reader's place when the width changes (see log_window.KeepsPlace) --------
    def _segment_rows(self) -> list[tuple[int, int]]:
        """(first row, end row) of each segment as last drawn (asked before a layout: nothing rendered here)."""
        sealed, live = self._sealed.lines, self._live_lines
        starts = [*self._sealed.starts, len(sealed)]
        return list(zip(starts, [*starts[1:], len(sealed) + len(live)]))

    def place_at(self, row: int) -> TextPlace | None:
        """Where the text shown on `row` is, in terms that survive rewrapping: its segment, and the
        first word on that row (or the next row with words) counted from the segment's start."""
        if self._sealed.width < 0:
            return None
        segments = self._segment_rows()
        lines = self._all_lines()
        for index, (start, end) in enumerate(segments):
            if start <= row < end:
                if index < len(self._sealed.parts) and self._sealed.parts[index] is None:
                    # Held back: its rows are what a paint showed there, its preview from its first row.
                    shown = self._sealed.drawn(index)
                    lines = [*lines[:start], *shown[:end - start], *[HELD] * (end - start - len(shown)), *lines[end:]]
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
        if not isinstance(place, TextPlace) or self._sealed.width < 0:
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
        return [*self._sealed.lines, *self._live_lines]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        sealed, live, more = self._lines(width, layout=True)
        return len(sealed) + len(live) + len(more)

    def render_lines(self, crop: Region) -> list[Strip]:
        return self._styled.lines(self, crop, self._line, super().render_lines)

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
        if y < len(sealed) and sealed[y] is HELD:
            return self._sealed.row(y, live)
        for lines in (sealed, live, more):
            if y < len(lines):
                return lines[y]
            y -= len(lines)
        return Strip.blank(self.size.width)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The text selected with the mouse, as shown (wrapped lines, rendered Markdown)."""
        sealed, live, more = self._lines(self.size.width, whole=True)
        text = "\n".join(strip.text.rstrip() for lines in (sealed, live, more) for strip in lines)
        return selection.extract(text), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        if selection is not None and self._sealed.held:
            self.refresh(layout=True)  # rows above a selection must not change height under it: all drawn now
        self.refresh()

    def on_resize(self) -> None:
        if self.size.width != self._sealed.width:
            self.refresh(layout=True)  # a new width: rendered again (a new height alone changes nothing here)

    def _watch_theme(self) -> None:
        self._reset_sealed(-1)  # code blocks are highlighted for a dark or a light background
        self.refresh(layout=True)

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._watch_theme, init=False)

    def on_unmount(self) -> None:
        self._styled.clear()
        if self._paced is not None:
            self._paced.stop()
            self._paced = None
        # Dropped from the log's window: a removed widget can wait in a reference cycle until a
        # full collection, and its rendered lines are most of its memory.
        self._reset_sealed(-1)
        self._live_key, self._live_lines = (-1, -1, -1, None), []

    def action_open_link(self, number: int) -> None:
        """A click on a link: the address is shown and asked about, never opened at once."""
        if 0 <= number < len(self._links.hrefs):
            from claude_tui.ui.render.safe_markdown import ask_to_open

            ask_to_open(self, self._links.hrefs[number])
