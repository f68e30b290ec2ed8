"""Text cut to a number of terminal cells: the tab bar and the status bar cut the same way."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size

MORE = "…"


def fit(text: str, width: int) -> str:
    """`text` in at most `width` cells, cut with an ellipsis (wide characters counted as two)."""
    if cell_len(text) <= width:
        return text
    if width <= 1:
        return MORE[:width]
    return set_cell_size(text, width - 1).rstrip() + MORE
