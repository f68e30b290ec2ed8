"""Snapshots of the tab bar (every state, attention, long and wide names, 8 and 20 tabs) and the
overview, at 80×24 and 160×48 (the issue's two sizes). See `tab_states.py` for the fixed values."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.snapshot.settle import settle
from tests.snapshot.tab_states import EIGHT, MANY, THREE, TabsApp

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]

BARS = [
    ("three tabs, the first streaming", THREE, "t1"),
    ("eight tabs: every state, two need you (4 is in view)", EIGHT, "d"),
    ("eight tabs, one that needs you in view (no mark on it)", EIGHT, "b"),
    ("twenty tabs, the 14th in view", MANY, "m14"),
]


async def _settle(pilot: Pilot[None]) -> None:
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES)
def test_tab_bars(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(TabsApp(BARS), run_before=_settle, terminal_size=size)


def test_tab_bars_light_theme(snap_compare) -> None:
    assert snap_compare(TabsApp(BARS, theme="textual-light"), run_before=_settle, terminal_size=(160, 48))


@pytest.mark.parametrize("size", SIZES)
def test_overview(snap_compare, size: tuple[int, int]) -> None:
    app = TabsApp([("", EIGHT, "a")], overview=(EIGHT, "a"))
    assert snap_compare(app, run_before=_settle, terminal_size=size)


def test_overview_cursor_moved(snap_compare) -> None:
    async def move(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("down", "down")
        await settle(pilot)

    app = TabsApp([("", THREE, "t1")], overview=(THREE, "t1"))
    assert snap_compare(app, run_before=move, terminal_size=(80, 24))
