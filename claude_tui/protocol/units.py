"""Amounts as a person reads them: how long ago, how long, how much it cost, how big.

One rule per notion, so the browser, the overview, the tab bar, the sidebar, the status bar and
the diff notes never disagree about the same amount. Pure functions of their arguments (``now``
is passed in), so a test or a snapshot fixes the clock.
"""

from __future__ import annotations

import math

_CALENDAR = ((365, "year"), (30, "month"), (7, "week"), (1, "day"))


def ago(timestamp: float | None, now: float) -> str:
    """"just now", "12 s ago", "3 min ago", "2 h ago", "3 days ago", "2 weeks ago"; "" when unknown.

    Seconds count under a minute so a live tab visibly ages; from a day on, calendar words read
    better than "14 d". A timestamp after ``now`` (the clock stepped back) is "just now", never
    "in the future".
    """
    if not timestamp or not math.isfinite(timestamp) or not math.isfinite(now):
        return ""
    seconds = int(max(0.0, now - timestamp))
    if seconds < 1:
        return "just now"
    if seconds < 60:
        return f"{seconds} s ago"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    if seconds < 86400:
        return f"{seconds // 3600} h ago"
    days = seconds // 86400
    size, unit = next((size, unit) for size, unit in _CALENDAR if days >= size)
    count = days // size
    return f"{count} {unit}{'s' if count != 1 else ''} ago"


def elapsed(seconds: float) -> str:
    """"12s", "3m05s", "1h02m": two units at most, so the width stays small as a turn runs on."""
    whole = int(seconds) if math.isfinite(seconds) and seconds > 0 else 0
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


def cost(amount: float | None) -> str:
    """"<$0.01", "$0.42", "$12.00", "$1,234"; "" when nothing was spent or it is unknown.

    Cents below $100, whole dollars from there (a cost sits in narrow columns: the tab bar, the
    browser's and the overview's tables).
    """
    if amount is None or not math.isfinite(amount) or amount <= 0:
        return ""
    if amount < 0.01:
        return "<$0.01"
    return f"${amount:.2f}" if amount < 100 else f"${amount:,.0f}"


def money(amount: float) -> str:
    """"$0.0141", "$12.34", "$1,234": a running total or a report's sum, to a hundredth of a cent
    below a dollar (a turn often costs less than a cent), whole dollars from $100."""
    if not math.isfinite(amount):
        return ""
    if amount >= 100:
        return f"${amount:,.0f}"
    if amount >= 1:
        return f"${amount:,.2f}"
    return f"${amount:.4f}"


def size(count: float) -> str:
    """"512 B", "1.5 KB", "3.2 MB", "1.0 GB" (1024 to the next unit; GB is the last)."""
    amount = max(0.0, float(count)) if math.isfinite(count) else 0.0
    if amount < 1024:
        return f"{amount:.0f} B"
    for unit in ("KB", "MB", "GB"):
        amount /= 1024
        if round(amount, 1) < 1024 or unit == "GB":
            return f"{amount:.1f} {unit}"
    return ""  # pragma: no cover - the loop returns at GB
