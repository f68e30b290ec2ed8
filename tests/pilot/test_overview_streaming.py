"""Alt+O and Esc while a tab streams (issue 27, defect 2; issue 28, item 12).

Every batch a streaming tab draws makes the window hand the overview its tabs again. That came
while the overview was pushed but its table not mounted yet, or closing with its table gone, and
ended the app (`NoMatches: No nodes match 'OverviewTable'`).
"""

from __future__ import annotations

from pathlib import Path

from claude_tui.ui.window.overview import OverviewScreen
from tests.pilot.helpers import chat, make_app, wait_for

ROUNDS = 10


async def test_opening_and_closing_the_overview_while_a_tab_streams_never_ends_the_app(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="CLI ready")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: len(app.chat_screen.views) == 2, what="a second tab")
        streaming = app.chat_screen.views[1]
        await wait_for(pilot, lambda: streaming.session.connection.alive and streaming.session.conversation.commands,
                       what="its CLI ready")
        await streaming.prompt_area.send_prompt("kw:slow tell me a story")  # word by word, for seconds
        await wait_for(pilot, lambda: streaming.session.busy, what="the tab streaming")
        rounds = 0
        while rounds < ROUNDS and streaming.session.busy:
            await pilot.press("alt+o", "escape")
            assert app.is_running, "the app ended"
            rounds += 1
        await wait_for(pilot, lambda: not isinstance(app.screen, OverviewScreen), what="the overview closed")
        assert rounds >= 3, f"the story ended after {rounds} rounds: the test proved little"
        await app.shutdown()
