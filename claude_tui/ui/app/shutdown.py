"""Ending the app however it ends, and never hanging while it does.

* SIGTERM, SIGHUP (the terminal closed) and SIGINT start the same clean stop as Ctrl+Q: the CLI
  gets an interrupt, stdin EOF and a grace period (`ChatSession.shutdown`, every tab at once), then the app exits.
  A second signal stops waiting.
* The `Watchdog` thread ends the process if that does not finish: after a signal
  (`SIGNAL_BUDGET`), after `exit()` (`EXIT_BUDGET`: Textual's own shutdown has been seen stuck
  for good in ``LinuxDriver.close`` once the terminal was gone) and when the controlling terminal
  disappears without a signal (`TERMINAL_GONE_BUDGET`). Firing means: end every process we
  started (`reaper.kill_all_children`), put the terminal back if it is still there, ``os._exit``.

The signal handler only writes attributes and calls ``call_soon_threadsafe``: Python runs it in
the main thread between bytecodes, possibly while that thread holds a lock (the hang above was a
main thread stuck in ``Queue.put``), so it must not take locks or wait. The watchdog is a plain
polling thread for the same reason: it works when the event loop does not run any more.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from claude_tui.transport import reaper

__all__ = ["Watchdog", "StopSignals", "EarlySignals", "EARLY_SIGNALS",
           "STOP_SIGNALS", "SIGNAL_BUDGET", "EXIT_BUDGET", "TERMINAL_GONE_BUDGET",
           "terminal_gone"]

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
SIGNAL_BUDGET = 12.0
"""Seconds from a stop signal to a forced exit: the CLI's clean stop (interrupt 1 s, EOF grace
2.5 s, SIGTERM 2 s) plus Textual's shutdown."""
EXIT_BUDGET = 4.0
"""Seconds from `App.exit` to a forced exit: Textual's shutdown and the interpreter's."""
TERMINAL_GONE_BUDGET = 12.0
"""Seconds the app may live on after its terminal disappeared (SIGHUP normally ends it sooner)."""

# What Textual's driver turns on, turned off: alt screen, hidden cursor, mouse modes, bracketed
# paste, focus events, the Kitty keyboard protocol.
_RESET = ("\x1b[<u\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
          "\x1b[?2004l\x1b[?1004l")


