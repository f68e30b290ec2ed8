"""Claude Code's slash commands that claude-tui answers itself (`claude_tui/slash_routes.py`).

A typed `/resume` opens the browser, `/hooks` says in one line what claude-tui has instead:
never the CLI's "isn't available in this environment". The view hands in its actions by the
names the routes use, so this module knows nothing of the view (no import circle).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from claude_tui.slash_routes import local_route


class LocalCommands:
    def __init__(self, actions: Mapping[str, Callable[[], None]], say: Callable[[str], None]) -> None:
        self._actions = actions
        self._say = say

    @property
    def screens(self) -> set[str]:
        """The screen names this view can open (every `Route.screen` must be one)."""
        return set(self._actions)

    def answer(self, text: str) -> bool:
        """True when `text` was a command claude-tui answered (it never goes to the CLI then)."""
        route = local_route(text)
        if route is None:
            return False
        action = self._actions.get(route.screen) if route.screen else None
        if action is None:
            self._say(route.says or f"{text.split()[0]}: {route.description}.")
            return True
        action()
        return True
