"""Ctrl+G / Ctrl+X Ctrl+E: the prompt edited in $VISUAL or $EDITOR, as in Claude Code.

The text goes to a private temporary file, the editor runs on it (the app hands it the terminal,
`ui/chat/view.py`), and what the file holds when the editor exits cleanly comes back. An editor
that fails, is killed, or leaves no file gives nothing back: the prompt stays as it was.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

Runner = Callable[[list[str]], int]
"""Runs a command in the foreground and returns its exit status (negative: killed by that signal)."""


@dataclass(frozen=True)
class Edited:
    text: str | None
    """The edited text; None when nothing comes back (then `problem` says why)."""
    problem: str = ""


def editor_command(env: Mapping[str, str] | None = None) -> list[str] | None:
    """$VISUAL, else $EDITOR, split as a shell would ("code --wait"); None when neither is set."""
    env = os.environ if env is None else env
    for name in ("VISUAL", "EDITOR"):
        value = env.get(name, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError:
                words = [value]
            if words:
                return words
    return None


def run_in_foreground(command: list[str]) -> int:
    return subprocess.run(command, check=False).returncode


def edit_text(text: str, command: list[str], run: Runner = run_in_foreground) -> Edited:
    fd, name = tempfile.mkstemp(prefix="claude-tui-prompt-", suffix=".md")
    path = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        try:
            status = run([*command, str(path)])
        except OSError as error:
            return Edited(None, f"Could not start {command[0]}: {error.strerror or error}. The prompt is as it was.")
        if status < 0:
            return Edited(None, f"{command[0]} was stopped by signal {-status}. The prompt is as it was.")
        if status != 0:
            return Edited(None, f"{command[0]} exited with status {status}. The prompt is as it was.")
        try:
            edited = path.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            return Edited(None, f"The edited file could not be read ({error.strerror}). The prompt is as it was.")
        # Editors end a file with a newline the prompt never had.
        return Edited(edited[:-1] if edited.endswith("\n") and not text.endswith("\n") else edited)
    finally:
        path.unlink(missing_ok=True)