def terminal_gone() -> bool:
    """True when the controlling terminal has hung up (a closed window, tmux kill-session)."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as error:
        return error.errno in (errno.ENXIO, errno.EIO, errno.ENODEV, errno.ENOENT)
    os.close(fd)
    return False


class Watchdog:
    """Ends the process if it is still alive at a deadline. `arm` is safe in a signal handler."""

    def __init__(self, *, kill_children: Callable[[], None] | None = None,
                 hard_exit: Callable[[int], Any] = os._exit, is_terminal_gone: Callable[[], bool] = terminal_gone,
                 poll: float = 1.0, terminal_poll: float = 1.0) -> None:
        # One wake-up a second: a deadline fires up to a second late (the budgets are 4-12 s), and an
        # idle app does not wake five times a second for it.
        self.deadline: float | None = None
        self.code = 1
        self.reason = ""
        self.fired = False
        self._kill_children = kill_children or (lambda: reaper.kill_all_children(grace=0.3))
        self._hard_exit = hard_exit
        self._is_terminal_gone = is_terminal_gone
        self._poll = poll
        self._terminal_poll = terminal_poll
        # Only a terminal we had can go away (started without one: nothing to watch).
        self._watch_terminal = not is_terminal_gone()
        self._termios: list[Any] | None = None
        self._thread = threading.Thread(target=self._run, name="claude-tui-watchdog", daemon=True)

    def start(self) -> Watchdog:
        self._remember_terminal()
        self._thread.start()
        return self

    def arm(self, seconds: float, code: int, reason: str) -> None:
        """Fire in `seconds` unless an earlier deadline is set. Plain attribute writes only."""
        deadline = time.monotonic() + seconds
        if self.deadline is None or deadline < self.deadline:
            self.code, self.reason, self.deadline = code, reason, deadline

    def stop(self) -> None:
        """End the thread without firing (tests; the app simply exits)."""
        self.fired = True

    def _run(self) -> None:
        next_terminal_check = 0.0
        while not self.fired:
            time.sleep(self._poll)
            now = time.monotonic()
            if self._watch_terminal and now >= next_terminal_check:
                next_terminal_check = now + self._terminal_poll
                if self._is_terminal_gone():
                    self._watch_terminal = False
                    self.arm(TERMINAL_GONE_BUDGET, 128 + signal.SIGHUP, "the terminal is gone")
            deadline = self.deadline
            if deadline is not None and now >= deadline and not self.fired:
                self.fire()

    def fire(self) -> None:
        self.fired = True
        with contextlib.suppress(Exception):
            self._kill_children()
        with contextlib.suppress(Exception):
            if not self._is_terminal_gone():
                self._restore_terminal()
        with contextlib.suppress(Exception):
            os.write(2, f"\nclaude-tui: {self.reason or 'shutdown'} did not finish in time; forced exit.\n".encode())
        self._hard_exit(self.code)

    # -- the terminal ---------------------------------------------------------------------
    def _remember_terminal(self) -> None:
        with contextlib.suppress(Exception):
            import termios

            if os.isatty(0):
                self._termios = termios.tcgetattr(0)

    def _restore_terminal(self) -> None:
        # Non-blocking: a terminal that stopped reading must not hang the forced exit too.
        with contextlib.suppress(Exception):
            if self._termios is not None:
                import termios

                termios.tcsetattr(0, termios.TCSANOW, self._termios)
        with contextlib.suppress(Exception):
            fd = sys.__stderr__.fileno() if sys.__stderr__ is not None else 2
            if os.isatty(fd):
                os.set_blocking(fd, False)
                os.write(fd, _RESET.encode())


class StopSignals:
    """SIGTERM/SIGHUP/SIGINT → `on_stop(signum)` in the event loop, with the watchdog armed first.

    A second signal fires the watchdog at once (the first stop is evidently stuck)."""

    def __init__(self, watchdog: Watchdog, schedule: Callable[[int], object]) -> None:
        self.watchdog = watchdog
        self._schedule = schedule  # e.g. lambda s: loop.call_soon_threadsafe(app.stop_for_signal, s)
        self.received: int | None = None

    def install(self) -> None:
        for sig in STOP_SIGNALS:
            with contextlib.suppress(ValueError, OSError):  # not the main thread
                signal.signal(sig, self._handle)

    def handle(self, signum: int) -> None:
        """As if `signum` arrived now (one that came before `install`)."""
        self._handle(signum, None)

    def _handle(self, signum: int, frame: object) -> None:
        if self.received is not None:
            self.watchdog.arm(0, 128 + signum, f"signal {signum} (again)")
            return
        self.received = signum
        self.watchdog.arm(SIGNAL_BUDGET, 128 + signum, f"the stop after signal {signum}")
        with contextlib.suppress(Exception):
            self._schedule(signum)


class EarlySignals:
    """SIGTERM/SIGHUP that arrive before the app's own handlers (`StopSignals`) are in.

    Start-up imports take 1–1.6 s on a loaded 2-core machine; the default action then killed the
    process by the signal instead of ending it as a stop does (status 128+N, what we started ended).
    Until the app exists (`launching`), the handler raises `SystemExit(128+N)`: nothing is on screen
    and nothing can be lost, and the interpreter's exit ends the early CLI. Once the app is built it
    only records the signal, and the app stops at once when it installs its own (`received`): a
    SystemExit inside Textual's start would leave the terminal half set up.
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self.launching = True

    def install(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(ValueError, OSError):  # not the main thread
                signal.signal(sig, self._handle)

    def _handle(self, signum: int, frame: object) -> None:
        if self.received is None:
            self.received = signum
        if self.launching:
            raise SystemExit(128 + signum)


EARLY_SIGNALS = EarlySignals()
"""The launcher's (`launch.run_app`); read by the app when it installs `StopSignals`."""
