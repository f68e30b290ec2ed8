"""Runs the user's `statusLine` command (`claude_tui/status_line.py`) for one tab, off the UI.

As Claude Code does, it runs when the conversation changes — here at the session's start and at
each turn's end, never more often — one run at a time (a change during a run asks for one more
after it). A slow command is ended after `TIMEOUT` seconds; a failing or slow one never blocks
the app, and says what went wrong once (until it works again). The output shown is inert.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Static

from claude_tui.history.paths import cli_config_root
from claude_tui.protocol.sanitize import one_line, printable
from claude_tui.status_line import StatusLineSetting, find_setting, shown_text
from claude_tui.transport.options import CliOptions

TIMEOUT = 5.0


class UserStatusLine(Static):
    DEFAULT_CSS = """
    UserStatusLine {
        height: 1;
        padding: 0 1;
        color: $text-muted;
    }
    """

    def __init__(self, setting: StatusLineSetting, cwd: str, say: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)
        self.setting = setting
        self.cwd = cwd
        self._notice = say
        self._busy = False
        self._queued: dict[str, Any] | None = None
        self._said_failure = False
        self.runs = 0

    @classmethod
    def for_session(cls, options: CliOptions, say: Callable[[str], None]) -> UserStatusLine | None:
        """The user's `statusLine` command, when the settings have one (local sessions: over ssh the
        settings are the remote machine's)."""
        if options.ssh is not None:
            return None
        project = Path(options.cwd or ".").resolve()
        setting = find_setting(project, cli_config_root(options.env))
        if setting is None:
            return None
        return cls(setting, str(project), say, id="user-status")

    @property
    def running(self) -> bool:
        return self._busy

    def changed(self, payload: dict[str, Any]) -> None:
        """The conversation changed: run the command with `payload` (after the run going on, if one is)."""
        if self._busy or not self.is_mounted:  # run after this one, or once mounted
            self._queued = payload
            return
        self._busy = True
        self.run_worker(self._run(payload), group="user-status", exit_on_error=False)

    def on_mount(self) -> None:
        if self._queued is not None and not self._busy:
            payload, self._queued = self._queued, None
            self.changed(payload)

    async def _run(self, payload: dict[str, Any]) -> None:
        while True:
            self.runs += 1
            text, problem = await self._once(json.dumps(payload).encode())
            if problem is None:
                self._said_failure = False
                self.update(text)  # Static with markup off: the text is shown as it is
            elif not self._said_failure:
                self._said_failure = True
                self._notice(f"Your status line command ({printable(str(self.setting.source))}) {problem}")
            if self._queued is None:
                break
            payload, self._queued = self._queued, None
        self._busy = False

    async def _once(self, data: bytes) -> tuple[str, str | None]:
        try:
            process = await asyncio.create_subprocess_shell(
                self.setting.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, cwd=self.cwd if os.path.isdir(self.cwd) else None,
                start_new_session=True)  # its own group: a timeout ends what it started too
        except OSError as error:
            return "", f"could not start: {one_line(str(error))}"
        try:
            out, err = await asyncio.wait_for(process.communicate(data), TIMEOUT)
        except TimeoutError:
            _end(process.pid)
            await process.wait()
            return "", f"took over {TIMEOUT:g} s and was stopped; claude-tui goes on without it."
        except asyncio.CancelledError:  # the tab closed or the app quit mid-run: nothing is left behind
            _end(process.pid)
            raise
        if process.returncode != 0:
            why = shown_text(err) or f"exit status {process.returncode}"
            return "", f"failed: {why}"
        return shown_text(out), None


def _end(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def transcript_path(config_root: Path, cwd: str, session_id: str) -> str:
    from claude_tui.history.paths import encode_project_dir

    if not session_id:
        return ""
    return str(config_root / "projects" / encode_project_dir(cwd) / f"{session_id}.jsonl")
