"""The plan's limits (`get_usage`), a panel of the usage screen's Limits tab (`/usage`): how much of
the 5-hour and weekly limits is used and when each resets, with this session's cost. An API-key (or
provider) account has no limits, and the panel says so; an older CLI, that it cannot tell.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.text import Text
from textual import work
from textual.widgets import Static

from claude_tui.protocol import manage, versions
from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.manage.base import Asker

__all__ = ["LimitsPanel", "usage_text", "resets_words"]

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


class LimitsPanel(Static):
    """Asks the session's CLI on mount (and on `refresh_limits`), in a worker; draws the answer."""

    DEFAULT_CSS = """
    LimitsPanel { height: auto; margin-bottom: 1; padding: 0 1; background: $boost; }
    """

    def __init__(self, asker: Asker, *, id: str | None = "usage-plan-limits") -> None:
        super().__init__(Text("Asking Claude Code for the plan's limits…"), id=id)
        self.asker = asker
        self.loads = 0

    def on_mount(self) -> None:
        self.refresh_limits()

    def refresh_limits(self) -> None:
        note = versions.lacks(self.asker.cli_version, "get_usage", "show the plan's limits")
        if note is not None:
            self.update(Text(note))
            return
        self._ask()

    @work(exclusive=True, group="plan-limits", exit_on_error=False)
    async def _ask(self) -> None:
        try:
            answer = await self.asker.ask(manage.get_usage())
        except Exception as exc:  # the CLI's refusal, a timeout, a process gone: said in the panel
            self.update(Text(f"Claude Code did not tell the plan's limits: {printable_name(str(exc))}"))
        else:
            self.update(usage_text(answer))
        self.loads += 1
