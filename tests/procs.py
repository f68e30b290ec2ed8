"""Waiting for a state and asking whether a process runs, for the tests that start processes or threads."""

from __future__ import annotations

import time
from collections.abc import Callable


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not reaped yet, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:].split()[0] not in (b"Z", b"X")


def wait_until(predicate: Callable[[], object], timeout: float = 10.0, step: float = 0.01) -> bool:
    """Poll `predicate` until it holds or `timeout` seconds pass; whether it holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())
