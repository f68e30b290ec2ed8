"""Hostile file and command names with the real CLI in tmux: the raw bytes stay clean (issue 15).

claude-tui runs in tmux against the real CLI (offline), in a git project whose committed file
names carry OSC 52 / OSC 2 / a newline / markup, with project slash commands named the same way
(`.claude/commands/*.md`). `tmux pipe-pane` records every byte the app writes to its pane;
`terminal_capture.audit` judges them. tmux itself acts on OSC 52 (``set-clipboard on``: its paste
buffer) and OSC 2 (the pane title), so both are checked as a terminal would see them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.e2e.mock_api import MockApi
from tests.e2e.tmux_harness import Tmux, app_command, sweep, tmux  # noqa: F401 - tmux is a fixture
from tests.security.terminal_capture import ROOT, audit, dirty_copy

FILES = [
    "clip\x1b]52;c;UFdORUQtQlktRklMRU5BTUU=\x1b\\.txt",  # "PWNED-BY-FILENAME"
    "title\x1b]2;PWNED-TITLE\x1b\\.txt",
    "new\nline.txt",
    "we[@click=app.quit]ird.txt",
]
COMMANDS = ["we[@click=app.quit]ird", "cmdclip\x1b]52;c;UFdORUQtQlktQ09NTUFORA==\x07"]


def _hostile_project(project: Path) -> None:
    for name in FILES:
        (project / name).write_text("hostile\n")
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    for name in COMMANDS:
        (commands / f"{name}.md").write_text("Say hello.\n")
    git = shutil.which("git")
    if git is not None:
        env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
               "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(project.parent)}
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "hostile"]):
            subprocess.run([git, *args], cwd=project, env=env, check=True, capture_output=True)


def _assert_clean_so_far(raw: Path, where: str) -> None:
    result = audit(raw.read_bytes().decode("utf-8", "replace"), partial=True)
    assert not result.bad, f"{where}, the app wrote sequences Textual does not:\n" + "\n".join(result.bad[:10])


def test_hostile_names_with_the_real_cli_never_reach_the_terminal(tmux: Tmux, claude_bin: Path,  # noqa: F811
                                                                  e2e_env: dict[str, str], project_dir: Path,
                                                                  mock_api: MockApi, tmp_path: Path) -> None:
    _hostile_project(project_dir)
    raw = tmp_path / "pane.bytes"
    # This checkout's claude_tui first (the console script may belong to another editable install).
    env = {**e2e_env, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), e2e_env.get("PYTHONPATH", "")]))}
    tmux.start(app_command(claude_bin, project_dir, env, tmp_path / "app"))
    tmux.run("set-option", "-g", "set-clipboard", "on")
    tmux.run("pipe-pane", "-o", "-t", tmux.session, f"cat >> {raw}")
    title_before = tmux.run("display-message", "-p", "-t", tmux.session, "#{pane_title}").stdout.strip()
    try:
        tmux.wait_ready()
        for typed, shown in (("@clip", "@clip␛]52"), ("@title", "@title␛]2;PWNED-TITLE"), ("@new", "@new␊line"),
                             ("@we", "@we[@click=app.quit]ird")):
            tmux.keys(typed, literal=True)
            tmux.wait_screen(lambda s, x=shown: x in s, f"the @ menu offering {shown!r}")
            _assert_clean_so_far(raw, f"before {typed!r} was completed")
            tmux.keys("Tab")
        screen = tmux.wait_screen(lambda s: "@new␊line.txt @we[@click=app.quit]ird.txt" in s, "the completions")
        assert "@clip␛]52;c;UFdORUQtQlktRklMRU5BTUU=␛\\.txt" in screen
        tmux.keys("Enter")
        tmux.wait_screen(lambda s: "Hello! You said:" in s and "idle" in s, "the echo of the prompt")

        tmux.keys("/we", literal=True)
        tmux.wait_screen(lambda s: "/we[@click=app.quit]ird" in s, "the / menu with the project command")
        tmux.keys("C-c")
        tmux.wait_screen(lambda s: "Prompt cleared" in s, "the prompt to be cleared")
        tmux.send("kw:escape")
        tmux.wait_screen(lambda s: "end." in s and "idle" in s, "the hostile answer")
        tmux.keys("C-y")
        tmux.wait_screen(lambda s: "Copied" in s, "the copy")
        # As the terminal saw it (the server ends with the app's session: read it now).
        title_after = tmux.run("display-message", "-p", "-t", tmux.session, "#{pane_title}").stdout.strip()
        buffers = tmux.run("list-buffers", "-F", "#{buffer_name}").stdout.split()
        pasted = [tmux.run("show-buffer", "-b", name).stdout for name in buffers]
        tmux.quit()
    finally:
        tmux.kill()
        sweep(10)
    result = audit(raw.read_bytes().decode("utf-8"), copying=True)
    assert not result.bad, "the app wrote sequences Textual does not:\n" + "\n".join(result.bad[:20])
    assert len(result.copies) == 1, f"one copy was asked for, the terminal got {len(result.copies)}"
    assert "Here is" in result.copies[0] and not dirty_copy(result.copies[0]), repr(result.copies[0])
    assert title_after == title_before, f"the pane title changed: {title_before!r} -> {title_after!r}"
    assert pasted and not any("PWNED" in text or dirty_copy(text) for text in pasted), pasted
