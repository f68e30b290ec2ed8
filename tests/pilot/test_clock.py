"""The status bar shows one state, made by its chat view; one clock moves what shows elapsed time.

`ChatView.bar` is what the bar shows (bound with `data_bind`), made in one place (`show_status`);
`ChatView.now` is the clock the bar, the sidebar and the log bind to. The clock runs only while
something runs in a tab that is shown (an idle app has no timer waking it), and a tick repaints
only what it changed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat.view import ChatView
from claude_tui.ui.panels.status_bar import BarState, StatusBar
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


def ticks_of(monkeypatch: pytest.MonkeyPatch) -> dict[ChatView, int]:
    """How often each view's clock timer fired (the view's `_tick`, counted from now on)."""
    fired: dict[ChatView, int] = {}
    real = ChatView._tick

    def counted(view: ChatView) -> None:
        fired[view] = fired.get(view, 0) + 1
        real(view)

    monkeypatch.setattr(ChatView, "_tick", counted)
    return fired


def views(app: ClaudeTuiApp) -> list[ChatView]:
    screen = app.chat_screen
    assert screen is not None
    return screen.views


def bar_text(bar: StatusBar) -> str:
    return str(bar.render())


async def test_the_bar_shows_the_one_state_its_view_makes(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(140, 30)) as pilot:
        await send(pilot, "hello")
        await wait_for(pilot, lambda: idle(app), what="the turn's end")
        view = chat(app)
        bar = view.query_one(StatusBar)
        assert bar.state == view.bar, "bound: the bar holds what the view decided"
        assert view.bar.status == view.session.conversation.status, "a copy of the session's status, current"
        assert view.bar.status is not view.session.conversation.status  # so a change in place is news
        status = view.session.conversation.status
        view.bar = BarState.of(status, worktree="feature-x", host="build-box", review_count=3)
        await pilot.pause()
        shown = bar_text(bar)
        assert "review 3" in shown and "on build-box" in shown and "feature-x" in shown, shown
        view.show_status()  # the one place: from the session again
        await pilot.pause()
        assert bar.state == view.bar and "review 3" not in bar_text(bar), bar_text(bar)


async def test_idle_the_clock_does_not_wake_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fired = ticks_of(monkeypatch)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await send(pilot, "hello")
        await wait_for(pilot, lambda: idle(app), what="the turn's end")
        view = chat(app)
        await pilot.pause(0.3)  # the tick that finds nothing running and stops the clock
        moved: list[float] = []
        view.watch(view, "now", lambda now: moved.append(now), init=False)
        before = sum(fired.values())
        await pilot.pause(2.0)
        assert sum(fired.values()) == before, "no timer callback while nothing runs"
        assert not moved, "the clock stands still"


async def test_during_a_turn_the_elapsed_time_counts_and_repaints_only_when_it_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fired = ticks_of(monkeypatch)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")  # the turn then waits for you: no spinner, the time counts
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        view = chat(app)
        bar = view.query_one(StatusBar)
        await wait_for(pilot, lambda: "waiting for you · " in bar_text(bar), what="the elapsed time shown")
        first = bar_text(bar)
        repaints: list[int] = []
        real_refresh = bar.refresh

        def refresh(*args: Any, **kwargs: Any) -> StatusBar:
            repaints.append(1)
            return real_refresh(*args, **kwargs)

        bar.refresh = refresh  # type: ignore[method-assign]
        ticks_before = fired.get(view, 0)
        started = time.monotonic()
        await wait_for(pilot, lambda: bar_text(bar) != first, what="the elapsed time moving on")
        await pilot.pause(2.2 - (time.monotonic() - started))
        bar.refresh = real_refresh  # type: ignore[method-assign]
        ticks = fired.get(view, 0) - ticks_before
        assert ticks >= 6, f"the clock ticks 4×/s while the turn runs ({ticks} in 2.2 s)"
        assert 1 <= len(repaints) <= 3, f"one repaint per second shown, not per tick ({len(repaints)} for {ticks})"


async def test_a_tab_in_the_background_stops_its_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fired = ticks_of(monkeypatch)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        first = chat(app)
        await wait_for(pilot, lambda: fired.get(first, 0) > 0, what="its clock running")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: len(views(app)) == 2 and app.chat is views(app)[1], what="a second tab")
        await wait_for(pilot, lambda: views(app)[1].session.alive, what="the second CLI")
        await pilot.pause(0.3)
        assert first.session.busy, "its turn still waits for you"
        before = fired.get(first, 0)
        await pilot.pause(1.5)
        assert fired.get(first, 0) == before, "nothing of a background tab is shown: its clock stands still"
        await pilot.press("alt+1")
        await wait_for(pilot, lambda: app.chat is first, what="the first tab back")
        bar = first.query_one(StatusBar)
        await wait_for(pilot, lambda: fired.get(first, 0) > before + 2, what="its clock again")
        assert "waiting for you · " in bar_text(bar), bar_text(bar)


async def test_a_running_tools_card_redraws_its_header_once_a_second_not_per_tick() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    from claude_tui.session.items import ToolItem, ToolState
    from claude_tui.ui.log.tool_card import ToolCard

    item = ToolItem(name="Bash", input={"command": "sleep 30"}, state=ToolState.RUNNING, elapsed_seconds=10.1)
    card = ToolCard(item)

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield card

    async with One().run_test() as pilot:
        await pilot.pause()
        header = card.query_one(".tool-header", Static)
        updates: list[object] = []
        real_update = header.update

        def update(content: Any = "", **kwargs: Any) -> None:
            updates.append(content)
            real_update(content, **kwargs)

        header.update = update  # type: ignore[method-assign]
        for seconds in (10.2, 10.3, 10.4):  # ticks within the same second: the header reads the same
            item.elapsed_seconds = seconds
            card.tick()
        assert updates == [], "a tick that draws the same header draws nothing"
        item.elapsed_seconds = 11.0
        card.tick()
        assert len(updates) == 1 and " 11s" in str(updates[0]), updates


async def test_news_from_the_cli_does_not_move_the_clock_between_ticks(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        view = chat(app)
        moved: list[float] = []
        view.watch(view, "now", lambda now: moved.append(now), init=False)
        await wait_for(pilot, lambda: moved, what="the clock running")
        moved.clear()
        started = time.monotonic()
        for _ in range(50):  # a streaming answer's batches: each is drawn through show_changes
            await view.show_changes([])
        ticks_due = (time.monotonic() - started) / 0.25 + 1
        assert len(moved) <= ticks_due, f"the clock moves on its ticks, not per batch ({len(moved)} for 50 batches)"
