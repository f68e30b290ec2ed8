"""Resuming a session of a CLI on another machine: its history, read from the local mirror of its
store (`machine.SshMachine.sync_sessions`). Blocking (network, disk): at start-up or in a thread."""

from __future__ import annotations

from pathlib import Path

from claude_tui.history.index import SessionIndex
from claude_tui.history.paths import find_session_file
from claude_tui.remote.machine import SshMachine
from claude_tui.resume import load_conversation
from claude_tui.session.conversation import Conversation

__all__ = ["load_remote_conversation", "newest_remote_session", "remote_directory"]


def remote_directory(machine: SshMachine, cwd: str) -> str | None:
    """``cwd`` as the remote CLI will see it (absolute, symlinks resolved: its process.cwd()), or None.

    ``~`` and ``~/…`` are the login's home, as the CLI's wrapper takes them (`transport/ssh/argv.py`)."""
    script = 'd=$1; case $d in "~") d=$HOME ;; "~/"*) d=$HOME/${d#"~/"} ;; esac; cd -- "$d" 2>/dev/null && pwd -P'
    out = machine.run(script, [cwd]).decode("utf-8", "replace").strip()
    return out or None


def newest_remote_session(machine: SshMachine, cwd: str) -> str | None:
    """What ``--continue`` means there: the most recently active session of the remote ``cwd``."""
    with SessionIndex(machine.index_path(), root=machine.session_root()) as index:
        rows = index.list_sessions(Path(cwd), all_projects=False, limit=1)
    return rows[0].session_id if rows else None


def load_remote_conversation(machine: SshMachine, session_id: str, cwd: str | None) -> Conversation | None:
    path = find_session_file(session_id, root=machine.session_root(), cwd=cwd)
    return load_conversation(session_id, path=path) if path is not None else None
