"""Which slash commands open a manage screen (instead of going to the CLI as a prompt)."""

from __future__ import annotations

from typing import Any

from textual.app import App

from claude_tui.ui.manage.base import ManageScreen, SessionAsker

__all__ = ["SCREENS", "screen_for", "open_for"]

SCREENS = {
    "/mcp": ("claude_tui.ui.manage.mcp", "McpScreen", "MCP servers: state, tools; turn off/on, reconnect"),
    "/context": ("claude_tui.ui.manage.context", "ContextScreen", "What fills the context window"),
    "/permissions": ("claude_tui.ui.manage.permissions", "PermissionsScreen",
                     "Permission rules: where each is kept; add or remove this session's"),
    "/hooks": ("claude_tui.ui.manage.hooks", "HooksScreen", "Hooks by event, matcher and source"),
    "/usage": ("claude_tui.ui.manage.usage", "UsageScreen", "Plan limits and this session's cost"),
}


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
