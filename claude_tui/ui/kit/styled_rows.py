"""A widget's rows with its styles applied, kept while neither the row nor the widget's look changes.

Textual keeps the styled rows of a widget (its background, margins, border, the app's line filters)
only until the widget changes size: then all of them are styled again. A streaming answer grows on
every frame, and it fills most of the log, so each frame of a burst styled some 35 rows whose text
had not changed (Textual's styles cache and the line filters were a third of a burst frame). A
widget whose rows are cached `Strip`s (the answer's rendered Markdown lines) asks here instead:
a row is styled again only when the strip drawn on it is another object, the row moved, or the
widget's look changed (`look`: width, colours, border and padding, opacity, hover, filters).

Rows under a border's top or bottom, or a padding above or below, depend on the widget's height:
such a widget is always styled by Textual, as is a widget with a mouse selection (drawn per row).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

MAX_ROWS = 1024
"""Rows kept at most (a view's worth many times over); past it the cache starts again."""


def look(widget: Widget, crop: Region) -> Hashable | None:
    """What styling a row of `widget` in `crop` depends on besides the row itself (None: not cacheable)."""
    styles = widget.styles
    (top, _), _, (bottom, _), _ = styles.border
    (outline_top, _), _, (outline_bottom, _), _ = styles.outline
    padding = styles.padding
    if top or bottom or outline_top or outline_bottom or padding.top or padding.bottom:
        return None  # its first and last rows depend on its height
    if widget.text_selection is not None:
        return None
    return (crop.x, crop.width, widget.size.width, widget.background_colors, styles.border, padding,
            styles.color, styles.tint, styles.text_opacity, widget.opacity, widget.hover_style,
            widget.app.ansi_theme, widget.app.native_ansi_color, tuple(map(id, widget.get_line_filters())))


class StyledRows:
    """The styled rows of one widget (see the module docstring)."""

    def __init__(self) -> None:
        self._look: Hashable | None = None
        self._rows: dict[int, tuple[Strip, Strip]] = {}
        """y -> (the strip drawn on row y, that row styled)."""

    def clear(self) -> None:
        self._look = None
        self._rows.clear()

    def lines(self, widget: Widget, crop: Region, row: Callable[[int], Strip],
              styled: Callable[[Region], list[Strip]]) -> list[Strip]:
        """The rows in `crop`, styled: `row(y)` is the strip drawn on row y (cached by the widget, so the
        same object while unchanged), `styled(region)` styles rows the Textual way (`Widget.render_lines`)."""
        key = look(widget, crop)
        if key is None:
            self.clear()
            return styled(crop)
        if key != self._look or len(self._rows) > MAX_ROWS:
            self._rows.clear()
            self._look = key
        rows = self._rows
        out: list[Strip] = []
        start = None  # the first row of a run that must be styled
        sources: list[Strip] = []
        for y in crop.line_range:
            source = row(y)
            kept = rows.get(y)
            if kept is not None and kept[0] is source:
                if start is not None:
                    self._style_run(crop, start, sources, out, styled)
                    start, sources = None, []
                out.append(kept[1])
                continue
            if start is None:
                start = y
            sources.append(source)
        if start is not None:
            self._style_run(crop, start, sources, out, styled)
        return out

    def _style_run(self, crop: Region, start: int, sources: list[Strip], out: list[Strip],
                   styled: Callable[[Region], list[Strip]]) -> None:
        lines = styled(Region(crop.x, start, crop.width, len(sources)))
        for offset, (source, line) in enumerate(zip(sources, lines)):
            self._rows[start + offset] = (source, line)
        out.extend(lines)
