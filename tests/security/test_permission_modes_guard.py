"""Entering the permission dialog's "Always allow…" picker or its editor re-arms the typeahead guard:
an `a` that starts a word and the Enter that ends it cannot save a permanent rule, and Ctrl+S on the
heels of `e` allows nothing."""

from __future__ import annotations

import pytest

from claude_tui.ui.dialogs import base as dialog_base
from claude_tui.ui.dialogs.permission import PermissionScreen
from tests.pilot.test_dialogs import DialogHost, FakeClock, bash_request, screen_text, settle

GUARD_S = 0.3


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(dialog_base, "time", fake)
    return fake


async def _past_the_opening_guard(pilot, clock: FakeClock) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot)
    clock.now += GUARD_S + 0.01


async def test_a_then_enter_typed_fast_saves_no_rule(clock: FakeClock) -> None:
    request = bash_request()
    assert len(request.suggestions) > 1  # "a" opens the picker
    dialog = PermissionScreen(request, guard_ms=int(GUARD_S * 1000))
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await _past_the_opening_guard(pilot, clock)
        await pilot.press("a", "enter")
        await settle(pilot)
        assert app.results == [] and dialog.mode == "always" and dialog.armed
        assert "keys paused" in screen_text(app)  # said in the picker: the key bar is hidden there
        await pilot.press("1")  # still typing: swallowed, the guard held up, the picker kept
        await settle(pilot)
        assert app.results == [] and dialog.mode == "always" and not dialog.waiting and dialog.armed
        clock.now += GUARD_S + 0.01
        await pilot.pause(0.4)  # the guard timer notices (real time)
        assert "keys paused" not in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
    [decision] = app.results
    assert decision is not None and decision.updated_permissions == [request.suggestions[0]]


async def test_e_then_ctrl_s_typed_fast_allows_nothing(clock: FakeClock) -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=int(GUARD_S * 1000))
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await _past_the_opening_guard(pilot, clock)
        await pilot.press("e", "ctrl+s")
        await settle(pilot)
        assert app.results == [] and dialog.mode == "edit"
        clock.now += GUARD_S + 0.01
        await pilot.press("ctrl+s")
        await settle(pilot)
    [decision] = app.results
    assert decision is not None and decision.allow and decision.words == "Allowed once"
