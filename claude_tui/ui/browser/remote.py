"""The session browser for a CLI on another machine: its store, mirrored over ssh in a worker.

The browser opens at once on the local mirror (`remote/machine.py`, in claude-tui's cache dir) as it
was last synced; a thread worker then syncs the mirror over the host's shared ssh connection and
asks the browser to re-list. No key handler waits on the network.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from textual.app import App
from textual.worker import get_current_worker

from claude_tui.history.paths import cli_config_root
from claude_tui.protocol.sanitize import printable, printable_name
from claude_tui.remote.machine import machine_for
from claude_tui.transport.options import CliOptions
from claude_tui.ui.browser.screen import SessionBrowserScreen


def session_browser(app: App[Any], options: CliOptions, reported_cwd: str = "") -> SessionBrowserScreen:
    """The browser for the active session's machine; `reported_cwd`: its directory as the CLI said it."""
    if options.ssh is None:
        return SessionBrowserScreen(Path(options.cwd or ".").resolve(), config_root=cli_config_root(options.env))
    machine = machine_for(options)
    # The remote directory as the CLI reported it (absolute); the flag's value until it has.
    cwd = reported_cwd or options.cwd or "."
    screen = SessionBrowserScreen(Path(str(PurePosixPath(cwd))), config_root=machine.session_root(),
                                  index_path=machine.index_path())

    label = printable_name(machine.label)
    screen.state.reading = f"Reading the sessions on {label}…"

    def read(note: str) -> None:
        screen.state.reading = note
        if screen.is_attached:
            screen.reload()

    def sync() -> None:
        try:
            machine.sync_sessions()
        except OSError as error:
            if not get_current_worker().is_cancelled:
                said = f"Could not read the sessions on {label}: {printable(str(error))}"
                app.call_from_thread(read, said + "\nEsc goes back; opening the browser again tries again.")
                app.call_from_thread(app.notify, said, severity="error", timeout=8)
            return
        app.call_from_thread(read, "")

    app.run_worker(sync, thread=True, group="remote-sessions", exclusive=True, exit_on_error=False)
    return screen
