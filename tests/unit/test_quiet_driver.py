"""QuietLinuxDriver's input thread: keys and a lone Esc arrive as with Textual's own, the thread
sleeps (no wake-ups) once the terminal is quiet, and stopping it still ends it at once."""

from __future__ import annotations

import os
import pty
import threading
import time
import tty
from collections.abc import Iterator
from typing import Any

import pytest
from textual import events
from textual.message import Message

from claude_tui.ui.app import quiet_driver
from claude_tui.ui.app.quiet_driver import QuietLinuxDriver
from tests.procs import wait_until


class Recording(QuietLinuxDriver):
    """The driver with its input read from a pty and its events recorded instead of posted."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: list[Message] = []

    def process_message(self, message: Message) -> None:
        self.seen.append(message)

    def keys(self) -> list[str]:
        return [event.key for event in self.seen if isinstance(event, events.Key)]


def switches(thread_id: int) -> int:
    """Voluntary context switches of one thread: how often it went to sleep (each wake-up is one)."""
    status = open(f"/proc/self/task/{thread_id}/status").read()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("voluntary_ctxt_switches")))


@pytest.fixture
async def driver(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Recording, int]]:  # type: ignore[misc]
    monkeypatch.setattr(quiet_driver, "QUIET_AFTER", 0.3)
    main, child = pty.openpty()
    tty.setraw(child)  # as the app's terminal is: bytes arrive as typed, not by the line
    recording = Recording(object())  # type: ignore[arg-type]
    recording.fileno = child
    thread = threading.Thread(target=recording.run_input_thread, name="test-input", daemon=True)
    thread.start()
    yield recording, main
    time.sleep(0.5)  # quiet again: the thread waits with no timeout
    recording.exit_event.set()
    thread.join(5)
    assert not thread.is_alive(), "setting exit_event ends the thread, even while it waits with no timeout"
    os.close(main)
    os.close(child)


async def test_keys_and_a_lone_escape_arrive(driver: tuple[Recording, int]) -> None:
    recording, main = driver
    os.write(main, "hé".encode())
    assert wait_until(lambda: recording.keys() == ["h", "é"])
    time.sleep(0.5)  # quiet: the thread now waits with no timeout
    os.write(main, b"\x1b")  # Esc alone: delivered once the escape delay passes, not at the next key
    assert wait_until(lambda: recording.keys()[-1:] == ["escape"], 2.0), recording.keys()
    os.write(main, b"\x1b[A")  # a sequence that starts with Esc is one key
    assert wait_until(lambda: recording.keys()[-1:] == ["up"]), recording.keys()


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts wake-ups in /proc")
async def test_a_quiet_terminal_does_not_wake_the_thread(driver: tuple[Recording, int]) -> None:
    recording, main = driver
    thread = next(t for t in threading.enumerate() if t.name == "test-input")
    assert thread.native_id is not None
    time.sleep(0.6)  # past QUIET_AFTER
    before = switches(thread.native_id)
    time.sleep(1.0)
    assert switches(thread.native_id) - before <= 1, "Textual's own thread wakes ten times a second"
    os.write(main, b"x")
    assert wait_until(lambda: recording.keys() == ["x"])


async def test_a_character_split_across_reads_arrives_whole(driver: tuple[Recording, int]) -> None:
    """The first bytes of a UTF-8 character decode to nothing yet: fed to the parser as "", they
    would mean the end of input and the next key would crash the thread."""
    recording, main = driver
    euro = "€".encode()
    os.write(main, euro[:1])
    time.sleep(0.2)  # a read of its own
    os.write(main, euro[1:] + b"a")
    assert wait_until(lambda: recording.keys() == ["euro_sign", "a"], 5), recording.keys()


async def test_closing_the_driver_closes_its_wake_pipe() -> None:
    recording = Recording(object())  # type: ignore[arg-type]
    pipe = (recording._wake_read, recording._wake_write)
    recording.close()
    for fd in pipe:
        with pytest.raises(OSError):
            os.fstat(fd)


async def test_esc_and_a_digit_from_the_terminal_are_alt_and_the_digit(driver: tuple[Recording, int]) -> None:
    """tmux, xterm and GNOME Terminal send Alt+2 as ESC 2, which Textual read as "™" (issue 27,
    defect 3); a "¡" typed as a character stays "¡"."""
    recording, main = driver
    os.write(main, b"\x1b2")
    assert wait_until(lambda: recording.keys() == ["alt+2"]), recording.keys()
    os.write(main, "¡a\x1b9".encode())
    assert wait_until(lambda: recording.keys() == ["alt+2", "inverted_exclamation_mark", "a", "alt+9"]), \
        recording.keys()
    characters = [event.character for event in recording.seen if isinstance(event, events.Key)]
    assert characters[1] == "¡"
