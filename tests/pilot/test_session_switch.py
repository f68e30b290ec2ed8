"""Switching sessions leaves exactly one chat screen: what sat above the old one goes with it.

Also: a session that cannot be read is reported, and the live session carries on.
"""

from __future__ import annotations

from pathlib import Path

from claude_tui.ui.screens.chat import ChatScreen
from claude_tui.ui.screens.help import HelpScreen
from claude_tui.ui.screens.session_browser import BrowserChoice, conversation_for
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
