"""The manage screens in the app, against the fake CLI (which answers as 2.1.330 did): typed as slash
commands they open the screen and never reach Claude; changes go out as control requests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_tui.ui.kit.safe_input import SafeInput
from claude_tui.ui.manage.base import ManageScreen
from claude_tui.ui.manage.mcp import McpScreen
from claude_tui.ui.manage.permissions import PermissionsScreen
from tests.pilot.helpers import chat, make_app, send, wait_for
from tests.pilot.test_dialogs import screen_text


async def test_slash_mcp_opens_the_screen_and_toggles_through_the_cli(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        await send(pilot, "/mcp")
        await wait_for(pilot, lambda: isinstance(app.screen, McpScreen) and app.screen.loads, what="/mcp")
        screen = app.screen
        assert isinstance(screen, McpScreen)
        assert chat(app).session.conversation.status.turns == 0  # nothing went to Claude
        assert chat(app).prompt_area.composer.prompt.text == ""
        assert "notes  connected · 2 tools" in screen_text(app)
        await pilot.press("space")
        await wait_for(pilot, lambda: "notes  turned off" in screen_text(app), what="notes off")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, McpScreen), what="closed")


async def test_slash_permissions_adds_a_session_rule(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        await send(pilot, "/permissions")
        await wait_for(pilot, lambda: isinstance(app.screen, PermissionsScreen) and app.screen.loads,
                       what="/permissions")
        screen = app.screen
        assert isinstance(screen, PermissionsScreen)
        await pilot.press("a")
        screen.query_one("#rule-entry", SafeInput).value = "ask WebFetch"
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(r.rule == "WebFetch" and r.behavior == "ask" for r in screen.rules),
                       what="the rule listed")
        assert "Always asked (2)" in screen_text(app)


async def test_renaming_a_tab_names_the_session_in_claude_code(tmp_path: Path) -> None:
    from claude_tui.ui.dialogs.tab_prompts import TAB_NAME
    from claude_tui.ui.dialogs.text_prompt import TextPrompt
    from claude_tui.ui.window.screen import ChatScreen

    app = make_app(tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        await send(pilot, "hello")
        session = chat(app).session
        await wait_for(pilot, lambda: session.conversation.status.turns == 1, what="a turn")
        sent: list[dict[str, object]] = []
        request = session.connection.request

        async def spy(payload: dict[str, object], timeout: float = 30) -> object:
            sent.append(payload)
            return await request(payload, timeout)

        session.connection.request = spy  # type: ignore[method-assign]
        screen = app.screen
        assert isinstance(screen, ChatScreen)
        screen.ask_rename()
        await wait_for(pilot, lambda: isinstance(app.screen, TextPrompt) and app.screen.id == TAB_NAME
                       and app.screen.query("#text-prompt-input"), what="the name dialog")
        app.screen.query_one("#text-prompt-input", SafeInput).value = "Notes work"
        await pilot.press("enter")
        await wait_for(pilot, lambda: sent, what="rename_session")
    assert sent[0]["request"] == {"subtype": "rename_session", "title": "Notes work", "source": "host",
                                  "session_id": session.conversation.status.session_id}
    assert session.name == "Notes work"


async def _open_in_a_burst(pilot: Any, app: Any, command: str, *keys: str) -> Any:
    """Type `command` and press Enter with `keys` right behind it, as one burst (what the guard is for)."""
    view = chat(app)
    await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                   what="CLI ready")
    view.prompt_area.composer.prompt.text = command
    view.prompt_area.composer.prompt.focus()
    await pilot.press("enter", *keys)
    await wait_for(pilot, lambda: isinstance(app.screen, ManageScreen) and app.screen.loads, what=command)
    screen = app.screen
    await wait_for(pilot, lambda: not screen.armed, what="the guard to fall")
    await pilot.pause()
    return screen


async def test_keys_typed_behind_slash_mcp_neither_toggle_nor_reconnect(tmp_path: Path) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open_in_a_burst(pilot, app, "/mcp", "space", "r", "space")
        assert isinstance(screen, McpScreen)
        assert screen.loads == 1 and "notes  connected" in screen_text(app)  # no change asked, none redrawn
        assert "Turning" not in screen_text(app) and "Reconnecting" not in screen_text(app)
        await pilot.press("space")  # a key after the guard acts
        await wait_for(pilot, lambda: "notes  turned off" in screen_text(app), what="notes off")


async def test_keys_typed_behind_slash_permissions_neither_add_nor_remove(tmp_path: Path) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open_in_a_burst(pilot, app, "/permissions", "d", "a", "x")
        assert isinstance(screen, PermissionsScreen)
        assert screen.loads == 1 and not screen.has_class("-adding")
        assert screen.query_one("#rule-entry", SafeInput).value == ""
        await pilot.press("a")
        assert screen.has_class("-adding")
