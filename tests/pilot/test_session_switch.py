"""Switching sessions leaves exactly one chat screen: what sat above the old one goes with it.

Also: a session that cannot be read is reported, and the live session carries on.
"""

from __future__ import annotations

from pathlib import Path

from claude_tui.ui.app.help import HelpScreen
from claude_tui.ui.browser.screen import BrowserChoice, conversation_for
from claude_tui.ui.dialogs.confirm import ConfirmScreen
from claude_tui.ui.window.screen import ChatScreen
from tests.pilot.helpers import make_app, wait_for
from tests.pilot.test_resume_fork_markers import SESSION, ready, transcript


async def test_switching_with_help_open_replaces_the_chat_and_closes_what_was_above(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    file = transcript(tmp_path, 0.02)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        first = app.chat
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        choice = BrowserChoice(SESSION, file, tmp_path, fork=False)
        await app._switch_session(choice, conversation_for(choice))
        await wait_for(pilot, lambda: app.chat is not first and ready(app), what="the resumed session ready")
        chats = [screen for screen in app.screen_stack if isinstance(screen, ChatScreen)]
        assert chats == [app.chat_screen], "one chat screen"
        assert app.screen is app.chat_screen, "help belonged to the old session and closed with it"
        assert not first.session.connection.alive  # type: ignore[union-attr]


async def test_an_unreadable_session_is_reported_and_the_current_one_stays(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        first = app.chat
        missing = BrowserChoice(SESSION, tmp_path / "gone" / f"{SESSION}.jsonl", tmp_path, fork=False)
        app._load_choice(missing)
        await wait_for(pilot, lambda: any("Could not open that session" in str(n.message)
                                          for n in app._notifications), what="the error shown")
        assert app.chat is first and first.session.connection.alive  # type: ignore[union-attr]
        assert app.is_running


async def test_a_session_open_in_another_tab_is_switched_to_not_opened_twice(tmp_path: Path) -> None:
    """Two CLIs resuming one session both append to its transcript from the same point: its history
    would split in two. Choosing it again goes back to the tab that has it."""
    app = make_app(tmp_path)
    file = transcript(tmp_path, 0.02)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        choice = BrowserChoice(SESSION, file, tmp_path, fork=False)
        await app._switch_session(choice, conversation_for(choice))
        await wait_for(pilot, lambda: ready(app), what="the resumed session ready")
        resumed = app.chat
        await pilot.press("ctrl+n")
        screen = app.chat_screen
        assert screen is not None
        await wait_for(pilot, lambda: len(screen.views) == 2 and app.chat is not resumed and ready(app),
                       what="a second tab")
        app._browser_choice(BrowserChoice(SESSION, file, tmp_path, fork=False))
        await wait_for(pilot, lambda: app.chat is resumed, what="back to the tab that has it")
        await pilot.pause(0.3)
        assert len(screen.views) == 2
        assert [view.session.options.resume for view in screen.views].count(SESSION) == 1
        assert any("open in tab 1" in str(n.message) for n in app._notifications)


async def test_opening_another_session_over_a_running_turn_asks_first(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    file = transcript(tmp_path, 0.02)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        first = app.chat
        assert first is not None
        await first.prompt_area.send_prompt("kw:slow a long one")
        await wait_for(pilot, lambda: first.session.busy, what="the turn running")
        choice = BrowserChoice(SESSION, file, tmp_path, fork=False)
        app._browser_choice(choice)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("tab", "n")
        await wait_for(pilot, lambda: app.screen is app.chat_screen, what="the question answered")
        await pilot.pause(0.3)
        assert app.chat is first and first.session.busy, "kept working: the turn runs on"
        app._browser_choice(choice)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question again")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: app.chat is not first and ready(app), what="the other session open")
