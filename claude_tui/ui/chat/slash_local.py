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
    def __init__(self, actions: Mapping[str, Callable[[], None]], say: Callable[[str], None],
                 with_argument: Mapping[str, Callable[[str], None]] | None = None) -> None:
        self._actions = actions
        self._say = say
        self._with_argument = with_argument or {}
        """What a `Route.takes_argument` command does with its words (`/model sonnet`)."""

    @property
    def screens(self) -> set[str]:
        """The screen names this view can open (every `Route.screen` must be one)."""
        return set(self._actions)

    def answer(self, text: str) -> bool:
        """True when `text` was a command claude-tui answered (it never goes to the CLI then)."""
        route = local_route(text)
        if route is None:
            return False
        argument = text.strip().partition(" ")[2].strip()
        if route.takes_argument and argument and (act := self._with_argument.get(route.screen)) is not None:
            act(argument)
            return True
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

    def pick_model() -> None:
        from claude_tui.ui.kit.screen_once import opened_before
        from claude_tui.ui.manage.model import ModelPicker, current_model_value

        session = controls.session
        models, status = session.conversation.models, session.conversation.status
        if opened_before(app, ModelPicker):
            return

        def picked(value: str | None) -> None:
            if value:
                controls.set_model(value)

        app.push_screen(ModelPicker(models, current_model_value(models, status.model, session.options.model)), picked)

    return LocalCommands({
        "sessions": host.action_open_sessions, "usage": host.action_usage, "help": host.action_help,
        "fork": later(controls.fork_session), "quit": later(quit_app), "plan": lambda: controls.set_mode("plan"),
        "theme": app.action_change_theme, **{name: manage(name) for name in ("mcp", "context", "permissions", "hooks")},
        "model": pick_model, **own,
    }, say, with_argument={"model": controls.set_model})
