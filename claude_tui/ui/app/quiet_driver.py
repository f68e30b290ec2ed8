"""Textual's Linux driver, with an input thread that sleeps while nobody types.

Textual's input thread waits for the terminal with a 0.1 s timeout, so that a lone Esc (a byte
that may start a longer sequence) is delivered once `ESCAPE_DELAY` has passed with nothing after
it. That is ten wake-ups a second for the whole session: measured here, 0.08-0.10 s of CPU a
minute in an idle app, more than the rest of the app and as much as the CLI's own idle.

This thread ticks the parser the same way while input comes in, and for a while after (well past
any escape delay); once the terminal has been quiet that long it waits for input with no timeout.
Stopping the thread (`disable_input` sets `exit_event`) writes to a pipe the wait also watches,
so it still ends at once.

Alt+digit: tmux, xterm and GNOME Terminal send Alt+1 as ESC then "1", which Textual's key table
reads as "¡" (what macOS's Option+1 types). Here ESC+digit is handed to the parser as the kitty
protocol's Alt+digit instead (`alt_digits`), so Alt+1…9 switch tabs; a "¡" typed as a character
arrives without the ESC and stays "¡".
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import threading
import time
from codecs import getincrementaldecoder
from typing import Any

from textual import constants
from textual._xterm_parser import XTermParser  # Textual has no public way to change the input thread's poll
from textual.drivers.linux_driver import LinuxDriver

TICK = 0.1
"""Seconds between parser ticks while input may still be pending (Textual's own interval)."""
QUIET_AFTER = max(2.0, 4 * constants.ESCAPE_DELAY)
"""Seconds without input after which the thread waits with no timeout (no escape can be pending)."""
_ESC_DIGIT = re.compile("\x1b([0-9])")


def alt_digits(text: str) -> str:
    """ESC+digit, as a terminal sends Alt+digit, as the kitty protocol's Alt+digit (CSI code;3u).

    No key sequence of a terminal has a digit right after ESC (CSI is ESC "[", SS3 is ESC "O"),
    so only Alt+digit is changed. (An ESC and a digit split across two reads stay as they are.)"""
    return _ESC_DIGIT.sub(lambda match: f"\x1b[{ord(match.group(1))};3u", text)


class _WakingEvent(threading.Event):
    """`exit_event`: setting it also wakes the input thread's wait."""

    def __init__(self, wake: int) -> None:
        super().__init__()
        self._wake = wake

    def set(self) -> None:
        super().set()
        try:
            os.write(self._wake, b"x")
        except OSError:  # pragma: no cover - a full pipe is already awake
            pass


class QuietLinuxDriver(LinuxDriver):
    """`LinuxDriver` whose input thread does not wake while the terminal is quiet."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._input_thread: threading.Thread | None = None
        self._open_wake_pipe()

    def _open_wake_pipe(self) -> None:
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        self.exit_event = _WakingEvent(self._wake_write)
        self._pipe_open = True

    def start_application_mode(self) -> None:
        # `App.suspend` (Ctrl+G's editor) closes the driver and starts it again: a new input
        # thread needs a wake pipe again (the old one's fds were closed, select() failed with EBADF).
        if not self._pipe_open:
            self._open_wake_pipe()
        super().start_application_mode()  # type: ignore[no-untyped-call]  # untyped in Textual's LinuxDriver

    def close(self) -> None:
        super().close()
        thread = self._input_thread
        if thread is not None and thread.is_alive():
            return  # still waiting on the pipe (never stopped): closing its fds under it is worse than keeping two
        for fd in (self._wake_read, self._wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._pipe_open = False

    def run_input_thread(self) -> None:
        self._input_thread = threading.current_thread()
        selector = selectors.SelectSelector()  # as Textual's: select() works on every terminal fd
        selector.register(self.fileno, selectors.EVENT_READ)
        selector.register(self._wake_read, selectors.EVENT_READ)
        parser = XTermParser()
        decode = getincrementaldecoder("utf-8")().decode
        last_input = time.monotonic()
        try:
            while not self.exit_event.is_set():
                quiet = time.monotonic() - last_input > QUIET_AFTER
                for key, _mask in selector.select(None if quiet else TICK):
                    if key.fd == self._wake_read:
                        _drain(self._wake_read)
                        continue
                    raw = os.read(self.fileno, 4096)
                    if not raw:
                        selector.unregister(self.fileno)  # end of input (not a terminal): nothing more to wait for
                        continue
                    last_input = time.monotonic()
                    text = decode(raw)
                    if text:  # "" until a split UTF-8 character is whole; feeding "" means end of input
                        for event in parser.feed(alt_digits(text)):
                            self.process_message(event)
                for event in parser.tick():
                    self.process_message(event)
        finally:
            selector.close()


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 64):
            pass
    except BlockingIOError:
        pass
