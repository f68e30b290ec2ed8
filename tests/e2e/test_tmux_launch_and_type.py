"""Launch and type at once, from a real terminal, against the real CLI: keys that come before the
prompt exists (the app still importing, its screen still mounting) are held and replayed in order,
and an Enter typed while the terminal was still in cooked mode (it arrives as a line feed) sends."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.mock_api import MockApi
from tests.e2e.test_tmux_burst import typed_prompts
from tests.e2e.tmux_harness import Tmux, app_command, sweep, tmux  # noqa: F401 - tmux is a fixture


def test_keys_typed_as_the_app_starts_are_the_first_prompt(tmux: Tmux, claude_bin: Path,  # noqa: F811
                                                            e2e_env: dict[str, str], project_dir: Path,
                                                            mock_api: MockApi, tmp_path: Path) -> None:
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.keys("kw:plain typed at launch\r", literal=True)  # no wait: the app is not drawn yet
        tmux.wait_screen(lambda s: "You said: kw:plain typed at launch" in s, "the answer to the early prompt")
        tmux.wait_screen(lambda s: "idle" in s, "the turn to end")
        assert typed_prompts(mock_api) == ["kw:plain typed at launch"]
        tmux.quit()
    finally:
        tmux.kill()
        left, pids = sweep(10)
    assert not pids, f"processes outlived claude-tui: {left}"
