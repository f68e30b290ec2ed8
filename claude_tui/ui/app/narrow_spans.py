"""A partial screen update writes the dirty cells from where they start, not from the widget's left edge.

Textual's compositor writes a partial update (`ChopsUpdate`) as spans of dirty cells, but a span that
starts inside a widget's strip is written from the strip's start (a `TODO: crop to x extents` in its
code): one letter typed at column 100 of the prompt rewrote the 100 cells before it too, its border
and padding included, so the bytes a key costs grew with the line. Over ssh, mosh or a slow terminal
every byte is latency. Here the strip is cut where the span starts (at the start of a wide character,
never through it), so what is written is the same picture in fewer bytes.

Textual keeps `ChopsUpdate` private and the app cannot hand the compositor another class, so its
method is replaced, once, here (`install`, from the app). `tests/unit/test_narrow_spans.py` holds it
to Textual's own output (the same cells on screen) and fails when Textual's method changes.
"""

from __future__ import annotations

from rich.cells import cell_len, get_character_cell_size
from rich.console import Console
from rich.control import Control
from textual._compositor import ChopsUpdate  # private: see the module's docstring
from textual.strip import Strip

TEXTUALS_RENDER_SEGMENTS = ChopsUpdate.render_segments
"""Textual's own method, kept for the tests (which compare with it)."""


def char_start(strip: Strip, cut: int) -> int:
    """The cell where the character at cell `cut` of `strip` starts (`cut` itself unless a wide one spans it)."""
    position = 0
    for segment in strip:
        text = segment.text
        width = cell_len(text)
        if position + width <= cut:
            position += width
            continue
        if width == len(text):  # one cell a character: every cell is a start
            return cut
        for char in text:
            char_width = get_character_cell_size(char)
            if position + char_width > cut:
                return position
            position += char_width
        return position
    return cut


def render_segments(self: ChopsUpdate, console: Console) -> str:
    """`ChopsUpdate.render_segments`, each strip cut to the span (Textual's loop otherwise as it is)."""
    sequences: list[str] = []
    append = sequences.append
    move_to = Control.move_to
    chops = self.chops
    chop_ends = self.chop_ends
    last_y = self.spans[-1][0]
    for y, x1, x2 in self.spans:
        line = chops[y]
        ends = chop_ends[y]
        for end, (x, strip) in zip(ends, line.items(), strict=False):
            if strip is None or x > x2 or end <= x1:
                continue
            if x2 > x >= x1 and end <= x2:
                append(move_to(x, y).segment.text)
                append(strip.render(console))
                continue
            start = x if x >= x1 else x + char_start(strip, x1 - x)
            append(move_to(start, y).segment.text)
            append(strip.crop(start - x, min(end, x2) - x).render(console))
        if y != last_y:
            append("\n")
    return "".join(sequences)


def install() -> None:
    """Use `render_segments` for every partial update of this process (idempotent)."""
    ChopsUpdate.render_segments = render_segments  # type: ignore[method-assign]
