"""Smoke test in a real terminal: ``claude-tui`` in tmux, against the real CLI, offline.

Starts the console script in a detached 160x48 tmux session (on a private tmux
socket, so a developer's own tmux server is never touched), sends a prompt,
moves to the permission dialog with Tab and approves the Bash tool with ``y`` after the
typeahead guard, reads the screen
with ``capture-pane``, quits with Ctrl+Q and checks that no ``claude`` is left.

tmux is required: without it the test FAILS (CI installs the ``tmux`` apt package). The harness
(the session, the fixture, the app's command line, the process sweep) is `tmux_harness.py`.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from tests.e2e.conftest import marked_processes
from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import DONE_TEXT
from tests.e2e.tmux_harness import (  # noqa: F401 - tmux is a fixture; wait_gone for tests importing it from here
    GUARD_S,
    Tmux,
    app_command,
    sweep,
    tmux,
    wait_gone,
)


def test_claude_tui_in_tmux_approves_a_tool(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],  # noqa: F811
                                            project_dir: Path, mock_api: MockApi, tmp_path: Path) -> None:
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_ready()
        tmux.send("kw:bash please")
        screen = tmux.wait_screen(lambda s: "Allow once" in s and "Deny" in s, "the permission dialog")
        assert "touch" in screen and "hello-from-bash" in screen
        assert not (project_dir / "touched").exists()
        # Nobody was typing when it appeared: one key answers, as in Claude Code (after a human's
        # reaction time; the README's Safety section says why this is safe).
        assert "Press a key to answer" in screen
        time.sleep(0.4)
        tmux.keys("y")
        screen = tmux.wait_screen(lambda s: DONE_TEXT.strip() in s, "the final answer")
        assert "Allowed once" in screen  # the decision, shown in the log
        assert "Allow once" not in screen  # the dialog is gone
        assert "I will run a command." in screen
        assert (project_dir / "touched").exists()
        assert [r.keyword for r in mock_api.messages_requests()] == ["bash", "bash"]
        tmux.wait_screen(lambda s: "idle" in s, "the turn to end")
        tmux.quit()
    finally:
        tmux.kill()
        left, pids = sweep(10)
    assert not pids, f"processes outlived claude-tui: {left}"


def type_slowly(tmux: Tmux, text: str, per_key: float = 0.06) -> None:  # noqa: F811
    for character in text:
        tmux.keys(character, literal=True)
        time.sleep(per_key)


def test_typing_through_a_permission_dialog_answers_nothing(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],  # noqa: F811
                                                            project_dir: Path, mock_api: MockApi,
                                                            tmp_path: Path) -> None:
    """Issue 14, finding 1, exactly: send a prompt that leads to a Bash call, keep typing the next
    thought at ~60 ms a key with a 0.9 s pause ("…check the ", pause, "yaml files too"), then, 3 s
    after the dialog opened, " hello there". Nothing runs and the draft holds every key; then the
    deliberate path (Tab, a pause, y) still approves."""
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_ready()
        tmux.send("kw:bash please")
        type_slowly(tmux, "also please check the ")
        time.sleep(0.9)
        type_slowly(tmux, "yaml files too")
        tmux.wait_screen(lambda s: "Allow once" in s, "the permission dialog")
        time.sleep(3)
        type_slowly(tmux, " hello there")
        draft = "also please check the yaml files too hello there"
        screen = tmux.wait_screen(lambda s: draft in s, "the whole draft in the prompt")
        assert "Allow once" in screen and "Tab to answer" in screen  # still asking
        assert not (project_dir / "touched").exists(), "the command ran"
        assert "Allowed once" not in screen and "Edit the command" not in screen
        assert [r.keyword for r in mock_api.messages_requests()] == ["bash"]  # no tool result went back
        # The deliberate path.
        tmux.keys("Tab")
        time.sleep(GUARD_S)
        tmux.keys("y")
        screen = tmux.wait_screen(lambda s: DONE_TEXT.strip() in s, "the final answer")
        assert "Allowed once" in screen and (project_dir / "touched").exists()
        assert draft in screen  # and the draft is still there
    finally:
        tmux.kill()
        left, pids = sweep(10)
    assert not pids, f"processes outlived claude-tui: {left}"


def test_editing_keys_fix_the_draft_below_a_waiting_dialog(tmux: Tmux, claude_bin: Path,  # noqa: F811
                                                           e2e_env: dict[str, str], project_dir: Path,
                                                           mock_api: MockApi, tmp_path: Path) -> None:
    """Arrows, Home/End, Ctrl+E/W and Backspace, as a real terminal sends them, edit the prompt
    below a waiting permission dialog; nothing runs until Tab, a pause, n."""
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_ready()
        tmux.send("kw:bash please")
        # The first key is no answer key: it goes to the prompt and the dialog waits (Tab to answer).
        tmux.wait_screen(lambda s: "Allow once" in s, "the permission dialog")
        for keys, typed in (("helo", True), ("Left", False), ("l", True), ("End", False), ("!", True),
                            ("Home", False), ("say ", True), ("C-e", False), (" ok", True), ("C-w", False),
                            ("BSpace", False)):
            tmux.keys(keys, literal=typed)  # typed text, or a key by its tmux name
            time.sleep(0.05)
        draft = re.compile(r"│ say hello! +│")  # the whole prompt row: no " ok" left
        screen = tmux.wait_screen(lambda s: bool(draft.search(s)), "'say hello!' in the prompt")
        assert "Allow once" in screen and "Tab to answer" in screen  # still asking
        assert not (project_dir / "touched").exists(), "the command ran"
        assert [r.keyword for r in mock_api.messages_requests()] == ["bash"]  # no tool result went back
        tmux.keys("Tab")
        time.sleep(GUARD_S)
        tmux.keys("n")
        screen = tmux.wait_screen(lambda s: "Allow once" not in s and "idle" in s, "the denial and the turn's end")
        assert not (project_dir / "touched").exists() and draft.search(screen)
        tmux.quit()
    finally:
        tmux.kill()
        left, pids = sweep(10)
    assert not pids, f"processes outlived claude-tui: {left}"


def test_closing_the_terminal_leaves_no_claude(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],  # noqa: F811
                                               project_dir: Path, mock_api: MockApi, tmp_path: Path) -> None:
    """SIGHUP (the terminal went away) in the middle of a turn: the app ends its CLI and itself."""
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_ready()
        tmux.send("kw:slow story")
        tmux.wait_screen(lambda s: "word3" in s, "the stream to start")
        assert marked_processes(), "the CLI should be running now"
    finally:
        tmux.kill()  # the pane's process gets SIGHUP, as when a terminal window is closed
        left, pids = sweep(10)
    assert not pids, f"processes outlived the closed terminal: {left}"
