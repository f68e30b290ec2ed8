"""claude-tui: a full-screen terminal UI for the Claude Code CLI."""

__version__ = "0.1.0"
