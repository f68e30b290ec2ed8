"""The permission modes a session can switch to (Shift+Tab cycles them, the palette lists them).

Only modes the running CLI offers: `auto` from the version that has it (or once the CLI says it runs
in it), `bypassPermissions` only when the session was started allowing it.
"""

from __future__ import annotations

from claude_tui.protocol.versions import offers_auto
from claude_tui.session.status import SessionStatus
from claude_tui.transport.options import CliOptions

CYCLE = ("default", "acceptEdits", "plan")

MODE_WORDS = {
    "default": "ask before edits and commands",
    "acceptEdits": "accept file edits without asking",
    "plan": "plan only, change nothing",
    "auto": "Claude Code decides what is safe to run without asking",
    "bypassPermissions": "never ask (dangerous)",
}

ASKS_LESS = {"acceptEdits", "auto", "bypassPermissions", "dontAsk"}
"""Modes where some tools run without a dialog: the status bar marks them."""


def bypass_allowed(options: CliOptions) -> bool:
    """Whether the session was started in a way that allows bypassPermissions (a flag, or the mode itself)."""
    args = set(options.extra_args)
    return bool(args & {"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions"}) or \
        options.permission_mode == "bypassPermissions"


def available_modes(status: SessionStatus, bypass_allowed: bool) -> list[str]:
    modes = list(CYCLE)
    if offers_auto(status.cli_version) or status.permission_mode == "auto":
        modes.append("auto")
    if bypass_allowed:
        modes.append("bypassPermissions")
    return modes


def next_mode(status: SessionStatus, bypass_allowed: bool) -> str:
    """One step on from the mode last asked for: presses faster than the CLI confirms each still
    count one step each (stepping from the confirmed mode made two quick presses land on one)."""
    modes = available_modes(status, bypass_allowed)
    current = status.asked_mode or status.permission_mode
    return modes[(modes.index(current) + 1) % len(modes)] if current in modes else modes[0]
