"""The plan's limit in a few words for the status bar, from the CLI's `rate_limit_event` (pure)."""

from __future__ import annotations

import time

from claude_tui import protocol as p

__all__ = ["limit_words"]

_NAMES = {"five_hour": "5-hour limit", "seven_day": "weekly limit", "seven_day_opus": "weekly Opus limit",
          "seven_day_sonnet": "weekly Sonnet limit", "seven_day_overage_included": "weekly limit",
          "overage": "extra usage"}


def limit_words(info: p.RateLimitInfo, clock: float | None = None) -> str:
    """"" while the limit is far; "5-hour limit 85%" as it nears; "5-hour limit reached · resets 15:00"."""
    if info.status not in ("allowed_warning", "rejected"):
        return ""
    name = _NAMES.get(info.rate_limit_type or "", "plan limit")
    if info.status == "rejected":
        words = f"{name} reached"
    else:
        used = info.utilization
        share = "" if used is None else f" {used * 100 if used <= 1 else used:.0f}%"  # a fraction or a percentage
        words = f"{name}{share}"
    if info.resets_at:
        now = time.time() if clock is None else clock
        fmt = "%H:%M" if info.resets_at - now < 86_400 else "%a %H:%M"
        words += f" · resets {time.strftime(fmt, time.localtime(info.resets_at))}"
    return words
