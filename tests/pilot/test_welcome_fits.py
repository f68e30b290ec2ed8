"""Defect 9: at 60×20 with tabs the welcome box's top edge was cut (the log followed its end)."""

from __future__ import annotations

from pathlib import Path

from tests.pilot.helpers import chat, make_app, wait_for


async def test_the_welcome_box_shows_its_top_edge_in_a_short_log(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: chat(app).session.connection.alive, what="ready")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: len(app.sessions) == 2 and chat(app).session.connection.alive, what="tab 2")
        log = chat(app).log_widget
        welcome = log.query_one(".welcome")
        await wait_for(pilot, lambda: welcome.region.height and welcome.region.y >= log.region.y,
                       what="the welcome's top edge inside the log")
        # The conversation starting follows the end again.
        await pilot.press(*"hello kw:plain", "enter")
        await wait_for(pilot, lambda: not log.query(".welcome") and log.follows_end, what="following the answer")


async def test_a_roomy_log_keeps_the_welcome_margin(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: chat(app).session.connection.alive, what="ready")
        welcome = chat(app).log_widget.query_one(".welcome")
        await pilot.pause(0.2)
        assert welcome.styles.margin.top == 4
