"""The numbers and words the status bar shows, derived from protocol messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from claude_tui.protocol.content import Usage


class Activity(str, Enum):
    STARTING = "starting"
    IDLE = "idle"
    THINKING = "thinking"
    RESPONDING = "responding"
    RUNNING_TOOL = "running"
    WAITING = "waiting for you"
    RETRYING = "retrying"
    COMPACTING = "compacting"
    EXITED = "exited"


CONTEXT_WARNING = 0.8


def usage_tokens(usage: Usage | None) -> int:
    """Tokens a request put in the context window (input incl. cache + output)."""
    if usage is None:
        return 0
    return usage.context_tokens + (usage.output_tokens or 0)


@dataclass
class SessionStatus:
    session_id: str = ""
    model: str = ""
    permission_mode: str = "default"
    asked_mode: str = ""
    """The mode last asked for (Shift+Tab, the palette) while the CLI has not confirmed it yet, else "":
    the bar shows it at once, and the next press steps on from it rather than from the confirmed one."""
    cwd: str = ""
    cli_version: str = ""
    activity: Activity = Activity.STARTING
    running_tool: str = ""
    retry_attempt: int = 0
    retry_max: int = 0
    retry_error: str = ""
    cost_total: float = 0.0
    cost_forked: float = 0.0
    """What the parent had cost when this session was forked from it. The CLI's totals go on
    counting it (`cost_total`); what the fork itself cost is the rest (`own_cost`)."""
    cost_last_turn: float = 0.0
    context_tokens: int = 0
    context_window: int = 0
    tools: list[str] = field(default_factory=list)
    slash_commands: list[str] = field(default_factory=list)
    mcp_servers: list[dict[str, Any]] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    turns: int = 0
    limit_warning: str = ""
    # What a `statusLine` command is told (Claude Code's input): from `system/init`, the results and
    # the edits' diffs.
    output_style: str = "default"
    added_dirs: list[str] = field(default_factory=list)
    fast_mode: bool = False
    api_duration_ms: float = 0.0
    """The API time of every turn so far (the results' `duration_api_ms`, summed)."""
    lines_added: int = 0
    lines_removed: int = 0
    last_usage: dict[str, int] | None = None
    """The last reply's tokens: input, output, cache writes and cache reads, as the API counted them."""
    """The plan's limit nears or is reached ("5-hour limit 85%"), from the CLI's rate_limit_event; "" else."""

    @property
    def own_cost(self) -> float:
        """What this session cost, a fork's parent's share left out (what the bar and its tab show)."""
        return max(0.0, self.cost_total - self.cost_forked)

    @property
    def short_session_id(self) -> str:
        return self.session_id[:8]

    @property
    def turn_running(self) -> bool:
        """A turn is under way (a prompt sent now would be queued behind it)."""
        return self.activity not in (Activity.IDLE, Activity.STARTING, Activity.EXITED)

    @property
    def context_fraction(self) -> float | None:
        if self.context_window <= 0:
            return None
        return min(1.0, self.context_tokens / self.context_window)

    @property
    def context_warning(self) -> bool:
        fraction = self.context_fraction
        return fraction is not None and fraction >= CONTEXT_WARNING

    def activity_words(self) -> str:
        if self.activity is Activity.RUNNING_TOOL and self.running_tool:
            return f"running {self.running_tool}"
        if self.activity is Activity.RETRYING:
            words = f"retrying {self.retry_attempt} of {self.retry_max}" if self.retry_max else "retrying"
            return f"{words} ({self.retry_error})" if self.retry_error else words
        return str(self.activity.value)
