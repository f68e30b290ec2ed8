"""No process outlives claude-tui, however it ends, with the real CLI in the middle of a tool.

`kw:sleep` makes the real CLI run a Bash tool (`sleep 300`), which Claude Code starts in its own
session, out of the CLI's process group. The app is then ended by Ctrl+Q, SIGTERM, SIGHUP,
tmux kill-session (the terminal goes away) or kill -9. Afterwards no process of the run is alive:
found by the run marker in /proc/PID/environ (CLAUDE_TUI_E2E_RUN, inherited by the app, its
keeper, the CLI and the tool), never by name. The API stand-in gets no request after the end.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import marked_processes
from tests.e2e.mock_api import MockApi
from tests.e2e.tmux_harness import GUARD_S, Tmux, app_command, describe, sweep, tmux, wait_gone  # noqa: F401

ENDS = ["quit", "SIGTERM", "SIGHUP", "kill-session", "SIGKILL"]


def tool_sleeps() -> list[int]:
    """The Bash tool's `sleep 300`, among the processes of this run."""
    found = []
    for pid in marked_processes():
        try:
            if Path(f"/proc/{pid}/cmdline").read_bytes() == b"sleep\x00300\x00":
                found.append(pid)
        except OSError:
            pass
    return found


def wait_for(predicate, what: str, timeout: float = 30):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


@pytest.mark.parametrize("end", ENDS)
def test_ending_the_app_mid_tool_leaves_no_process(end: str, tmux: Tmux, claude_bin: Path,  # noqa: F811
                                                    e2e_env: dict[str, str], project_dir: Path, mock_api: MockApi,
                                                    tmp_path: Path) -> None:
    command = app_command(claude_bin, project_dir, e2e_env, tmp_path / "app", ("--", "--allowedTools", "Bash"))
    tmux.start(command)
    pids: list[int] = []
    try:
        tmux.wait_ready()
        app_pid = int(tmux.run("display-message", "-p", "-t", tmux.session, "#{pane_pid}").stdout.strip())
        tmux.send("kw:sleep now")
        sleeper = wait_for(tool_sleeps, "the Bash tool's sleep to run")
        before = marked_processes()
        assert app_pid in before and set(sleeper) <= set(before)
        assert len(before) >= 4, describe(before)  # the app, a keeper, claude, bash, sleep
        requests = len(mock_api.messages_requests())
        if end == "quit":
            tmux.keys("C-q")
            tmux.wait_screen(lambda s: "Quit and stop it?" in s, "the quit confirmation")
            tmux.keys("Tab")  # the question opens waiting: Tab moves to it
            time.sleep(GUARD_S)
            tmux.keys("y")
        elif end == "kill-session":
            tmux.run("kill-session", "-t", tmux.session)  # the pane's terminal goes away: SIGHUP
        else:
            os.kill(app_pid, getattr(signal, end))
        left, pids = wait_gone(20)
        assert not pids, f"processes outlived claude-tui ({end}): {left}"
        wait_for(lambda: not tmux.alive(), "the tmux session to end with the app", 10)
        time.sleep(1.0)
        assert len(mock_api.messages_requests()) == requests, "the CLI talked to the API after the app ended"
    finally:
        tmux.kill()
        sweep(5)  # ours by the run marker: never leave them behind, even on failure
