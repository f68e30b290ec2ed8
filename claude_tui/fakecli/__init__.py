"""A scripted stand-in for `claude` that plays real recordings (no textual).

``python -m claude_tui.fakecli [claude flags]`` speaks stream-json on
stdin/stdout like ``claude --input-format stream-json --output-format
stream-json``; see `claude_tui.fakecli.server` for behaviour and knobs.
"""

from __future__ import annotations

import sys

__all__ = ["command"]


def command() -> list[str]:
    """The argv prefix that spawns the fake CLI (use as ``CliOptions.command``)."""
    return [sys.executable, "-m", "claude_tui.fakecli"]
