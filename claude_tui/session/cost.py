"""The session's cost, from the totals the CLI reports in each `result`.

`result.total_cost_usd` is cumulative for the CLI's cost counter, but that counter does not live as
long as the session the user sees: `/clear` restarts it, and so does a new process after a crash
and a restart, F5 (unless the CLI restores its cost from the transcript). A total lower than the last one
is therefore a reset, not a refund: what the old counter reached is carried into a base, and the
total shown is the base plus what the current counter says. It never goes down.

A continued history (resume, fork) is the opposite case: the CLI's totals already include what the
history cost (`history`), so that is a floor for the total, never added on top.
"""

from __future__ import annotations

from claude_tui.session.status import SessionStatus

_EPSILON = 1e-9
"""Totals are sums of floats: equal totals must not look like a reset."""


class CostMeter:
    def __init__(self) -> None:
        self.history = 0.0
        """What the history this conversation continues already cost (a resumed or forked transcript's
        cost-state). The CLI's `total_cost_usd` includes it, so the total shown never drops below it."""
        self.base = 0.0
        """What earlier cost counters reached before they were reset (/clear, a new process)."""
        self.reported = 0.0
        """The last total the current counter reported."""
        self.turn_start = 0.0
        """The total shown when the current turn started: a turn's cost is measured from it."""

    def carry_history(self, status: SessionStatus) -> None:
        """A continued history (resume, fork) keeps its cost: the CLI's totals count it."""
        if status.cost_total < self.history:
            status.cost_total = self.history

    def mark_turn(self, status: SessionStatus) -> None:
        """A turn starts: what it costs is measured from the total now (history included)."""
        self.carry_history(status)
        self.turn_start = status.cost_total

    def turn_ended(self, status: SessionStatus) -> None:
        self.turn_start = status.cost_total

    def on_total(self, status: SessionStatus, total: float) -> None:
        """A `result`'s `total_cost_usd`: update the session total and the last turn's cost."""
        if total < self.reported - _EPSILON:
            self.base += self.reported  # the counter restarted: keep what it had counted
        self.reported = total
        status.cost_total = max(self.base + total, self.history, 0.0)
        status.cost_last_turn = max(status.cost_total - self.turn_start, 0.0)
