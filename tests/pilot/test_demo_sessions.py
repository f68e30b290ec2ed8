"""The demo (`claude-tui --demo`, the fake CLI) shows the session browser with recorded sessions,
its /cost agrees with the status bar, and recordings of tools its CLI has off leave no red errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import claude_tui
from claude_tui.cli import parse_app_args
from claude_tui.config import Config
from claude_tui.session.items import NoteItem, ToolItem
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.app.launch import build_options, demo_config_root
from claude_tui.ui.browser.screen import SessionBrowserScreen
from claude_tui.ui.panels.status_bar import StatusBar
from tests.pilot.helpers import chat, idle, send, wait_for


@pytest.fixture
def demo_app(monkeypatch: pytest.MonkeyPatch) -> ClaudeTuiApp:
    options = build_options(parse_app_args(["--demo"]), None, [], {}, False, None, None)
    options.env["FAKE_CLAUDE_DELAY_MS"] = "0"
    # The fake CLI runs as `python -m claude_tui.fakecli`: make it this checkout's, as the app is.
    options.env["PYTHONPATH"] = str(Path(claude_tui.__file__).resolve().parents[1])
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(demo_config_root(Path(options.cwd or "."))))
    return ClaudeTuiApp(options, Config(typeahead_guard_ms=0))


async def test_the_demo_browser_lists_recorded_sessions_and_a_fork(demo_app: ClaudeTuiApp) -> None:
    app = demo_app
    async with app.run_test(size=(130, 40)) as pilot:
        await wait_for(pilot, lambda: app.chat is not None and app.chat.session.connection.alive, what="the demo CLI", timeout=30)
        await pilot.press("f4")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionBrowserScreen), what="the browser", timeout=30)
        browser = app.screen
        await wait_for(pilot, lambda: browser.state.listed and len(browser.table.listing.rows) == 5, what="5 sessions", timeout=30)
        rows = browser.table.listing.rows
        assert "No sessions" not in str(browser.query_one("#browser-empty").render())
        assert [r.session_id[:8] for r in rows if r.forked_from] == ["46934f4f"]
        assert all(r.cwd == app.options.cwd for r in rows)  # recorded elsewhere, moved into the demo project


async def test_demo_cost_agrees_with_the_status_bar_and_no_todowrite_error(demo_app: ClaudeTuiApp) -> None:
    app = demo_app
    async with app.run_test(size=(130, 40)) as pilot:
        await send(pilot, "kw:tasks do the work")
        await wait_for(pilot, lambda: idle(app), what="the tasks turn", timeout=30)
        assert [t.name for t in chat(app).session.conversation.items if isinstance(t, ToolItem) and t.name == "TodoWrite"] == []
        assert not any(isinstance(t, ToolItem) and t.result_is_error for t in chat(app).session.conversation.items)
        await send(pilot, "/cost")
        await wait_for(pilot, lambda: idle(app) and any(isinstance(i, NoteItem) and "cost" in i.text.lower()
                                                         for i in chat(app).session.conversation.items), what="/cost", timeout=30)
        total = chat(app).session.conversation.status.cost_total
        assert total > 0
        note = next(i for i in reversed(chat(app).session.conversation.items) if isinstance(i, NoteItem) and "cost" in i.text.lower())
        assert f"${total:.4f}" in note.text
        bar = str(chat(app).query_one(StatusBar).render_status(chat(app).session.conversation.status))
        assert f"${total:.4f}" in bar or f"${total:.2f}" in bar


async def test_a_resumed_demo_sessions_cost_agrees_too(demo_app: ClaudeTuiApp) -> None:
    """The fake CLI counts a resumed session's history in its totals, as the real CLI does."""
    from claude_tui.ui.browser.screen import BrowserChoice, conversation_for

    app = demo_app
    async with app.run_test(size=(130, 40)) as pilot:
        await wait_for(pilot, lambda: app.chat is not None and app.chat.session.connection.alive, what="the demo CLI",
                       timeout=30)
        path = next(Path(app.options.cwd or ".").parent.glob("demo-claude/projects/*/1371d147-*.jsonl"))
        choice = BrowserChoice(path.stem, path, Path(app.options.cwd or "."))
        first = app.chat
        await app._switch_session(choice, conversation_for(choice))
        await wait_for(pilot, lambda: app.chat is not first and app.chat.session.connection.alive, what="resumed", timeout=30)
        await send(pilot, "/cost")
        await wait_for(pilot, lambda: idle(app) and any(isinstance(i, NoteItem) and "Estimated cost" in i.text
                                                         for i in chat(app).session.conversation.items), what="/cost",
                       timeout=30)
        note = next(i for i in chat(app).session.conversation.items if isinstance(i, NoteItem) and "Estimated cost" in i.text)
        assert "$0.0424" in note.text and chat(app).session.conversation.status.cost_total == pytest.approx(0.04242)
