"""What the tab bar and the overview know about one open session: a frozen snapshot.

The session (`ChatSession.summary()`) makes one whenever its state changes; the tab bar
and the overview only draw them. Keeping this a plain value (no widget, no session) is
what lets both be drawn, tested and snapshot without a CLI.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class TabState(str, Enum):
    """A tab's state as the tab bar shows it (one glyph and one colour each)."""

    STARTING = "starting"
    STREAMING = "streaming"  # a turn runs: thinking, answering, running a tool, retrying, compacting
    WAITING = "waiting for you"  # a dialog (permission, question, plan) waits for an answer
    IDLE = "idle"
    ERROR = "error"  # the CLI failed to start, or exited on its own
    EXITED = "exited"  # stopped on purpose (closing, restart in progress)


@dataclass(frozen=True, slots=True)
class TabSummary:
    tab_id: str
    """Stable for the tab's life (not its position): what Selected messages and the overview return."""
    name: str
    """Already printable (one row, no control characters)."""
    state: TabState = TabState.STARTING
    cost_usd: float = 0.0
    attention: bool = False
    """A background tab needs you (a dialog waits); cleared once the tab is shown."""
    last_activity: float | None = None
    """Wall-clock time (time.time()) of the last news from its CLI or its user; None: none yet."""
    pending: str = ""
    """The question waiting for you, one printable line ("Bash: rm -rf build"), or ""."""
    cwd: str = ""
    host: str = ""
    """The ssh destination's label when the CLI runs on another machine, else ""."""
