"""Deterministic chat-screen states for snapshots and screenshots.

The app runs with an inert CLI (a process that never answers), and the
screen is fed recorded protocol lines directly: the same code path as live
messages, without timing or random ids.
"""

from __future__ import annotations

import sys
from pathlib import Path

from claude_tui.config import Config
from claude_tui.protocol import decode_line
from claude_tui.session.status import Activity
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat.view import ChatView

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "claude-code-2.1.330"
INERT_CLI = [sys.executable, "-c", "import sys, time; sys.stdin.read(); time.sleep(0.1)"]
# An existing directory that is the same on every machine (the recordings use /home/user/project).
PROJECT = "/"


def recorded(name: str) -> list[str]:
    return [ln for ln in (FIXTURES / f"{name}.stdout.ndjson").read_text().splitlines() if ln.strip()]


class StateApp(ClaudeTuiApp):
    """ClaudeTuiApp whose chat screen is fed `feeds` (prompt, recording name, line limit) after mounting."""

    def __init__(self, feeds: list[tuple[str, str, int | None]], *, theme: str = "textual-dark",
                 after: str = "", **config: object) -> None:
        options = CliOptions(cwd=PROJECT, command=INERT_CLI)
        super().__init__(options, Config(theme=theme, **config))  # type: ignore[arg-type]
        self.feeds = feeds
        self.after = after
        self.animation_level = "none"

    async def feed(self) -> None:
        screen = self.chat
        assert isinstance(screen, ChatView)
        screen.session.conversation.status.activity = Activity.IDLE
        for prompt, name, limit in self.feeds:
            if prompt:
                await screen.show_changes(screen.session.conversation.add_user_prompt(prompt))
            lines = recorded(name)
            for line in lines[: limit if limit is not None else len(lines)]:
                message = decode_line(line)
                if type(message).__name__ == "ControlResponse":
                    continue
                await screen.show_changes(screen.session.conversation.apply(message))
        if self.after:
            screen.query_one("#prompt").text = self.after  # type: ignore[attr-defined]


def line_index(name: str, needle: str, occurrence: int = 1) -> int:
    """The index just after the n-th line containing `needle` (to cut a recording mid-stream)."""
    seen = 0
    for index, line in enumerate(recorded(name)):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return index + 1
    raise ValueError(needle)
