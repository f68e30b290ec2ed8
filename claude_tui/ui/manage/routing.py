"""Which slash commands open a manage screen (instead of going to the CLI as a prompt)."""

from __future__ import annotations

from typing import Any

from textual.app import App

from claude_tui.completion import OWN_SCREENS
from claude_tui.ui.manage.base import ManageScreen, SessionAsker

__all__ = ["SCREENS", "screen_for", "open_for"]

_CLASSES = {"mcp": "mcp.McpScreen", "context": "context.ContextScreen", "permissions": "permissions.PermissionsScreen",
            "hooks": "hooks.HooksScreen"}
SCREENS = {f"/{name}": (f"claude_tui.ui.manage.{_CLASSES[name].split('.')[0]}", _CLASSES[name].split(".")[1], words)
           for name, words in OWN_SCREENS.items()}
"""/command -> (module, screen class, what it shows)."""


def screen_for(command: str, session: Any) -> ManageScreen | None:
    """The screen `command` opens ("/mcp", "/context" …, alone on the line), or None."""
    entry = SCREENS.get(command.strip().lower())
    if entry is None:
        return None
    import importlib

    module = importlib.import_module(entry[0])
    screen: ManageScreen = getattr(module, entry[1])(SessionAsker(session))
    return screen


def open_for(app: App[Any], session: Any, command: str) -> bool:
    screen = screen_for(command, session)
    if screen is None:
        return False
    app.push_screen(screen)
    return True
