"""Test suites for claude-tui."""
