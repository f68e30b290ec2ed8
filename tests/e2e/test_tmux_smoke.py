"""Smoke test in a real terminal: ``claude-tui`` in tmux, against the real CLI, offline.

Starts the console script in a detached 160x48 tmux session (on a private tmux
socket, so a developer's own tmux server is never touched), sends a prompt,
moves to the permission dialog with Tab and approves the Bash tool with ``y`` after the
typeahead guard, reads the screen
with ``capture-pane``, quits with Ctrl+Q and checks that no ``claude`` is left.

tmux is required: without it the test FAILS (CI installs the ``tmux`` apt package).
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
from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import DONE_TEXT

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

    def kill(self) -> None:
        self.run("kill-server", check=False)


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


def test_claude_tui_in_tmux_approves_a_tool(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],
                                            project_dir: Path, mock_api: MockApi, tmp_path: Path) -> None:
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        # Ready: the status bar shows the model and "idle" once initialize is answered.
        tmux.wait_screen(lambda s: "idle" in s, "the app to be ready")
        tmux.keys("kw:bash please", literal=True)
        tmux.keys("Enter")
        screen = tmux.wait_screen(lambda s: "Allow once" in s and "Deny" in s, "the permission dialog")
        assert "touch" in screen and "hello-from-bash" in screen
        assert not (project_dir / "touched").exists()
        assert "Tab to answer" in screen
        tmux.keys("Tab")
        time.sleep(GUARD_S)
        tmux.keys("y")
        screen = tmux.wait_screen(lambda s: DONE_TEXT.strip() in s, "the final answer")
        assert "Allowed once" in screen  # the decision, shown in the log
        assert "Allow once" not in screen  # the dialog is gone
        assert "I will run a command." in screen
        assert (project_dir / "touched").exists()
        assert [r.keyword for r in mock_api.messages_requests()] == ["bash", "bash"]
        tmux.wait_screen(lambda s: "idle" in s, "the turn to end")
        tmux.keys("C-q")
        deadline = time.monotonic() + 15
        while tmux.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not tmux.alive(), f"claude-tui did not quit on Ctrl+Q; screen:\n{tmux.screen()}"
    finally:
        tmux.kill()
        left, pids = wait_gone(10)
        for pid in pids:  # ours by the run marker: never leave them behind, even on failure
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert not pids, f"processes outlived claude-tui: {left}"


def type_slowly(tmux: Tmux, text: str, per_key: float = 0.06) -> None:
    for character in text:
        tmux.keys(character, literal=True)
        time.sleep(per_key)


def test_typing_through_a_permission_dialog_answers_nothing(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],
                                                            project_dir: Path, mock_api: MockApi,
                                                            tmp_path: Path) -> None:
    """Issue 14, finding 1, exactly: send a prompt that leads to a Bash call, keep typing the next
    thought at ~60 ms a key with a 0.9 s pause ("…check the ", pause, "yaml files too"), then, 3 s
    after the dialog opened, " hello there". Nothing runs and the draft holds every key; then the
    deliberate path (Tab, a pause, y) still approves."""
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_screen(lambda s: "idle" in s, "the app to be ready")
        tmux.keys("kw:bash please", literal=True)
        tmux.keys("Enter")
        type_slowly(tmux, "also please check the ")
        time.sleep(0.9)
        type_slowly(tmux, "yaml files too")
        tmux.wait_screen(lambda s: "Allow once" in s, "the permission dialog")
        time.sleep(3)
        type_slowly(tmux, " hello there")
        draft = "also please check the yaml files too hello there"
        screen = tmux.wait_screen(lambda s: draft in s, "the whole draft in the prompt")
        assert "Allow once" in screen and "Tab to answer" in screen  # still asking
        assert not (project_dir / "touched").exists(), "the command ran"
        assert "Allowed once" not in screen and "Edit the command" not in screen
        assert [r.keyword for r in mock_api.messages_requests()] == ["bash"]  # no tool result went back
        # The deliberate path.
        tmux.keys("Tab")
        time.sleep(GUARD_S)
        tmux.keys("y")
        screen = tmux.wait_screen(lambda s: DONE_TEXT.strip() in s, "the final answer")
        assert "Allowed once" in screen and (project_dir / "touched").exists()
        assert draft in screen  # and the draft is still there
    finally:
        tmux.kill()
        left, pids = wait_gone(10)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert not pids, f"processes outlived claude-tui: {left}"


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


def test_closing_the_terminal_leaves_no_claude(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],
                                               project_dir: Path, mock_api: MockApi, tmp_path: Path) -> None:
    """SIGHUP (the terminal went away) in the middle of a turn: the app ends its CLI and itself."""
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_screen(lambda s: "idle" in s, "the app to be ready")
        tmux.keys("kw:slow story", literal=True)
        tmux.keys("Enter")
        tmux.wait_screen(lambda s: "word3" in s, "the stream to start")
        assert marked_processes(), "the CLI should be running now"
    finally:
        tmux.kill()  # the pane's process gets SIGHUP, as when a terminal window is closed
        left, pids = wait_gone(10)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert not pids, f"processes outlived the closed terminal: {left}"
