"""The Textual application: screens, config, notifications and clean shutdown."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

from textual.app import App
from textual.binding import Binding

from claude_tui import __version__
from claude_tui.config import Config
from claude_tui.resources import styles_dir
from claude_tui.session.changes import TurnEnded
from claude_tui.session.conversation import Conversation
from claude_tui.transport.options import CliOptions
from claude_tui.transport.reaper import kill_all_children
from claude_tui.ui.notify import attention
from claude_tui.ui.screens.chat import ChatScreen

_STYLES = styles_dir()
# Every screen's TCSS is loaded app-wide: screens are small and share variables.
CSS_FILES = sorted(str(path) for path in _STYLES.glob("*.tcss"))


class ClaudeTuiApp(App[None]):
    TITLE = "claude-tui"
    CSS_PATH = CSS_FILES  # type: ignore[assignment]
    BINDINGS = [
        Binding("ctrl+q", "quit_app", "Quit", show=True, priority=True),
        Binding("ctrl+c", "quit_app", "Quit", show=False),
        Binding("f1", "help", "Help", show=True),
    ]

    def __init__(self, options: CliOptions, config: Config | None = None, *, debug_log: Path | None = None,
                 conversation: Conversation | None = None, open_browser: bool = False) -> None:
        super().__init__()
        self.options = options
        self.config = config or Config()
        self.debug_log = debug_log
        self.initial_conversation = conversation
        self.open_browser = open_browser
        self.is_quitting = False
        self.version = __version__
        if self.config.theme:
            self.theme = self.config.theme

    @property
    def bypass_allowed(self) -> bool:
        args = set(self.options.extra_args)
        return bool(args & {"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions"}) or \
            self.options.permission_mode == "bypassPermissions"

    @property
    def chat(self) -> ChatScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, ChatScreen):
                return screen
        return None

    def on_mount(self) -> None:
        self._install_signal_handlers()
        self.push_screen(ChatScreen(self.options, self.initial_conversation, self.debug_log))

    def _install_signal_handlers(self) -> None:
        # A closed terminal (SIGHUP) or a kill (SIGTERM) must not leave a `claude` behind.
        def handler(signum: int, frame: Any) -> None:
            kill_all_children()
            self.exit(return_code=128 + signum)

        for sig in (signal.SIGTERM, signal.SIGHUP):
            try:
                signal.signal(sig, handler)
            except (ValueError, OSError):  # not the main thread (tests)
                pass

    def notify_turn_ended(self, change: TurnEnded) -> None:
        if not self.app_focus:
            attention(self, "Claude finished" if not change.is_error else "Claude stopped with an error",
                      bell=self.config.notifications.bell, desktop=self.config.notifications.desktop)

    def action_quit_app(self) -> None:
        chat = self.chat
        if chat is not None and chat.busy:
            from claude_tui.ui.screens.confirm import ConfirmScreen

            self.push_screen(ConfirmScreen("A turn is still running. Quit and stop it?", yes="Quit", no="Keep working"),
                             self._quit_confirmed)
            return
        self.run_worker(self._quit(), group="quit", exclusive=True)

    def _quit_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self.run_worker(self._quit(), group="quit", exclusive=True)

    async def _quit(self) -> None:
        await self.shutdown()
        self.exit()

    async def shutdown(self) -> None:
        self.is_quitting = True
        chat = self.chat
        if chat is not None:
            await chat.shutdown()

    def action_help(self) -> None:
        from claude_tui.ui.screens.help import HelpScreen

        self.push_screen(HelpScreen())

    def action_open_sessions(self) -> None:
        self.notify("The session browser opens here (see `claude-tui --resume`).")
