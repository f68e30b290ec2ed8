"""Alt+1…9 switch tabs in a real terminal (issue 27, defect 3): tmux sends Alt+2 as ESC 2, which
Textual read as "™" (and Alt+1 as "¡"); the app reads it as Alt+2. Two tabs, each its real CLI."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.mock_api import MockApi
from tests.e2e.test_tmux_tabs import bar_row
from tests.e2e.tmux_harness import Tmux, app_command, sweep, tmux  # noqa: F401 - tmux is a fixture


def test_alt_digits_switch_tabs_in_tmux(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],  # noqa: F811
                                        project_dir: Path, mock_api: MockApi, tmp_path: Path) -> None:
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))

    def shows_tab_two(screen: str) -> bool:
        return "You said: kw:plain hello from tab two" in screen.replace(bar_row(screen), "")

    try:
        tmux.wait_ready()
        tmux.keys("C-n")
        tmux.wait_screen(lambda s: bool(bar_row(s)) and "idle" in s, "the second tab to be ready")
        tmux.send("kw:plain hello from tab two")
        tmux.wait_screen(shows_tab_two, "tab two's answer")
        tmux.keys("M-1")
        screen = tmux.wait_screen(lambda s: not shows_tab_two(s), "Alt+1: tab one in view")
        assert "¡" not in screen
        tmux.keys("M-2")
        screen = tmux.wait_screen(shows_tab_two, "Alt+2: tab two in view again")
        assert "™" not in screen and "¡" not in screen
        tmux.quit()
    finally:
        tmux.kill()
        left, pids = sweep(10)
    assert not pids, f"processes outlived claude-tui: {left}"
