"""DiffView: a diff pane drawn with the Line API, so only visible rows are rendered.

Rows (cheap records from :mod:`claude_tui.diff.rows`) are built up front; each
visible row becomes a Strip on demand, cached by (mode, row, width). Colours come
from component classes styled in ``DiffView.DEFAULT_CSS``; syntax colours use theme
variables, under the +/- backgrounds. Line text is untrusted: it becomes
``Content`` with explicit spans (never markup), with tabs expanded and control
characters made visible.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from pygments.token import Token
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.binding import Binding
from textual.cache import LRUCache
from textual.content import Content, Span
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style

from claude_tui.diff.display import display_text, lex_line, lexer_for, map_spans, resolve_token
from claude_tui.diff.model import FileDiff
from claude_tui.diff.rows import LINE_KINDS, Row, SplitRow, build_rows, truncate_rows

SYNTAX_STYLES = {
    Token.Comment: "$foreground 55% italic",
    Token.Keyword: "$text-accent",
    Token.Keyword.Constant: "$text-success",
    Token.Keyword.Namespace: "$text-error",
    Token.Keyword.Type: "$text-accent",
    Token.Literal.Number: "$text-warning",
    Token.Literal.String: "$text-success 90%",
    Token.Literal.String.Doc: "$text-success 80% italic",
    Token.Name.Builtin: "$text-accent",
    Token.Name.Class: "$text-warning bold",
    Token.Name.Decorator: "$text-primary bold",
    Token.Name.Function: "$text-warning",
    Token.Name.Tag: "$text-primary bold",
    Token.Name.Attribute: "$text-warning",
    Token.Name.Constant: "$text-error",
    Token.Operator.Word: "$text-error",
    Token.Generic.Heading: "$text-primary bold",
    Token.Generic.Subheading: "$text-primary",
}
"""Token styles (foreground only, so the +/- backgrounds stay visible)."""

KIND_LABELS = {
    "edit": "edited",
    "create": "new file",
    "update": "overwritten",
    "delete": "deleted",
    "notebook": "notebook cell",
    "binary": "binary",
    "huge": "too large to diff",
}
APP_SPLIT = "diff_split"
"""The app's reactive every diff view follows (`ClaudeTuiApp.diff_split`: True, False, None by width)."""
_MARKERS = {"add": "+", "remove": "-", "context": " ", "note": " "}
_LINE_STYLE = {"add": "added", "remove": "removed", "context": "context", "note": "note"}
_FULL_STYLE = {"hunk-header": "hunk", "collapsed": "collapsed", "note": "note", "more": "collapsed", "section": "hunk"}


def _as_list(diff: FileDiff | Sequence[FileDiff] | None) -> list[FileDiff]:
    if diff is None:
        return []
    if isinstance(diff, FileDiff):
        return [diff]
    return list(diff)


