"""A key pressed twice in quick succession (Esc Esc opens the rewind list, as in Claude Code)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

DOUBLE_PRESS_SECONDS = 0.8
"""Claude Code's window: in its TUI a second Esc 0.7 s after the first opened Rewind, 0.9 s after did not."""


class DoublePress:
    clock: ClassVar[Callable[[], float]] = staticmethod(lambda: time.monotonic())  # read late: tests replace it

    def __init__(self, window: float = DOUBLE_PRESS_SECONDS) -> None:
        self.window = window
        self._first: float | None = None

    def press(self) -> bool:
        """True when this press is the second of a pair (the pair is then used up)."""
        now = type(self).clock()
        if self._first is not None and now - self._first <= self.window:
            self._first = None
            return True
        self._first = now
        return False

    def reset(self) -> None:
        """The press did something else (closed a menu, interrupted): it starts no pair."""
        self._first = None
