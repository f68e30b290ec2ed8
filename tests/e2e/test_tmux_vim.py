"""Vim mode from a real terminal against the real CLI: /vim, edit in normal mode, Enter sends the edit."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.mock_api import MockApi
from tests.e2e.test_tmux_burst import typed_prompts
from tests.e2e.tmux_harness import Tmux, app_command, sweep, tmux  # noqa: F401 - tmux is a fixture


def test_vim_mode_edits_and_sends(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],  # noqa: F811
                                  project_dir: Path, mock_api: MockApi, tmp_path: Path) -> None:
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_ready()
        tmux.send("/vim")
        tmux.wait_screen(lambda s: "-- INSERT --" in s, "vim mode on, in insert mode")
        tmux.keys("hello big world", literal=True)
        tmux.wait_screen(lambda s: "hello big world" in s, "the typed text")
        # Each Esc is waited out: Esc and a letter in one write are the terminal's Alt+letter.
        tmux.keys("Escape")
        tmux.wait_screen(lambda s: "-- NORMAL --" in s, "normal mode")
        tmux.keys("bbdw0cwbye", literal=True)
        tmux.wait_screen(lambda s: "bye world" in s and "-- INSERT --" in s, "dw and cw applied")
        tmux.keys("Escape")
        tmux.wait_screen(lambda s: "-- NORMAL --" in s, "normal mode again")
        tmux.keys("A!", literal=True)
        tmux.wait_screen(lambda s: "bye world!" in s, "A appends")
        tmux.keys("Escape")
        tmux.wait_screen(lambda s: "-- NORMAL --" in s, "normal mode before Enter")
        tmux.keys("Enter")  # sends from normal mode, as in Claude Code
        tmux.wait_screen(lambda s: "You said: bye world!" in s, "the answer to the edited prompt")
        assert typed_prompts(mock_api) == ["bye world!"]
        tmux.quit()
    finally:
        tmux.kill()
        left, pids = sweep(10)
    assert not pids, f"processes outlived claude-tui: {left}"