class DiffView(ScrollView, can_focus=True):
    """One file's diff (or several diffs of one file), unified or side by side.

    ``split=None`` picks split mode when the widget is at least
    ``SPLIT_MIN_WIDTH`` columns wide; ``s`` toggles. ``max_rows`` turns it into a
    compact preview (first rows plus "… N more lines"), for tool cards.
    """

    DEFAULT_CSS = """
    /* Colours follow the theme. */
    DiffView {
        width: 1fr;
        height: 1fr;
        overflow-x: hidden;
        overflow-y: auto;
        background: $surface;
        color: $foreground;
        scrollbar-size-vertical: 1;

        &:focus {
            background-tint: $foreground 3%;
        }
        &.-preview {
            height: auto;
            max-height: 40;
        }

        & > .diff-view--header {
            background: $panel;
            color: $foreground;
            text-style: bold;
        }
        & > .diff-view--added-count {
            color: $text-success;
            text-style: bold;
        }
        & > .diff-view--removed-count {
            color: $text-error;
            text-style: bold;
        }
        & > .diff-view--context {
            color: $foreground;
        }
        & > .diff-view--added {
            background: $success 14%;
        }
        & > .diff-view--removed {
            background: $error 14%;
        }
        & > .diff-view--added-word {
            background: $success 38%;
        }
        & > .diff-view--removed-word {
            background: $error 38%;
        }
        & > .diff-view--gutter {
            color: $foreground 45%;
            background: $foreground 3%;
        }
        & > .diff-view--added-gutter {
            color: $text-success;
            background: $success 24%;
        }
        & > .diff-view--removed-gutter {
            color: $text-error;
            background: $error 24%;
        }
        & > .diff-view--hunk {
            color: $text-primary;
            background: $primary 10%;
        }
        & > .diff-view--collapsed {
            color: $text-muted;
            background: $foreground 4%;
            text-style: italic;
        }
        & > .diff-view--note {
            color: $text-warning;
            text-style: italic;
        }
        & > .diff-view--filler {
            background: $foreground 5%;
        }
        & > .diff-view--divider {
            color: $foreground 20%;
        }
        & > .diff-view--cursor {
            color: $text;
            background: $accent 40%;
            text-style: bold;
        }
    }
    """

    COMPONENT_CLASSES = {
        "diff-view--header",
        "diff-view--added-count",
        "diff-view--removed-count",
        "diff-view--context",
        "diff-view--added",
        "diff-view--removed",
        "diff-view--added-word",
        "diff-view--removed-word",
        "diff-view--gutter",
        "diff-view--added-gutter",
        "diff-view--removed-gutter",
        "diff-view--hunk",
        "diff-view--collapsed",
        "diff-view--note",
        "diff-view--filler",
        "diff-view--divider",
        "diff-view--cursor",
    }
    BINDINGS = [
        Binding("s", "toggle_split", "Split/unified"),
        Binding("n", "next_hunk", "Next hunk", show=False),
        Binding("p", "previous_hunk", "Previous hunk", show=False),
        Binding("c", "comment", "Comment on the hunk"),
    ]
    SPLIT_MIN_WIDTH = 140

    class CommentAsked(Message):
        """`c`: the user wants to comment on one hunk of one of the view's diffs."""

        def __init__(self, view: DiffView, diff: FileDiff, hunk: int) -> None:
            super().__init__()
            self.view = view
            self.diff = diff
            self.hunk = hunk

        @property
        def control(self) -> DiffView:
            return self.view

    split: reactive[bool | None] = reactive(None, init=False)
    """True: side by side; False: unified; None: automatic by width."""

    def __init__(
        self,
        diff: FileDiff | Sequence[FileDiff] | None = None,
        *,
        split: bool | None = None,
        max_rows: int | None = None,
        header: bool = True,
        syntax: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.max_rows = max_rows
        self.show_header = header
        self.syntax = syntax
        self._diffs: list[FileDiff] = []
        self._rows: dict[bool, list[Row] | list[SplitRow]] = {}
        self._strips: LRUCache[tuple[bool, int, int], Strip] = LRUCache(2048)
        self._lexed: LRUCache[str, list[tuple[int, int, object]]] = LRUCache(4096)
        self._syntax: dict[object, Style] = {}
        self._token_styles: dict[object, Style | None] = {}
        self._gutter = 1
        self._review: tuple[int, frozenset[int], frozenset[int]] | None = None
        self._cursor_row: int | None = None
        """The row of the hunk header `n`/`p` moved to (None until they are used)."""
        self.set_reactive(DiffView.split, split)
        self.set_class(max_rows is not None, "-preview")
        self.set_diff(diff)

    # ------------------------------------------------------------------ content

    @property
    def diffs(self) -> list[FileDiff]:
        return list(self._diffs)

    def set_diff(self, diff: FileDiff | Sequence[FileDiff] | None) -> None:
        """Show another diff (or list of diffs of one file)."""
        self._diffs = _as_list(diff)
        self._cursor_row = None
        self._rows.clear()
        self._strips.clear()
        numbers = [1]
        for item in self._diffs:
            for hunk in item.hunks:
                numbers += [hunk.old_start + hunk.old_lines, hunk.new_start + hunk.new_lines]
        self._gutter = max(len(str(max(numbers))), 2)
        path = self._diffs[0].path if self._diffs else ""
        self._lexer = lexer_for(path) if self.syntax and path else None
        self._update_virtual_size()
        if self.is_mounted:
            self.scroll_to(0, 0, animate=False, immediate=True)
            self.refresh()

    def mode_for_width(self, width: int) -> bool:
        """Whether a pane ``width`` columns wide shows split rows."""
        return self.split if self.split is not None else width >= self.SPLIT_MIN_WIDTH

    @property
    def is_split(self) -> bool:
        return self.mode_for_width(self.size.width)

    def rows_for(self, split: bool) -> list[Row] | list[SplitRow]:
        """The (possibly truncated) rows of one mode, built once."""
        rows = self._rows.get(split)
        if rows is None:
            rows = self._rows[split] = truncate_rows(build_rows(self._diffs, split), self.max_rows)
        return rows

    def _height(self, split: bool) -> int:
        rows = self.rows_for(split)
        if not rows and self._diffs:
            return int(self.show_header) + 1  # "No changes."
        return len(rows) + int(self.show_header)

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(0, self._height(self.is_split))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._height(self.mode_for_width(width))

    def watch_split(self) -> None:
        self._cursor_row = None  # rows differ between the modes
        self._update_virtual_size()
        self.refresh()

    def on_resize(self) -> None:
        self._update_virtual_size()

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._on_theme_changed)
        # The app-wide choice (palette: "Toggle split diffs"), an app reactive; under an app without
        # one (a test's), the watcher sees None once and never again.
        self.watch(self.app, APP_SPLIT, self._follow_app_split, init=True)

    def _follow_app_split(self, old: bool | None, new: bool | None) -> None:
        # At mount (old is new) only a view left to choose by width takes the app's choice; a
        # toggle then sets every view, one the user flipped with "s" too.
        if old is not new or self.split is None:
            self.split = new

    def _on_theme_changed(self, _theme: object) -> None:
        self._clear_styles()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._clear_styles()

    def _clear_styles(self) -> None:
        self._strips.clear()
        self._syntax.clear()
        self._token_styles.clear()

    # ------------------------------------------------------------------ actions

    def action_toggle_split(self) -> None:
        """Switch between split and unified (leaving automatic mode)."""
        self.split = not self.is_split

    def _hunk_rows(self) -> list[int]:
        out = []
        rows: Sequence[Row | SplitRow] = self.rows_for(self.is_split)
        for index, shown in enumerate(rows):
            row = shown.full if isinstance(shown, SplitRow) else shown
            if row is not None and row.kind in ("hunk-header", "section"):
                out.append(index)
        return out

    def action_next_hunk(self) -> None:
        self._move_cursor(1)

    def action_previous_hunk(self) -> None:
        self._move_cursor(-1)

    def _move_cursor(self, step: int) -> None:
        """`n`/`p`: the next or previous hunk's header becomes the cursor (marked, at the top): what `c` is about."""
        headers = self._hunk_rows()
        current = self._cursor_row
        if current is None:
            top = round(self.scroll_offset.y)
            later = [i for i in headers if (i >= top if step > 0 else i < top)]
        else:
            later = [i for i in headers if (i > current if step > 0 else i < current)]
        if not later:
            return
        self._cursor_row = later[0] if step > 0 else later[-1]
        self._strips.clear()
        self.refresh()
        self.scroll_to(y=self._cursor_row, animate=False)

    def hunk_at_cursor(self) -> tuple[FileDiff, int] | None:
        """The hunk a comment is about: the review's cursor, else the hunk `n`/`p` last moved to, else
        the first hunk at or below the view's top."""
        if self._review is not None and self._diffs:
            return self._diffs[0], self._review[0]
        rows: Sequence[Row | SplitRow] = self.rows_for(self.is_split)
        start = self._cursor_row if self._cursor_row is not None else round(self.scroll_offset.y)
        sections = 0  # several diffs of one file: each starts with a section row
        for index, shown in enumerate(rows):
            row = shown.full if isinstance(shown, SplitRow) else shown
            if row is not None and row.kind == "section":
                sections += 1
            hunk = self._hunk_of(shown)
            if index >= start and hunk >= 0:
                number = max(sections - 1, 0)
                if number < len(self._diffs) and hunk < len(self._diffs[number].hunks):
                    return self._diffs[number], hunk
                return None
        return None

    def action_comment(self) -> None:
        at = self.hunk_at_cursor()
        if at is None:
            self.notify("No hunk here to comment on.", severity="warning", timeout=3)
            return
        self.post_message(self.CommentAsked(self, *at))

    # ------------------------------------------------------------------ hunk review

    def mark_hunks(self, cursor: int, rejected: Collection[int] = (), rewritten: Collection[int] = ()) -> int | None:
        """Draw the hunks as under review: the one under the cursor stands out, rejected ones are
        struck through. Returns the row (within this widget) of the cursor hunk's header."""
        self._review = (cursor, frozenset(rejected), frozenset(rewritten))
        self._strips.clear()
        self.refresh()
        rows: Sequence[Row | SplitRow] = self.rows_for(self.is_split)
        for index, shown in enumerate(rows):
            row = shown.full if isinstance(shown, SplitRow) else shown
            if row is not None and row.kind == "hunk-header" and row.hunk == cursor:
                return index + int(self.show_header)
        return None

    def _hunk_of(self, shown: Row | SplitRow) -> int:
        if isinstance(shown, Row):
            return shown.hunk
        row = shown.full or shown.left or shown.right
        return row.hunk if row is not None else -1

    def _reviewed(self, shown: Row | SplitRow, width: int, split: bool) -> Strip:
        assert self._review is not None
        cursor, rejected, rewritten = self._review
        hunk = self._hunk_of(shown)
        row = shown.full if isinstance(shown, SplitRow) else shown
        if row is not None and row.kind == "hunk-header" and hunk >= 0:
            verdict = "✗ left out" if hunk in rejected else "✎ rewritten" if hunk in rewritten else "✓ taken"
            mark = "▶" if hunk == cursor else " "
            labelled = replace(row, text=f"{mark} hunk {hunk + 1} · {verdict} · {row.text}")
            strip = self._full(labelled, width, split)
            return strip.apply_style(self._style("cursor").rich_style) if hunk == cursor else strip
        strip = self._render_row(shown, width, split)
        if hunk in rejected:
            return strip.apply_style(RichStyle(strike=True, dim=True))
        return strip

    # ------------------------------------------------------------------ rendering

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if self.show_header:
            if y == 0:
                return self._header_strip(width)
            y -= 1
        split = self.is_split
        rows = self.rows_for(split)
        index = round(self.scroll_offset.y) + y
        if not rows and index == 0 and self._diffs:
            return self._full(Row("note", "No changes."), width, split)
        if index >= len(rows) or width <= 0:
            return Strip.blank(width, self.rich_style)
        key = (split, index, width)
        strip = self._strips.get(key)
        if strip is None:
            if self._review is not None:
                strip = self._reviewed(rows[index], width, split)
            else:
                strip = self._render_row(rows[index], width, split)
            if index == self._cursor_row:
                strip = strip.apply_style(self._style("cursor").rich_style)
            self._strips[key] = strip
        return strip

    def _style(self, name: str) -> Style:
        return self.get_visual_style(f"diff-view--{name}")

    def _foreground(self, name: str) -> Style:
        """A component's text colour and weight only (to lay over another background)."""
        style = self._style(name)
        return Style(foreground=style.foreground, bold=style.bold, italic=style.italic)

    def _render_row(self, row: Row | SplitRow, width: int, split: bool) -> Strip:
        if isinstance(row, SplitRow):
            if row.full is not None:
                return self._full(row.full, width, split)
            left_width = (width - 1) // 2
            segments = self._half(row.left, "old", left_width)
            segments.append(Segment("│", self._style("divider").rich_style))
            segments += self._half(row.right, "new", width - 1 - left_width)
            return Strip(segments, width)
        if row.kind not in LINE_KINDS:
            return self._full(row, width, split)
        gutter_style = self._gutter_style(row)
        old = "" if row.old_no is None else str(row.old_no)
        new = "" if row.new_no is None else str(row.new_no)
        gutter = f"{old:>{self._gutter}} {new:>{self._gutter}} "
        segments = [Segment(gutter, gutter_style.rich_style)]
        segments += self._line(row, width - len(gutter))
        return Strip(segments, width)

    def _gutter_style(self, row: Row) -> Style:
        if row.kind == "add":
            return self._style("added-gutter")
        if row.kind == "remove":
            return self._style("removed-gutter")
        return self._style("gutter")

    def _half(self, row: Row | None, side: str, width: int) -> list[Segment]:
        if width <= 0:
            return []
        if row is None:
            return [Segment(" " * width, self._style("filler").rich_style)]
        number = row.old_no if side == "old" else row.new_no
        gutter = f"{'' if number is None else number:>{self._gutter}} "
        if len(gutter) >= width:
            return [Segment(gutter[:width], self._gutter_style(row).rich_style)]
        return [Segment(gutter, self._gutter_style(row).rich_style), *self._line(row, width - len(gutter))]

    def _line(self, row: Row, width: int) -> list[Segment]:
        """Marker column plus the highlighted, truncated line text, exactly ``width`` cells."""
        if width <= 0:
            return []
        base = self._style(_LINE_STYLE[row.kind])
        marker = Segment(f"{_MARKERS[row.kind]} "[:width], (base + Style(bold=True)).rich_style)
        width -= len(marker.text)
        if width <= 0:
            return [marker]
        display, offsets = display_text(row.text)
        spans: list[Span] = []
        if self._lexer is not None and row.kind != "note":
            if not self._syntax:
                self._syntax = {token: Style.parse(text) for token, text in SYNTAX_STYLES.items()}
            for start, end, token_type in self._lex(display):
                style = resolve_token(token_type, self._syntax, self._token_styles)
                if style is not None:
                    spans.append(Span(start, min(end, len(display)), style))
        if row.pair is not None:
            word = self._style("added-word" if row.kind == "add" else "removed-word")
            emphasis = Style(background=word.background, bold=word.bold)
            spans += [Span(s, e, emphasis) for s, e in map_spans(row.word_spans(), offsets) if e > s]
        content = Content(display, spans, strip_control_codes=False)
        content = content.truncate(width, ellipsis=True, pad=True)
        return [marker, *content.render_segments(base)]

    def _lex(self, display: str) -> list[tuple[int, int, object]]:
        lexed = self._lexed.get(display)
        if lexed is None:
            assert self._lexer is not None
            lexed = [(s, e, t) for s, e, t in lex_line(self._lexer, display)]
            self._lexed[display] = lexed
        return lexed

    def _full(self, row: Row, width: int, split: bool) -> Strip:
        """A full-width row: hunk header, collapsed gap, note, "more", section."""
        indent = (self._gutter + 1) if split else (self._gutter * 2 + 2)
        indent = min(indent, width)
        style = self._style(_FULL_STYLE.get(row.kind, "note"))
        text, _ = display_text(row.text)
        content = Content(text, strip_control_codes=False).truncate(width - indent, ellipsis=True, pad=True)
        segments = [Segment(" " * indent, style.rich_style), *content.render_segments(style)]
        return Strip(segments, width)

    def _header_strip(self, width: int) -> Strip:
        if not self._diffs:
            return Strip.blank(width, self.rich_style)
        style = self._style("header")
        added = sum(d.added for d in self._diffs)
        removed = sum(d.removed for d in self._diffs)
        path = display_text(self._diffs[0].path)[0] if self._diffs else ""
        kinds = {d.kind for d in self._diffs}
        if len(self._diffs) > 1:
            label = f"{len(self._diffs)} changes"
        else:
            label = KIND_LABELS.get(next(iter(kinds), ""), "")
        muted = self._foreground("gutter")
        if any(d.hunks for d in self._diffs):
            counts = Content.assemble(
                (f" +{added}", self._foreground("added-count") if added else muted),
                (f" −{removed} ", self._foreground("removed-count") if removed else muted),
            )
        else:
            counts = Content(" ")
        tail = (f" · {label}" if label else "") + (" · split" if self.is_split else "")
        room = max(width - counts.cell_length - len(tail) - 1, 0)
        if len(path) > room:
            path = "…" + path[-(room - 1) :] if room > 1 else path[:room]
        left = Content(f" {path}{tail}", strip_control_codes=False)
        content = Content.assemble(left, counts).truncate(width, ellipsis=True, pad=True)
        return Strip(content.render_segments(style), width)
