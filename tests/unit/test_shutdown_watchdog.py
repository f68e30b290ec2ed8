"""The shutdown watchdog (ui/app/shutdown.py) on its own: it fires at its deadline, after a terminal
disappears, at once on a second signal, and not before."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator

import pytest

from claude_tui.ui.app import shutdown
from claude_tui.ui.app.shutdown import StopSignals, Watchdog
from tests.procs import wait_until


class Recorder:
    def __init__(self) -> None:
        self.events: list[str] = []
        self.codes: list[int] = []

    def kill(self) -> None:
        self.events.append("kill")

    def exit(self, code: int) -> None:
        self.events.append("exit")
        self.codes.append(code)


_dogs: list[Watchdog] = []


@pytest.fixture(autouse=True)
def _stop_the_threads() -> Iterator[None]:
    yield
    while _dogs:
        _dogs.pop().stop()


def make(recorder: Recorder, gone: list[bool] | None = None) -> Watchdog:
    state = gone if gone is not None else [False]
    dog = Watchdog(kill_children=recorder.kill, hard_exit=recorder.exit, is_terminal_gone=lambda: state[0],
                   poll=0.01, terminal_poll=0.01)
    _dogs.append(dog)
    return dog


def test_an_armed_watchdog_ends_the_children_then_the_process() -> None:
    r = Recorder()
    dog = make(r).start()
    dog.arm(0.1, 143, "the stop after signal 15")
    assert wait_until(lambda: r.events == ["kill", "exit"])
    assert r.codes == [143] and dog.fired


def test_an_unarmed_watchdog_does_nothing() -> None:
    r = Recorder()
    make(r).start()
    time.sleep(0.2)
    assert r.events == []


def test_the_earlier_deadline_wins() -> None:
    r = Recorder()
    dog = make(r)
    dog.arm(60, 1, "late")
    dog.arm(0.05, 129, "early")
    dog.arm(30, 2, "later again")
    assert dog.code == 129 and dog.reason == "early"
    dog.start()
    assert wait_until(lambda: r.codes == [129])


def test_a_terminal_that_disappears_arms_it(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(shutdown, "TERMINAL_GONE_BUDGET", 0.05)
    r = Recorder()
    gone = [False]
    dog = make(r, gone).start()
    time.sleep(0.1)
    assert r.events == []
    gone[0] = True
    assert wait_until(lambda: r.codes == [128 + signal.SIGHUP])
    assert "terminal" in dog.reason


def test_no_terminal_at_start_is_not_a_terminal_gone() -> None:
    r = Recorder()
    make(r, [True]).start()  # started without a terminal (a pipe, a service): nothing to watch
    time.sleep(0.2)
    assert r.events == []


def test_a_signal_arms_the_watchdog_and_schedules_the_clean_stop() -> None:
    r = Recorder()
    dog = make(r)
    scheduled: list[int] = []
    stop = StopSignals(dog, scheduled.append)
    stop._handle(signal.SIGTERM, None)
    assert scheduled == [signal.SIGTERM]
    assert dog.deadline is not None and dog.code == 143
    assert dog.deadline - time.monotonic() > shutdown.SIGNAL_BUDGET - 1  # time for the clean stop
    # A second signal: no more waiting.
    stop._handle(signal.SIGHUP, None)
    assert scheduled == [signal.SIGTERM]
    dog.start()
    assert wait_until(lambda: r.events == ["kill", "exit"])
