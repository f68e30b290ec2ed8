"""`narrow_spans`: a partial update paints the same cells as Textual's, from where the dirty span starts.

Each case paints a line whose dirty span was scribbled over ("?") with both writers, read back by a
small terminal (cursor moves, SGR, characters and their widths): both must leave the true picture,
ours in fewer bytes when the span starts inside a strip.
"""

from __future__ import annotations

import hashlib
import inspect
import re

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate
from textual.strip import Strip

from claude_tui.ui.app import narrow_spans

WIDTH = 24
LEFT = Strip([Segment("│", Style(color="red")), Segment(" hello ", Style(bgcolor="blue")),
              Segment("漢字", Style(bold=True)), Segment("xyz")])  # 15 cells, a widget from x=0
RIGHT = Strip([Segment("RIGHTSIDE", Style(italic=True))])  # 9 cells, a widget from x=15
TOKEN = re.compile(r"\x1b\[(\d+);(\d+)H|\x1b\[([0-9;]*)m|(\n)|(.)", re.S)
Grid = list[tuple[str, str]]


def console() -> Console:
    return Console(force_terminal=True, color_system="256", width=WIDTH, legacy_windows=False)


def play(output: str, grid: Grid) -> Grid:
    """`grid` (one row) after a terminal wrote `output` to it."""
    grid, x, sgr = list(grid), 0, ""
    for token in TOKEN.finditer(output):
        move_y, move_x, style, _newline, char = token.groups()
        if move_x is not None:
            assert move_y == "1"
            x = int(move_x) - 1
        elif style is not None:
            sgr = "" if style in ("", "0") else style
        elif char is not None:
            grid[x] = (char, sgr)
            if cell_len(char) == 2:
                grid[x + 1] = ("", sgr)
            x += cell_len(char)
    return grid


def update(x1: int, x2: int) -> ChopsUpdate:
    return ChopsUpdate([{0: LEFT, 15: RIGHT}], [(0, x1, x2)], [[15, WIDTH]])


def truth() -> Grid:
    return play(update(0, WIDTH).render_segments(console()), [(" ", "")] * WIDTH)


@pytest.mark.parametrize(("x1", "x2", "fewer"), [
    (4, 6, True),     # inside " hello "
    (9, 10, True),    # the second half of 漢: painted from its first
    (0, 3, False),    # from the strip's start: as Textual writes it
    (12, 18, True),   # across two widgets
    (15, 17, False),  # from the second widget's start
])
def test_a_span_paints_the_true_cells_in_no_more_bytes(x1: int, x2: int, fewer: bool) -> None:
    right = truth()
    scribbled = [("?", "") if x1 - (x1 == 9) <= x < x2 else cell for x, cell in enumerate(right)]
    ours = narrow_spans.render_segments(update(x1, x2), console())
    textuals = narrow_spans.TEXTUALS_RENDER_SEGMENTS(update(x1, x2), console())
    assert play(textuals, scribbled) == right
    assert play(ours, scribbled) == right
    assert (len(ours) < len(textuals)) if fewer else (ours == textuals)


def test_a_wide_character_is_never_cut() -> None:
    assert narrow_spans.char_start(LEFT, 9) == 8
    assert narrow_spans.char_start(LEFT, 10) == 10
    assert narrow_spans.char_start(LEFT, 4) == 4


def test_install_replaces_textuals_method(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ChopsUpdate, "render_segments", narrow_spans.TEXTUALS_RENDER_SEGMENTS)
    narrow_spans.install()
    assert ChopsUpdate.render_segments is narrow_spans.render_segments


def test_textuals_method_is_the_one_ours_was_made_from() -> None:
    """A Textual upgrade that changes `ChopsUpdate.render_segments` fails here: read the new one, carry
    its change into `narrow_spans.render_segments` (or drop ours if Textual now crops to the span),
    then put the new digest here."""
    source = inspect.getsource(narrow_spans.TEXTUALS_RENDER_SEGMENTS)
    assert hashlib.sha256(source.encode()).hexdigest() == \
        "4c1cdb567e0b8354bd70cb129da78a42314c39eb8aacd5bf21951cbd5aaba0ef"
