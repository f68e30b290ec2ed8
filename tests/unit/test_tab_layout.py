"""The tab bar's layout: every tab keeps its number and state glyph at any width; names give way."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from claude_tui.protocol.units import cost
from claude_tui.ui.chat.tab_summary import TabState, TabSummary
from claude_tui.ui.window.tab_layout import ATTENTION, GLYPHS, MORE, Cell, fit, lay_out

STATES = list(TabState)


def eight(name: str = "a fairly long session name") -> tuple[TabSummary, ...]:
    return tuple(TabSummary(f"t{i}", f"{name} {i}", STATES[i % len(STATES)], cost_usd=0.5 * i,
                            attention=i == 3) for i in range(1, 9))


def text(cells: list[Cell]) -> str:
    return "".join(part.text for cell in cells for part in cell.parts)


def tab_cells(cells: list[Cell]) -> list[Cell]:
    return [cell for cell in cells if cell.tab_id is not None]


def glyph(cell: Cell) -> str:
    return next(part.text for part in cell.parts if part.role in {s.name.lower() for s in TabState})


@pytest.mark.parametrize("width", [80, 60, 48])
def test_eight_tabs_keep_every_number_and_state(width: int) -> None:
    tabs = eight()
    cells = lay_out(tabs, "t1", width)
    assert cell_len(text(cells)) <= width
    drawn = tab_cells(cells)
    assert [cell.tab_id for cell in drawn] == [tab.tab_id for tab in tabs]
    for position, (cell, tab) in enumerate(zip(drawn, tabs), start=1):
        numbers = [part.text for part in cell.parts if part.role == "number"]
        assert numbers == [str(position)]
        assert glyph(cell) == GLYPHS[tab.state]
    attention = next(cell for cell in drawn if cell.tab_id == "t3")
    assert any(part.text.strip() == ATTENTION for part in attention.parts)
    assert attention.look == "attention"


def test_eight_tabs_at_80_columns_still_show_a_bit_of_every_name() -> None:
    names = [part.text.strip() for cell in tab_cells(lay_out(eight(), "t1", 80)) for part in cell.parts
             if part.role == "name"]
    assert len(names) == 8
    for name, tab in zip(names, eight()):
        assert name.endswith(MORE) and len(name) >= 2 and tab.name.startswith(name[:-1]), names


def test_wide_terminal_shows_names_and_costs_whole() -> None:
    tabs = eight()
    line = text(lay_out(tabs, "t1", 400))
    for tab in tabs:
        assert tab.name in line
        if tab.cost_usd:
            assert cost(tab.cost_usd) in line


def test_costs_go_before_names_are_cut_short() -> None:
    tabs = eight("name")
    whole = cell_len(text(lay_out(tabs, "t1", 400)))
    line = text(lay_out(tabs, "t1", whole - 1))
    assert "$" not in line
    assert all(tab.name in line for tab in tabs)


def test_the_tab_in_view_never_carries_the_attention_mark() -> None:
    cells = tab_cells(lay_out(eight(), "t3", 200))
    shown = next(cell for cell in cells if cell.tab_id == "t3")
    assert shown.look == "active"
    assert all(part.role != "attention-mark" for part in shown.parts)


def test_too_many_tabs_show_a_run_around_the_active_one() -> None:
    tabs = tuple(TabSummary(f"m{i}", f"session {i}", TabState.IDLE) for i in range(1, 31))
    for active in ("m1", "m15", "m30"):
        cells = lay_out(tabs, active, 40)
        assert cell_len(text(cells)) <= 40
        ids = [cell.tab_id for cell in tab_cells(cells)]
        assert active in ids
        assert ids == [f"m{i}" for i in range(int(ids[0][1:]), int(ids[-1][1:]) + 1)]  # one run, in order
        assert (cells[0].look == "more") == (ids[0] != "m1")
        assert (cells[-1].look == "more") == (ids[-1] != "m30")


def test_wide_characters_are_measured_in_cells() -> None:
    tabs = tuple(TabSummary(f"w{i}", "大きな名前のタブです" * 2, TabState.IDLE) for i in range(6))
    for width in (40, 60, 80, 120):
        assert cell_len(text(lay_out(tabs, "w0", width))) <= width


def test_names_are_drawn_printable() -> None:
    tabs = (TabSummary("x", "evil\x1b]52;c;aGk=\x07\nname", TabState.IDLE),)
    line = text(lay_out(tabs, "x", 80))
    assert "\x1b" not in line and "\x07" not in line and "\n" not in line
    assert "␛]52;c;aGk=␇␊name" in line


def test_no_tabs_draw_nothing() -> None:
    assert lay_out((), "", 80) == []


def test_fit_cuts_with_an_ellipsis_in_cells() -> None:
    assert fit("hello", 10) == "hello"
    assert fit("hello world", 6) == "hello…"
    assert cell_len(fit("大きな名前", 6)) <= 6 and fit("大きな名前", 6).endswith("…")
    assert fit("hello", 1) == "…"
    assert fit("hello", 0) == ""


def test_a_remote_tab_is_marked_with_its_host() -> None:
    # Issue 28, item 19: a local and a remote `rproj` must not look the same.
    tabs = (TabSummary("l", "rproj", TabState.IDLE), TabSummary("r", "rproj", TabState.IDLE, host="box\x1b[2J"))
    local, remote = tab_cells(lay_out(tabs, "l", 80))
    assert text([local]).rstrip().endswith("○ rproj")
    assert text([remote]).rstrip().endswith("○ box␛[2J:rproj")
    wide = (TabSummary("h", "a long remote session name", TabState.IDLE, host="build"),) * 4
    for cell in tab_cells(lay_out(wide, "x", 60)):  # names cut from the end: the host stays
        assert " build:" in text([cell])
