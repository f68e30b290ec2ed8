"""`/usage`: the plan's limits (`get_usage`): how much of the 5-hour and weekly limits is used
and when each resets, with this session's cost. An API-key (or provider) account has no limits,
and the screen says so.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from claude_tui.protocol import manage
from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.manage.base import ManageScreen

__all__ = ["UsageScreen", "usage_text", "resets_words"]

_WIDTH = 30


def resets_words(stamp: str | None) -> str:
    if not stamp:
        return ""
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return f"resets {printable_name(stamp)}"
    return f"resets {when:%a %H:%M}"


def usage_text(raw: dict[str, Any]) -> Text:
    usage = manage.parse_answer(manage.Usage, raw)
    out = Text()
    plan = printable_name(usage.subscription_type or "")
    if not usage.rate_limits_available or not usage.windows():
        out.append("Plan limits: none for this account", style="bold")
        out.append(" (an API key or a cloud provider pays per token; Claude.ai plans have 5-hour and weekly "
                   "limits).\n" if not plan else f" (the {plan} plan reports none right now).\n")
    else:
        out.append(f"Plan limits{f' ({plan})' if plan else ''}\n", style="bold")
        for label, window in usage.windows():
            used = max(0.0, min(100.0, float(window.utilization or 0)))
            filled = round(_WIDTH * used / 100)
            style = "red" if used >= 90 else "yellow" if used >= 75 else "green"
            out.append(f"  {label:<26} ")
            out.append("█" * filled, style=style)
            out.append("░" * (_WIDTH - filled), style="grey42")
            out.append(f" {used:3.0f}%  {resets_words(window.resets_at)}\n")
    session = usage.session
    cost = session.get("total_cost_usd")
    if isinstance(cost, (int, float)):
        added, removed = session.get("total_lines_added", 0), session.get("total_lines_removed", 0)
        out.append(f"\nThis session: ${cost:.4f}", style="bold")
        out.append(f" · {added} lines added, {removed} removed\n")
    return out


class UsageScreen(ManageScreen):
    TITLE_TEXT = "Usage and limits"
    REQUEST = "get_usage"
    WHAT = "show plan limits"

    def compose_body(self) -> ComposeResult:
        yield Static(Text(""), id="manage-content")

    def build(self) -> dict[str, Any]:
        return manage.get_usage()

    def draw(self, answer: dict[str, Any]) -> None:
        self.query_one("#manage-content", Static).update(usage_text(answer))

    def turn_ended(self) -> None:
        if self.lacking is None:
            self._load()
