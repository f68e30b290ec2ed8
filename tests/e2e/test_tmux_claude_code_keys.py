"""Claude Code's keys in a real terminal, against the real CLI: ``claude-tui`` in tmux.

The model is named before the first prompt (the CLI names it only with its first turn's
`system/init`); Ctrl+R finds an earlier prompt in as many keys as in Claude Code (Ctrl+R, the
letters, Enter); Ctrl+C interrupts a streaming turn and keeps the draft; Ctrl+G hands the
terminal to $EDITOR and takes its text back; Ctrl+C twice on an empty prompt quits.
"""

from __future__ import annotations

import stat
from pathlib import Path

from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import DONE_TEXT  # noqa: F401 - the scripts' words, for reading
from tests.e2e.tmux_harness import Tmux, app_command, tmux, wait_gone  # noqa: F401 (fixture)


def _prompt_line(screen: str) -> str:
    """The first text row of the prompt box (the row under its top border)."""
    rows = screen.splitlines()
    for index, row in enumerate(rows):
        if row.lstrip().startswith("╭") and index + 1 < len(rows) and "│" in rows[index + 1]:
            last = index
    return rows[last + 1] if "last" in locals() else ""


def test_claude_code_keys_in_a_real_terminal(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],  # noqa: F811
                                             project_dir: Path, mock_api: MockApi, tmp_path: Path) -> None:
    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\nprintf "written in the editor" > "$1"\n')
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    env = {**e2e_env, "VISUAL": str(editor)}
    tmux.start(app_command(claude_bin, project_dir, env, tmp_path / "app"))
    try:
        # Defect 7: named at once, before any prompt.
        tmux.wait_screen(lambda s: "idle" in s and "claude-opus-5-5" in s, "the model named before the first turn")

        for prompt in ("kw:plain the first question", "kw:plain another one"):
            tmux.keys(prompt, literal=True)
            tmux.keys("Enter")
            tmux.wait_screen(lambda s, p=prompt: s.count(p) >= 1 and "│ idle │" in s, f"{prompt!r} answered")

        # Ctrl+R, "first", Enter: the first prompt back in the prompt box (7 keys, as in Claude Code).
        tmux.keys("C-r")
        tmux.wait_screen(lambda s: "search history:" in s, "the search bar")
        tmux.keys("first", literal=True)
        tmux.wait_screen(lambda s: "match 1" in s, "a match")
        tmux.keys("Enter")
        tmux.wait_screen(lambda s: "search history:" not in s and "kw:plain the first question" in _prompt_line(s),
                         "the match in the prompt")
        sent = len(mock_api.requests)
        # Idle with a draft: Ctrl+C clears it (one key).
        tmux.keys("C-c")
        tmux.wait_screen(lambda s: "kw:plain the first question" not in _prompt_line(s), "the draft cleared")
        assert len(mock_api.requests) == sent, "nothing was sent by the search or the clear"

        # Ctrl+C while a turn streams: interrupted, the draft typed meanwhile kept, no quit dialog.
        tmux.keys("kw:slow a long story", literal=True)
        tmux.keys("Enter")
        tmux.wait_screen(lambda s: "word5 " in s, "the slow answer streaming")
        tmux.keys("keep me", literal=True)
        tmux.keys("C-c")
        screen = tmux.wait_screen(lambda s: "│ idle │" in s, "the turn interrupted")
        assert "Quit and stop it" not in screen and "keep me" in _prompt_line(screen)

        # Ctrl+G: the terminal goes to $VISUAL and comes back with its text.
        tmux.keys("C-g")
        tmux.wait_screen(lambda s: "written in the editor" in _prompt_line(s), "the editor's text in the prompt")
        tmux.keys("C-l")
        tmux.wait_screen(lambda s: "written in the editor" not in s, "Ctrl+L cleared it")

        # Twice on an empty prompt quits.
        tmux.keys("C-c")
        tmux.wait_screen(lambda s: "Press Ctrl+C again to quit" in s, "the first press")
        tmux.keys("C-c")
        tmux.wait_screen(lambda s: not tmux.alive() or not s.strip(), "claude-tui gone", timeout=20)
        left, pids = wait_gone(15)
        assert not pids, left
    finally:
        if tmux.alive():
            tmux.quit()
