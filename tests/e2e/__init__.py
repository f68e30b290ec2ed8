"""End-to-end tier: the real Claude Code CLI against a local Messages API stand-in."""
