"""The chat view's parts exist from its constructor and own their handlers (issue 29).

No attribute appears only on mount (a view that never mounted still answers `shutdown`), no
part's callback is overwritten from outside, and the find bar lives in the part that handles
its messages, `LogNavigator`.
"""

from __future__ import annotations

from pathlib import Path

from claude_tui.transport.options import CliOptions
from claude_tui.ui.chat.log_navigator import LogNavigator
from claude_tui.ui.chat.session import ChatSession
from claude_tui.ui.chat.view import ChatView
from claude_tui.ui.panels.find_bar import FindBar
from tests.pilot.helpers import chat, make_app, wait_for


async def test_a_view_has_its_parts_before_it_is_mounted(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)):
        session = ChatSession(CliOptions(cwd=str(tmp_path)))
        view = ChatView(session, app)
        area = view.prompt_area
        assert (view.dialogs.node, view.copier.node, view.typeahead.prompt) == (view, view, area.prompt)
        assert view.drawer is not None and view.controls.node is view
        # Handed in, not set on the prompt after it was made.
        assert area.prompt is area.composer.prompt
        assert area.prompt.take_queued == area.take_queued
        assert area.prompt.project_root == tmp_path.resolve()
        assert area.navigator.prompt is area.prompt
        assert await area.shutdown() is None, "never mounted: its draft was never loaded, so none is saved"
        await session.shutdown(None)


async def test_the_find_bar_lives_in_the_navigator(tmp_path: Path) -> None:
    """Mounted into `LogNavigator` (above the prompt), whose handlers take its Esc back to the prompt."""
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = chat(app)
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: bool(view.query(FindBar)) and view.query_one("#find-input").has_focus,
                       what="the find bar")
        bar = view.query_one(FindBar)
        assert isinstance(bar.parent, LogNavigator) and bar.parent is view.prompt_area.navigator
        assert bar.region.bottom <= view.prompt_area.composer.region.y, "above the prompt"
        await pilot.press("escape")
        await wait_for(pilot, lambda: view.query_one("#prompt").has_focus, what="the prompt again")
