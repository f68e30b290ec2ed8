"""Two real CLIs in one window, in a real terminal: ``claude-tui`` in tmux, two tabs, each its
own Claude Code. (test_tabs_real_cli.py drives the same through Pilot and looks at the sessions;
this one looks only at what the terminal shows, the tab bar included, and at the project.)

Ctrl+N opens a second tab (a second CLI in the same directory); both get a prompt and both
answer in their own tab. A Bash call in the tab that is *not* in view opens its dialog there:
the tab bar marks that tab, keys typed in the tab in view never answer it, and only switching
to it, Tab and `y` approve it. The overview (Alt+O) lists both and Enter goes to one. Ctrl+Q then
ends the app and both CLIs.

Tabs are switched with Ctrl+PageUp / Ctrl+PageDown here; Alt+1…9 (which tmux sends as ESC and
the digit) are test_tmux_alt_digits.py's.

tmux is required (see test_tmux_smoke.py, whose harness this reuses).
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

from claude_tui.ui.dialogs.base import STEPPED_IN_WORDS
from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import DONE_TEXT
from tests.e2e.test_tmux_smoke import GUARD_S, Tmux, app_command, tmux, wait_gone  # noqa: F401 (fixture)

BAR = re.compile(r"^ 1 .*│ 2 ", re.MULTILINE)
"""The tab bar's row: tab 1, a separator, tab 2 (it is hidden while one tab is open)."""


def bar_row(screen: str) -> str:
    match = BAR.search(screen)
    return screen[match.start():screen.index("\n", match.start())] if match else ""


def test_two_real_clis_in_two_tabs(tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str],  # noqa: F811
                                   project_dir: Path, mock_api: MockApi, tmp_path: Path) -> None:
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_screen(lambda s: "idle" in s, "the first tab to be ready")
        assert not bar_row(tmux.screen()), "the tab bar shows with a single tab"

        # A second tab, its own CLI: ready when the bar shows two tabs and the new one is idle.
        tmux.keys("C-n")
        screen = tmux.wait_screen(lambda s: bool(bar_row(s)) and "idle" in s, "the second tab to be ready")
        tmux.keys("kw:plain hello from tab two", literal=True)
        tmux.keys("Enter")
        tmux.wait_screen(lambda s: "You said: kw:plain hello from tab two" in s, "tab two's answer")

        # Tab 1: a prompt that leads to a Bash call, and straight back to tab 2 (one send-keys call:
        # the switch lands long before the CLI's permission request).
        tmux.keys("C-PPage")
        screen = tmux.wait_screen(lambda s: "hello from tab two" not in s.replace(bar_row(s), ""), "tab one in view")
        tmux.keys("kw:bash from tab one", literal=True)
        tmux.keys("Enter", "C-NPage")
        # Tab 1's dialog arrives in the background: tab 1 is marked, tab 2 shows no dialog.
        screen = tmux.wait_screen(lambda s: "?" in bar_row(s).split("│")[0] and "!" in bar_row(s).split("│")[0],
                                  "tab one marked as waiting for an answer")
        assert "You said: kw:plain hello from tab two" in screen  # tab 2 in view
        assert "Allow once" not in screen, "the background tab's dialog is shown in the tab in view"
        # Keys typed here belong to tab 2's prompt, whatever they are.
        tmux.keys("y")
        time.sleep(GUARD_S)
        tmux.keys("Tab")
        time.sleep(GUARD_S)
        tmux.keys("y")
        time.sleep(1.0)
        assert not (project_dir / "touched").exists(), "a key in tab 2 answered tab 1's dialog"
        assert [r.keyword for r in mock_api.messages_requests()].count("bash") == 1  # no tool result went back

        # Switching shows the dialog; only then Tab, a pause and y approve it.
        tmux.keys("C-PPage")
        screen = tmux.wait_screen(lambda s: "Allow once" in s, "tab one's dialog once it is in view")
        assert "touch" in screen and "hello-from-bash" in screen
        assert "!" not in bar_row(screen).split("│")[0], "the tab in view still carries the attention mark"
        tmux.keys("Tab")
        # On a loaded machine the Tab may be handled late: the guard runs from then, not from sending.
        tmux.wait_screen(lambda s: STEPPED_IN_WORDS in s, "the dialog stepped into")
        time.sleep(GUARD_S)
        tmux.keys("y")
        screen = tmux.wait_screen(lambda s: DONE_TEXT.strip() in s, "tab one's final answer")
        assert "Allowed once" in screen and (project_dir / "touched").exists()
        assert "You said: kw:plain hello from tab two" not in screen  # each answer in its own tab
        keywords = [r.keyword for r in mock_api.messages_requests()]
        assert keywords.count("plain") == 1 and keywords.count("bash") == 2, keywords
        tmux.wait_screen(lambda s: "idle" in s, "tab one's turn to end")

        tmux.keys("C-NPage")
        screen = tmux.wait_screen(lambda s: "You said: kw:plain hello from tab two" in s, "tab two again")
        assert DONE_TEXT.strip() not in screen

        # The overview (Alt+O: Esc o, which Textual reads as alt+o): both tabs, the cursor on the
        # one in view; Up and Enter go to the first.
        tmux.keys("M-o")
        screen = tmux.wait_screen(lambda s: "Open tabs" in s and "kw:bash from tab one" in s, "the overview")
        # Where each runs (a long path is cut with an ellipsis in its column).
        assert "kw:plain hello from tab two" in screen and str(project_dir)[:30] in screen
        tmux.keys("Up")
        tmux.keys("Enter")
        screen = tmux.wait_screen(lambda s: "Open tabs" not in s and DONE_TEXT.strip() in s, "tab one from the overview")

        tmux.keys("C-q")
        deadline = time.monotonic() + 20
        while tmux.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not tmux.alive(), f"claude-tui did not quit on Ctrl+Q; screen:\n{tmux.screen()}"
    finally:
        tmux.kill()
        left, pids = wait_gone(10)
        for pid in pids:  # ours by the run marker: never leave them behind, even on failure
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert not pids, f"processes outlived claude-tui (two CLIs were started): {left}"
