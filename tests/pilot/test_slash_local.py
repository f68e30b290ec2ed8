"""Claude Code's panels typed in the prompt: claude-tui's screen opens, or one line says what is here."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.slash_routes import LOCAL
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.browser.screen import SessionBrowserScreen
from tests.pilot.helpers import chat, make_app, wait_for


async def _record(sent: list[str], text: str) -> bool:
    sent.append(text)
    return True


def _notes(app: ClaudeTuiApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def _typed(pilot: object, app: ClaudeTuiApp, text: str) -> None:
    prompt = chat(app).query_one("#prompt")
    prompt.text = text  # type: ignore[attr-defined]
    prompt.focus()
    await pilot.press("enter")  # type: ignore[attr-defined]


async def test_every_screen_a_route_names_is_one_the_view_has(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)):
        screens = chat(app).local_commands.screens
        assert {route.screen for route in LOCAL.values() if route.screen} <= screens


async def test_resume_opens_the_browser_and_memory_says_one_line(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="CLI ready")
        sent: list[str] = []
        monkeypatch.setattr(view.session, "send", lambda text, **_: _record(sent, text))
        await _typed(pilot, app, "/memory")
        await wait_for(pilot, lambda: any(n.startswith("/memory: ") for n in _notes(app)), what="the /memory line")
        await _typed(pilot, app, "/resume")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionBrowserScreen), what="the session browser")
        assert sent == []  # neither reached Claude Code (it would say "isn't available")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, SessionBrowserScreen), what="back")
        await _typed(pilot, app, "/context all")
        await wait_for(pilot, lambda: sent == ["/context all"], what="/context all goes to Claude Code")
