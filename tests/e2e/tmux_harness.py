"""The tmux harness of the terminal tests: ``claude-tui`` in a real terminal, against the real CLI.

`Tmux` drives one detached 160x48 session on a private socket (a developer's own tmux server is
never touched); the `tmux` fixture gives a test one and kills its server afterwards (a test module
imports the fixture by name). `app_command` starts this checkout's app with exactly the e2e
environment; `Tmux.quit` ends it with Ctrl+Q; `sweep` waits for every process of ours (by the
run marker) to end and kills what is left, so a failing test never leaves one behind.

tmux is required: without it the tests FAIL (CI installs the ``tmux`` apt package).
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import marked_processes

WIDTH, HEIGHT = 160, 48
GUARD_S = 0.6  # the dialogs ignore keys for typeahead_guard_ms (400 ms by default)


class Tmux:
    """One tmux server on its own socket, holding one session."""

    def __init__(self, binary: str, socket: Path) -> None:
        self.binary = binary
        self.socket = socket
        self.session = "claude-tui-smoke"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([self.binary, "-S", str(self.socket), *args], capture_output=True, text=True,
                              timeout=15, check=check)

    def start(self, command: str) -> None:
        self.run("-f", "/dev/null", "new-session", "-d", "-s", self.session, "-x", str(WIDTH), "-y", str(HEIGHT),
                 command)

    def alive(self) -> bool:
        return self.run("has-session", "-t", self.session, check=False).returncode == 0

    def screen(self) -> str:
        done = self.run("capture-pane", "-p", "-t", self.session, check=False)
        return done.stdout if done.returncode == 0 else ""

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.run("send-keys", "-t", self.session, *(["-l"] if literal else []), *keys)

    def wait_screen(self, predicate: Callable[[str], bool], what: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if predicate(text):
                return text
            if not self.alive():
                raise AssertionError(f"claude-tui exited while waiting for {what}; last screen:\n{text}")
            time.sleep(0.1)
        raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; screen:\n{text}")

    def wait_ready(self) -> str:
        """The app is up: the status bar says "idle" once the CLI answered initialize."""
        return self.wait_screen(lambda s: "idle" in s, "the app to be ready")

    def send(self, prompt: str) -> None:
        """Type ``prompt`` into the app and press Enter."""
        self.keys(prompt, literal=True)
        self.keys("Enter")

    def kill(self) -> None:
        self.run("kill-server", check=False)

    def quit(self, timeout: float = 15) -> None:
        """Ctrl+Q, then wait for the app (and with it the session) to end."""
        self.keys("C-q")
        deadline = time.monotonic() + timeout
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not self.alive(), f"claude-tui did not quit on Ctrl+Q; screen:\n{self.screen()}"


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    binary = shutil.which("tmux")
    if binary is None:
        pytest.fail("tmux is not installed: the terminal smoke test needs it "
                    "(Debian/Ubuntu: `apt-get install tmux`)", pytrace=False)
    socket = Path("/tmp") / f"claude-tui-e2e-{uuid.uuid4().hex[:12]}.sock"  # short: sun_path is 108 bytes
    server = Tmux(binary, socket)
    try:
        yield server
    finally:
        server.kill()
        socket.unlink(missing_ok=True)


def app_command(claude_bin: Path, project_dir: Path, env: dict[str, str], root: Path,
                extra_args: tuple[str, ...] = ()) -> str:
    """Write a script that sets exactly the e2e env and execs the console script; return how to run it."""
    root.mkdir(parents=True, exist_ok=True)
    script = Path(sys.executable).with_name("claude-tui")
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "claude_tui.cli"]
    argv += ["--claude-path", str(claude_bin), "--cwd", str(project_dir), *extra_args]
    app_env = dict(env)
    # This checkout's claude_tui (a worktree), not whichever one the editable install points at.
    app_env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
                     ("XDG_STATE_HOME", "state")):
        app_env[var] = str(root / sub)  # claude-tui's own stores: never the developer's
    app_env["TERM"] = "tmux-256color"
    lines = ["#!/bin/sh", f"cd {shlex.quote(str(project_dir))} || exit 1"]
    lines += [f"export {key}={shlex.quote(value)}" for key, value in sorted(app_env.items())
              if key.isidentifier()]
    lines.append(f"exec {shlex.join(argv)}")  # Textual draws on stderr: no redirection
    path = root / "run-claude-tui.sh"
    path.write_text("\n".join(lines) + "\n")
    return f"exec env -i /bin/sh {shlex.quote(str(path))}"


def describe(pids: list[int]) -> str:
    out = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            cmd = "?"
        out.append(f"{pid}: {cmd[:200]}")
    return "; ".join(out)


def wait_gone(timeout: float) -> tuple[str, list[int]]:
    deadline = time.monotonic() + timeout
    left = marked_processes()
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = marked_processes()
    return describe(left), left


def sweep(timeout: float) -> tuple[str, list[int]]:
    """Wait up to ``timeout`` for our processes (by the run marker) to end, then SIGKILL the rest.

    Returns what was still running at the deadline (described, and the pids), for the assertion."""
    left, pids = wait_gone(timeout)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return left, pids
