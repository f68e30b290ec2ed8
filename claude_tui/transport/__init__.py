"""The Claude Code CLI as an asyncio subprocess (no textual here).

Importing this package does not import the protocol; `ClaudeClient` lives in
`claude_tui.transport.client`.
"""

from claude_tui.transport.errors import (
    ClaudeNotFoundError,
    ControlError,
    ControlTimeout,
    ProcessGoneError,
    TransportError,
)
from claude_tui.transport.events import AutoAnswered, ProcessExited
from claude_tui.transport.locate import find_claude
from claude_tui.transport.options import CliOptions, build_argv, build_env
from claude_tui.transport.reaper import kill_all_children

__all__ = [
    "AutoAnswered",
    "ClaudeNotFoundError",
    "CliOptions",
    "ControlError",
    "ControlTimeout",
    "ProcessExited",
    "ProcessGoneError",
    "TransportError",
    "build_argv",
    "build_env",
    "find_claude",
    "kill_all_children",
]


def __getattr__(name: str) -> object:
    # Lazy so that the light pieces (locate/options) import without the protocol.
    if name == "ClaudeClient":
        from claude_tui.transport.client import ClaudeClient

        return ClaudeClient
    raise AttributeError(name)
