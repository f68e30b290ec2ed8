"""A key pressed again never stacks a second copy of the screen it opened (issue 28, item 12).

Alt+O four times stacked four overviews (four Esc to get out). Alt+O (like F1 on Help) now closes
the one open; every other screen a key or the palette opens is opened at most once (the palette
opens over any screen and offers its commands again there).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen

from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.app.help import HelpScreen
from claude_tui.ui.browser.screen import SessionBrowserScreen
from claude_tui.ui.chat.worktree_flow import ask_worktree_session
from claude_tui.ui.dialogs.confirm import ConfirmScreen
from claude_tui.ui.dialogs.tab_prompts import TabHostScreen
from claude_tui.ui.dialogs.text_prompt import TextPrompt
from claude_tui.ui.panels.changes_panel import ChangesScreen
from claude_tui.ui.window.overview import OverviewScreen
from tests.pilot.helpers import chat, make_app, wait_for


def count(app: ClaudeTuiApp, kind: type[Screen[Any]]) -> int:
    return sum(isinstance(screen, kind) for screen in app.screen_stack)


async def ready(app: ClaudeTuiApp, pilot: Any) -> None:
    view = chat(app)
    await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                   what="CLI ready")


async def test_alt_o_pressed_again_closes_the_overview_and_never_stacks_one(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        await pilot.press("alt+o", "alt+o", "alt+o")  # in one burst
        await pilot.pause()
        assert count(app, OverviewScreen) == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: count(app, OverviewScreen) == 0, what="one Esc closes it")
        for presses in range(1, 5):
            await pilot.press("alt+o")
            await wait_for(pilot, lambda presses=presses: count(app, OverviewScreen) == presses % 2,
                           what=f"{presses} presses: the overview {'open' if presses % 2 else 'closed'}")
        assert app.screen is app.chat_screen


OPENERS: dict[str, tuple[type[Screen[Any]], Callable[[ClaudeTuiApp], object]]] = {
    "help": (HelpScreen, lambda app: app.action_help()),
    "browser": (SessionBrowserScreen, lambda app: app.action_open_sessions()),
    "browser for a new tab": (SessionBrowserScreen, lambda app: app.action_open_sessions_in_tab()),
    "what changed": (ChangesScreen, lambda app: chat(app).action_what_changed()),
    "new tab in a directory": (TextPrompt, lambda app: app.action_new_tab_elsewhere()),
    "new tab on a host": (TabHostScreen, lambda app: app.action_new_tab_on_host()),
    "rename tab": (TextPrompt, lambda app: app.action_rename_tab()),
    "worktree name": (TextPrompt, lambda app: ask_worktree_session(app, app, chat(app).session)),
}


@pytest.mark.parametrize("name", list(OPENERS))
async def test_opening_a_screen_again_from_the_palette_or_a_key_opens_no_second(tmp_path: Path, name: str) -> None:
    kind, opener = OPENERS[name]
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        opener(app)
        await wait_for(pilot, lambda: isinstance(app.screen, kind), what=f"the {name} screen")
        opener(app)  # as the palette's command does, run over the open screen
        await pilot.pause()
        assert count(app, kind) <= 1, f"{count(app, kind)} {name} screens stacked"


async def test_ctrl_q_twice_while_a_turn_runs_asks_once(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        view = chat(app)
        await view.prompt_area.send_prompt("kw:slow tell me a story")
        await wait_for(pilot, lambda: view.session.busy, what="the turn running")
        await pilot.press("ctrl+q", "ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the quit question")
        view.action_restart()  # the palette's "Restart Claude Code" over it: its own question, once
        view.action_restart()
        await pilot.pause()
        assert count(app, ConfirmScreen) == 2
        assert [screen.question for screen in app.screen_stack if isinstance(screen, ConfirmScreen)] == [
            "A turn is still running. Quit and stop it?", "A turn is still running. Restart Claude Code and stop it?"]
        await app.shutdown()


async def test_alt_w_twice_while_a_turn_runs_asks_once(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: len(app.chat_screen.views) == 2, what="a second tab")
        view = app.chat_screen.views[1]
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="its CLI ready")
        await view.prompt_area.send_prompt("kw:slow tell me a story")
        await wait_for(pilot, lambda: view.session.busy, what="the turn running")
        await pilot.press("alt+w", "alt+w")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the close question")
        await pilot.pause()
        assert count(app, ConfirmScreen) == 1
        await app.shutdown()
