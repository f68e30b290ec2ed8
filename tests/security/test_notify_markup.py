"""Toasts and palette entries carry CLI/model text: it is shown literally, never parsed as markup."""

from __future__ import annotations

from pathlib import Path

from tests.pilot.helpers import make_app

HOSTILE = "echo [/] done [@click=app.quit]click me[/] [bold]x"


async def test_notifications_do_not_parse_markup(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        app.notify(HOSTILE, severity="error")
        app.screen.notify(HOSTILE)  # the Widget.notify path too
        await pilot.pause(0.3)
        svg = app.export_screenshot().replace("&#160;", " ")
        assert "[@click=app.quit]click" in svg
        assert app.is_running


async def test_palette_escapes_model_names(tmp_path: Path) -> None:
    from claude_tui.ui.palette.commands import ChatCommands  # noqa: F401 - registered in the app

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        chat = app.chat
        for _ in range(100):
            if chat.session.conversation.models:
                break
            await pilot.pause(0.05)
        chat.session.conversation.models.append({"value": "evil", "displayName": "Evil [/] $5/[MTok]",
                                         "description": "desc [b]x"})
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"Evil")
        await pilot.pause(0.5)
        svg = app.export_screenshot().replace("&#160;", " ")
        assert "$5/[MTok]" in svg
        assert app.is_running
