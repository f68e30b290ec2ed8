"""Assistant text as Markdown: one widget per answer, drawn from cached lines.

Re-rendering a whole answer per frame gets slower the longer it grows, and
Textual's `Markdown` widget (one widget per block, each styled and laid out on
every frame) made a 2,000-token answer hundreds of widgets. So the text is split
into segments: only the last segment is live and re-rendered (at most once a
frame, when Textual asks for it); earlier ones are sealed and rendered to lines
once per width (`markdown_lines.render_markdown`). The answer is a single widget
handing out those lines, whatever its length. Segments end at a paragraph break
outside a code fence; text with no such break is cut at a line break, and a
single giant line is cut hard. Beyond `MAX_SHOWN` characters the rest is
summarised, not rendered (the item keeps the whole text for copy and export).

Appending never mounts nor awaits: the text is stored and the widget marked for
a layout, so a burst of deltas costs one render of the live segment per frame,
and the first text is painted on the next frame.
"""

from __future__ import annotations

import re

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.selection import Selection
from textual.strip import Strip
from textual.widget import Widget

from claude_tui.protocol.sanitize import printable
from claude_tui.session.items import TextItem
from claude_tui.ui.widgets.markdown_lines import LinkTable, MarkdownPart, render_part
from claude_tui.ui.widgets.safe_markdown import ask_to_open

SEGMENT_CHARS = 1500
"""A segment is sealed at the first paragraph break after this many characters."""
LINE_CUT_CHARS = 6 * SEGMENT_CHARS
"""With no paragraph break, a segment is sealed at a line break after this many."""
HARD_CUT_CHARS = 16 * SEGMENT_CHARS
"""With no line break either (one giant line), it is cut here."""
MAX_SHOWN = 256 * 1024
"""Characters of one answer rendered; the rest is counted, not laid out."""

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
    def _render(self, source: str, width: int) -> MarkdownPart:
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
        sealed, live = self._segments.sealed, self._segments.live
        while self._sealed_done < len(sealed):
            part = self._render(sealed[self._sealed_done], width)
            self._sealed_lines.extend(self._joined(part, self._after_rule))
            if part.lines:
                self._after_rule = part.ends_with_rule
            self._sealed_done += 1
        key = (width, len(sealed), len(live))
        if key != self._live_key:
            self._live_key, self._live_lines = key, self._joined(self._render(live, width), self._after_rule)
        if self._more_key != (width, self._hidden):
            self._more_key, self._more_lines = (width, self._hidden), []
            if self._hidden:
                note = Text(f"… {self._hidden:,} more characters not shown "
                            "(copy or export the answer to read them all)", style="italic dim")
                self._more_lines = [Strip(line) for line in self.app.console.render_lines(
                    note, self.app.console_options.update_width(max(1, width)), pad=False)]
        return self._sealed_lines, self._live_lines, self._more_lines

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
        self._live_key, self._live_lines = (-1, -1, -1), []

    def action_open_link(self, number: int) -> None:
        """A click on a link: the address is shown and asked about, never opened at once."""
        if 0 <= number < len(self._links.hrefs):
            ask_to_open(self, self._links.hrefs[number])
