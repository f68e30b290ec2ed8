"""Claude Code's slash commands that claude-tui answers itself (`claude_tui/slash_routes.py`).

A typed `/resume` opens the browser, `/hooks` says in one line what claude-tui has instead:
never the CLI's "isn't available in this environment". The view hands in its actions by the
names the routes use (`tab_commands`), so this module knows nothing of the view (no import circle).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from textual.app import App

from claude_tui.slash_routes import local_route
from claude_tui.ui.chat.controls import Controls
from claude_tui.ui.chat.host import ChatHost


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


def tab_commands(app: App[object], host: ChatHost, controls: Controls, own: Mapping[str, Callable[[], None]],
                 say: Callable[[str], None]) -> LocalCommands:
    """The commands of one tab: the app's screens, its controls, and `own`, the view's actions."""

    def later(job: Callable[[], Awaitable[None]]) -> Callable[[], None]:
        def run() -> None:  # an app worker, as the palette runs them: the switch replaces the view
            app.run_worker(job(), group="switch-session", exclusive=True, exit_on_error=False)

        return run

    def manage(name: str) -> Callable[[], None]:
        def open_screen() -> None:
            from claude_tui.ui.manage.routing import open_for

            open_for(app, controls.session, f"/{name}")

        return open_screen

    async def quit_app() -> None:
        await app.run_action("app.quit_app")

    return LocalCommands({
        "sessions": host.action_open_sessions, "usage": host.action_usage, "help": host.action_help,
        "fork": later(controls.fork_session), "quit": later(quit_app), "plan": lambda: controls.set_mode("plan"),
        "theme": app.action_change_theme, **{name: manage(name) for name in ("mcp", "context", "permissions", "hooks")},
        **own,
    }, say)
