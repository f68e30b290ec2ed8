"""What a tab asks of its CLI beyond prompts: control requests (interrupt, mode, model, stop a
task) and its process (F5's restart in place, a fresh session, a fork). Not a widget: the view
hands it its node (the workers run there, the notices name the tab), its status and its drawing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from textual.widget import Widget

from claude_tui.ui.chat.host import ChatHost
from claude_tui.ui.chat.session import ChatSession, fresh_options
from claude_tui.ui.kit.modes import bypass_allowed, next_mode

Draw = Callable[[list[Any]], Awaitable[None]]

RESTART_QUESTION = "A turn is still running. Restart Claude Code and stop it?"


class Controls:
    def __init__(self, session: ChatSession, host: ChatHost, node: Widget, show_status: Callable[[], None],
                 draw: Draw) -> None:
        self.session = session
        self.host = host
        self.node = node
        """The tab's view: runs the workers, shows the notices."""
        self.show_status = show_status
        """The view's `show_status`: a control request's answer changes the status in place (the mode)."""
        self.draw = draw
        self._mode_lock = asyncio.Lock()
        """Mode requests go one at a time (`_send_mode`): their answers then come back in the order asked."""

    # -- control requests -------------------------------------------------------------------
    # They run in workers: awaiting one in a handler would stall the view's message queue
    # (and the stream) for as long as the CLI takes to answer.
    def request(self, request: Callable[[], Awaitable[None]], failure: str) -> None:
        async def run() -> None:
            try:
                await request()
            except Exception as error:  # noqa: BLE001 - shown, never raised
                self.node.notify(f"{failure}: {error}", severity="error")
                return
            self.show_status()

        self.node.run_worker(run(), group="control", exit_on_error=False)

    def interrupt(self) -> bool:
        """Interrupt the turn (Esc, Ctrl+C; the draft stays). False when none runs."""
        if not (self.session.busy and self.session.alive):
            return False
        self.request(self.session.interrupt, "Interrupt failed")
        return True

    def cycle_mode(self) -> None:
        self.set_mode(next_mode(self.session.conversation.status, bypass_allowed(self.session.options)))

    def set_mode(self, mode: str) -> None:
        """Ask the CLI for `mode`: the bar shows it at once, marked pending until the CLI confirms; a
        refusal is said and the bar goes back. The requests go one at a time, in the order asked, and
        one that a later press overtook while it waited is not sent (only where the presses end counts)."""
        status = self.session.conversation.status
        status.asked_mode = mode
        self.show_status()
        self.node.run_worker(self._send_mode(mode), group="control", exit_on_error=False)

    async def _send_mode(self, mode: str) -> None:
        status = self.session.conversation.status
        async with self._mode_lock:
            if status.asked_mode != mode:  # a later press asked for another mode: its own worker sends it
                return
            try:
                await self.session.set_mode(mode)
            except Exception as error:  # noqa: BLE001 - shown, never raised
                self.node.notify(f"Could not switch to {mode}: {error}", severity="error")
            finally:
                if status.asked_mode == mode:
                    status.asked_mode = ""
                self.show_status()

    def set_model(self, model: str) -> None:
        self.request(lambda: self.session.set_model(model), "Could not switch model")

    def stop_task(self, task_id: str) -> None:
        self.request(lambda: self.session.stop_task(task_id), "Could not stop the task")

    # -- the process ------------------------------------------------------------------------------
    def ask_restart(self) -> None:
        """F5: restart now, or ask first while a turn runs (a restart stops it, as quitting does)."""
        if self.session.busy and self.session.alive:
            from claude_tui.ui.dialogs.confirm import ConfirmScreen
            from claude_tui.ui.kit.screen_once import opened_before

            app = self.node.app
            if not opened_before(app, ConfirmScreen, where=lambda asked: asked.question == RESTART_QUESTION):
                app.push_screen(ConfirmScreen(RESTART_QUESTION, yes="Restart", no="Keep working"),
                                self._restart_confirmed)
            return
        self._restart_confirmed(True)

    def _restart_confirmed(self, confirmed: bool | None) -> None:
        # In a worker: closing the old CLI can take seconds (interrupt, EOF, SIGTERM), and the keys
        # typed meanwhile must reach the prompt rather than wait behind this handler.
        if confirmed:
            self.node.run_worker(self.restart(), group="restart", exclusive=True, exit_on_error=False)

    async def restart(self) -> None:
        """Restart the CLI in the same session (`--resume`), keeping transcript and draft."""
        await self.draw(await self.session.stop_for_restart())
        await self.draw(self.session.start_again())

    async def new_session(self) -> None:
        """A fresh session in this tab (its CLI restarted without --resume), an empty log."""
        await self.host.open_session(fresh_options(self.session.options))

    async def fork_session(self) -> None:
        """This session's history as a new session (--resume <id> --fork-session), in this tab."""
        session_id = self.session.conversation.status.session_id
        if not session_id:
            self.node.notify("Nothing to fork yet: the session has no id.", severity="warning")
            return
        await self.host.fork_session(self.session.conversation, session_id, self.session.options)
