"""No Claude Code process outlives the app: quit, crash, SIGTERM, SIGHUP (terminal closed).

In-process Pilot tests check quitting and a crash; real subprocess tests run
`claude-tui --demo` in a pseudo-terminal, send the signal, and then scan
/proc for the fake CLI (found by its command line plus an environment marker
only this test run sets).
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import threading
import time
import uuid
from pathlib import Path

import pytest

from tests.reliability.harness import (
    SIZE,
    client_pid,
    fake_options,
    make_app,
    pid_alive,
    processes_with_env,
    run_turn,
    wait_for,
    wait_gone,
    wait_ready,
)

FAKE_MODULE = b"claude_tui.fakecli"


def fake_clis(marker: str) -> list[int]:
    """Live fake-CLI processes carrying ``CLAUDE_TUI_TEST_MARKER=marker``."""
    found = []
    for pid in processes_with_env(f"CLAUDE_TUI_TEST_MARKER={marker}"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if FAKE_MODULE in f.read():
                    found.append(pid)
        except OSError:
            pass
    return found


# -- in process -----------------------------------------------------------------------------------------------

async def test_quit_leaves_no_cli_behind(tmp_path: Path) -> None:
    options = fake_options(tmp_path)
    marker = options.env["CLAUDE_TUI_TEST_MARKER"] = f"quit-{uuid.uuid4()}"
    app = make_app(options)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await run_turn(pilot, app, "hello kw:plain")
        pid = client_pid(app)
        assert pid is not None and pid in fake_clis(marker)  # with its keeper, when there is one
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, 15, "the app to exit")
    assert await wait_gone([pid], 5) == []
    assert fake_clis(marker) == []


async def test_crash_in_a_handler_leaves_no_cli_behind(tmp_path: Path) -> None:
    options = fake_options(tmp_path)
    marker = options.env["CLAUDE_TUI_TEST_MARKER"] = f"crash-{uuid.uuid4()}"
    app = make_app(options)
    pid = None
    with pytest.raises(ZeroDivisionError):
        async with app.run_test(size=SIZE) as pilot:
            await wait_ready(pilot, app)
            pid = client_pid(app)
            assert pid is not None and pid_alive(pid)
            app.chat.set_timer(0.05, lambda: 1 / 0)  # type: ignore[union-attr]
            await pilot.pause(0.5)
    assert pid is not None
    assert await wait_gone([pid], 8) == [], "the CLI survived an app crash"
    assert fake_clis(marker) == []


# -- a real app process in a pty ------------------------------------------------------------------------------

CRASH_CODE = """
import sys
from claude_tui.ui.chat.connection import CliConnection
original = CliConnection.start
def patched(self, target):
    original(self, target)
    target.set_timer(2.0, lambda: 1 / 0)
CliConnection.start = patched
"""


def _spawn_app(tmp_path: Path, marker: str, prelude: str = "") -> tuple[int, int, threading.Thread]:
    env = dict(os.environ)
    # This checkout's claude_tui, not whichever one the environment's editable install points at.
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    env["CLAUDE_TUI_TEST_MARKER"] = marker
    env["TERM"] = "xterm-256color"
    env.pop("TEXTUAL", None)
    code = prelude + "\nimport sys\nfrom claude_tui.cli import main\nsys.exit(main())\n"
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.chdir(tmp_path)
            os.execve(sys.executable, [sys.executable, "-c", code, "--demo"], env)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))

    def drain() -> None:  # the app must never block on a full terminal
        while True:
            try:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready and not os.read(fd, 65536):
                    return
            except OSError:
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    return pid, fd, reader


def _wait_exit(pid: int, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    return None


def _wait_cli(marker: str, timeout: float = 30) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = fake_clis(marker)
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the app never started the fake CLI")


STUCK_DRIVER = """
import threading
from textual.drivers.linux_driver import LinuxDriver
from claude_tui.ui.app.app import ClaudeTuiApp
class StuckDriver(LinuxDriver):
    def close(self):
        # As seen after the terminal closed: the main thread stuck for good in
        # LinuxDriver.close -> WriterThread.stop -> Queue.put.
        threading.Event().wait()
ClaudeTuiApp.get_driver_class = lambda self: StuckDriver
"""


def _run_and_end(tmp_path: Path, end: str) -> int | None:
    """Start `claude-tui --demo` in a pty, end it by `end`, check no CLI is left; the exit status."""
    marker = f"{end}-{uuid.uuid4()}"
    prelude = CRASH_CODE if end == "crash" else STUCK_DRIVER if end.startswith("stuck") else ""
    pid, fd, reader = _spawn_app(tmp_path, marker, prelude)
    status = None
    fd_open = True
    try:
        children = _wait_cli(marker)
        if end.endswith("-at-start"):  # the early CLI is up: the app is still importing (1-1.6 s here)
            end = end.removesuffix("-at-start")
        else:
            time.sleep(0.5)  # past initialize: the app is fully up
        if end == "crash":
            pass  # the patched timer raises two seconds after the connection was made
        elif end.endswith("close-terminal"):
            os.close(fd)  # the terminal goes away: the kernel hangs up the app's session
            fd_open = False
        else:
            os.kill(pid, {"SIGTERM": signal.SIGTERM, "SIGHUP": signal.SIGHUP, "SIGKILL": signal.SIGKILL,
                          "stuck-SIGTERM": signal.SIGTERM}[end])
        status = _wait_exit(pid, 25)
        if end == "crash":
            assert status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) != 0
        assert status is not None, f"the app did not exit after {end}"
        deadline = time.monotonic() + 5
        while fake_clis(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fake_clis(marker) == [], f"a Claude Code process survived {end}"
        assert not any(pid_alive(c) for c in children)
    finally:
        if status is None:
            os.kill(pid, signal.SIGKILL)
            _wait_exit(pid, 5)
        if fd_open:
            os.close(fd)
        for leftover in fake_clis(marker):
            os.kill(leftover, signal.SIGKILL)
    return status


@pytest.mark.parametrize("end", ["SIGTERM", "SIGHUP", "crash", "SIGKILL", "close-terminal", "SIGTERM-at-start",
                                 "SIGHUP-at-start"])
def test_app_process_ending_leaves_no_cli_behind(tmp_path: Path, end: str) -> None:
    status = _run_and_end(tmp_path, end)
    end = end.removesuffix("-at-start")  # a signal during start-up is a stop too, not a death by it
    if end in ("SIGTERM", "SIGHUP"):
        # A clean stop, reported as the signal's conventional status.
        assert status is not None and os.WIFEXITED(status)
        assert os.WEXITSTATUS(status) == 128 + {"SIGTERM": signal.SIGTERM, "SIGHUP": signal.SIGHUP}[end]


@pytest.mark.parametrize("end", ["stuck-SIGTERM", "stuck-close-terminal"])
def test_a_stuck_textual_shutdown_is_ended_by_the_watchdog(tmp_path: Path, end: str) -> None:
    """The driver's close() never returns: the watchdog (ui/app/shutdown.py) ends the process anyway,
    with the signal's status, after ending the CLI."""
    status = _run_and_end(tmp_path, end)
    assert status is not None and os.WIFEXITED(status)
    assert os.WEXITSTATUS(status) == 128 + (signal.SIGTERM if end == "stuck-SIGTERM" else signal.SIGHUP)
