"""Esc while a permission dialog waits is the chat's Esc: the prompt's menu first, then the turn."""

from __future__ import annotations

from pathlib import Path

from claude_tui.session.items import ToolItem, ToolState
from claude_tui.ui.dialogs.permission import PermissionScreen
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


async def test_escape_on_a_waiting_dialog_closes_the_menu_then_interrupts_the_turn(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash run it")
        await wait_for(pilot, lambda: isinstance(app.screen, PermissionScreen), what="permission dialog")
        dialog = app.screen
        assert isinstance(dialog, PermissionScreen) and dialog.waiting
        view = chat(app)
        await pilot.press("slash")  # typed on into the prompt: its command menu opens
        await wait_for(pilot, lambda: bool(view.prompt_area.composer.menu.display), what="the prompt's menu")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not view.prompt_area.composer.menu.display, what="the menu closed")
        assert app.screen is dialog and view.session.busy, "the first Esc only closed the menu"
        await pilot.press("escape")
        await wait_for(pilot, lambda: idle(app) and app.screen is not dialog, what="the turn interrupted")
        tools = [item for item in view.session.conversation.items if isinstance(item, ToolItem)]
        assert [tool.state for tool in tools] == [ToolState.DENIED], "the command never ran"
