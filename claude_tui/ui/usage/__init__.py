"""The usage screen (`/usage`, the palette): cost and tokens of every session, with pictures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.widget import Widget

from claude_tui.transport.options import CliOptions

from .screen import LIMITS, UsageScreen

__all__ = ["LIMITS", "UsageScreen", "open_usage"]


def open_usage(app: App[Any], options: CliOptions, live_session_id: str | None,
               ask_limits: Callable[[], object] | None, limits: Widget | None = None) -> None:
    """Push the screen for the machine the active session runs on (a remote one's mirrored store as
    last read); `ask_limits` sends Claude Code's own /usage when its Limits tab asks for it; `limits`
    shows the plan's limits atop that tab."""
    from claude_tui.remote.machine import machine_for

    machine = machine_for(options)
    root, index = machine.session_root(), machine.index_path()
    where = machine.label if machine.remote else ""

    def done(result: str | None) -> None:
        if result == LIMITS and ask_limits is not None:
            ask_limits()

    app.push_screen(UsageScreen(config_root=root, index_path=index, live_session_id=live_session_id,
                                where=where, limits=limits), done)
