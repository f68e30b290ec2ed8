"""Pictures of usage in plain Unicode: a horizontal bar per period and a sparkline per model.

Plain characters only (block elements), so the same strings print in a terminal, a pipe and the
app; names beside them are made inert by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

_EIGHTHS = " ▏▎▍▌▋▊▉█"
_SPARKS = "▁▂▃▄▅▆▇█"


def bar(value: float, most: float, width: int) -> str:
    """A bar of ``width`` cells at most, in eighths of a cell; any value above zero shows."""
    if width <= 0 or most <= 0 or value <= 0:
        return ""
    eighths = max(1, round(min(value / most, 1.0) * width * 8))
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")


def sparkline(values: Sequence[float]) -> str:
    """One cell per value: ▁ for nothing, ▂..█ scaled to the largest (a value above zero is never ▁)."""
    most = max(values, default=0.0)
    if most <= 0:
        return _SPARKS[0] * len(values)
    out = []
    for value in values:
        if value <= 0:
            out.append(_SPARKS[0])
        else:
            out.append(_SPARKS[1 + min(len(_SPARKS) - 2, int(value / most * (len(_SPARKS) - 1) - 1e-9))])
    return "".join(out)


def tokens(value: int) -> str:
    """1,234 / 12.3k / 4.5M: short enough for a table cell."""
    if value >= 1_000_000_000:
        return f"{value / 1e9:.1f}B"
    if value >= 10_000_000:
        return f"{value / 1e6:.0f}M"
    if value >= 1_000_000:
        return f"{value / 1e6:.1f}M"
    if value >= 100_000:
        return f"{value / 1e3:.0f}k"
    if value >= 10_000:
        return f"{value / 1e3:.1f}k"
    return f"{value:,}"


def columns(values: Sequence[float], height: int) -> list[str]:
    """A column per value, ``height`` rows tall (top row first), in eighths of a row; one cell per column
    (the caller spaces them). Any value above zero shows at least an eighth."""
    most = max(values, default=0.0)
    levels = [0 if most <= 0 or v <= 0 else max(1, round(v / most * height * 8)) for v in values]
    rows = []
    for row in range(height - 1, -1, -1):
        line = []
        for level in levels:
            fill = level - row * 8
            line.append("█" if fill >= 8 else _EIGHTHS_UP[fill] if fill > 0 else " ")
        rows.append("".join(line))
    return rows


_EIGHTHS_UP = " ▁▂▃▄▅▆▇█"


MAX_DAYS = 366  # a chart draws the newest days that fit anyway


def every_day(days: Sequence[str]) -> list[str]:
    """Each day from the first of ``days`` (at most ``MAX_DAYS`` back from the last) to the last, the
    quiet ones too: a day without calls is a gap in a chart, not a missing column."""
    if not days:
        return []
    last = date.fromisoformat(days[-1])
    first = max(date.fromisoformat(days[0]), last - timedelta(days=MAX_DAYS - 1))
    return [(first + timedelta(days=i)).isoformat() for i in range((last - first).days + 1)]
