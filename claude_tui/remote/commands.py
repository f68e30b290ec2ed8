"""``claude-tui sessions|search|export --ssh DEST``: another machine's session store for scripts.

One ssh connection of our own (`SshMachine.connection`) carries every read: the store is mirrored
into claude-tui's cache (the same mirror the app's browser reads), the remote directory is resolved
there, and the connection ends before anything is printed; the listing then runs on the mirror like
a local one. Failures are printed as the app words them (`transport/ssh/faults.py`), never a traceback.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from claude_tui.config import ConfigError, load_config
from claude_tui.history.index import SessionIndex
from claude_tui.protocol.sanitize import printable
from claude_tui.remote.history import remote_directory
from claude_tui.remote.hosts import RemoteSetup, remote_setup
from claude_tui.remote.machine import RemoteReadError, SshConnectError, SshMachine

__all__ = ["EXIT_SSH", "RemoteStore", "open_remote_store"]

EXIT_SSH = 2
"""The exit status when the remote machine cannot be read (a bad destination, ssh failed)."""


@dataclass(frozen=True)
class RemoteStore:
    machine: SshMachine
    setup: RemoteSetup
    dest: str
    asked_cwd: str
    cwd: str | None
    """``asked_cwd`` as the remote CLI sees it (absolute, resolved there); None: no such directory."""

    def index(self) -> SessionIndex:
        return SessionIndex(self.machine.index_path(), root=self.machine.session_root())

    @property
    def list_command(self) -> str:
        return f"claude-tui sessions --ssh {self.dest} --all"

    def require_cwd(self, err: TextIO = sys.stderr) -> Path | None:
        """The remote directory, or None after saying it does not exist there."""
        if self.cwd is None:
            print(f"claude-tui: no directory {printable(self.asked_cwd)!r} on {printable(self.setup.label)}",
                  file=err)
            return None
        return Path(self.cwd)


def open_remote_store(dest: str, cwd: str | None, *, err: TextIO = sys.stderr) -> RemoteStore | int:
    """Mirror the store of ``dest`` (a ``hosts`` name or an ssh destination) and resolve ``cwd`` there
    (None: the host entry's cwd, else the login's home). An exit status after printing why, on failure."""
    try:
        config = load_config()
    except ConfigError as error:
        print(f"claude-tui: configuration problem:\n{error}", file=err)
        return 2
    try:
        setup = remote_setup(dest, config)
    except ValueError as error:
        print(f"claude-tui: --ssh: {error}", file=err)
        return 2
    asked = cwd or setup.cwd or "."
    machine = SshMachine(setup.target, setup.env)
    try:
        with machine.connection():
            machine.sync_sessions()
            resolved = remote_directory(machine, asked)
    except SshConnectError as error:
        print(f"claude-tui: {error.fault.title}\n{error.fault.text}", file=err)
        return EXIT_SSH
    except OSError as error:  # RemoteReadError (a read timed out, the connection dropped), or our cache dir
        what = "read the sessions on" if isinstance(error, RemoteReadError) else "mirror the sessions of"
        print(f"claude-tui: could not {what} {printable(setup.label)}: {printable(str(error))}", file=err)
        return EXIT_SSH
    return RemoteStore(machine, setup, dest.strip(), asked, resolved)
