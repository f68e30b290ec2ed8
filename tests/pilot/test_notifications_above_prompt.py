"""Defect 9: a notification sits above the prompt, never over its border or the status bar."""

from __future__ import annotations

from pathlib import Path

from tests.pilot.helpers import chat, make_app, wait_for


async def test_a_notification_leaves_the_prompt_and_the_status_bar_uncovered(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive, what="ready")
        for lines in (1, 5):  # and after the prompt grew
            view.prompt_area.prompt.text = "\n".join(f"line {n}" for n in range(lines))
            app.notify(f"a notice with the prompt {lines} lines high", timeout=30)
            await wait_for(pilot, lambda: len(app.screen.query("Toast")) > 0, what="the toast")
            await pilot.pause(0.1)
            composer_top = view.prompt_area.composer.region.y
            await wait_for(pilot, lambda: all(t.region.bottom <= view.prompt_area.composer.region.y
                                              for t in app.screen.query("Toast")),
                           what=f"every toast above the prompt (its top at {composer_top})")
            app.clear_notifications()
            await pilot.pause(0.1)
