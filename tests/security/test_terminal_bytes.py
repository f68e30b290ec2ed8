"""The exact bytes claude-tui writes to its terminal carry no escape sequence Textual did not make.

claude-tui runs on a pty (Textual's real driver) against a hostile stand-in CLI
(`hostile_cli.py`: escape sequences and markup in command, agent and tool names, in every answer
and tool result), in a git project whose committed file names are hostile, with a prompt history
left by an earlier session that holds raw escapes. The test walks the prompt, the ``@`` and ``/``
menus and their completions, history (Up, also in a second session), a paste, a turn, the help
screen, the palette, find, select mode and the session browser; `terminal_capture.audit` fails on
any OSC 52/0/2/8, DCS, APC, C1, raw BEL … in what was written. Copies (Ctrl+Y, select-mode ``o``)
are checked in their own span: an OSC 52 there must carry clean text.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claude_tui.store.files import project_key
from tests.security.terminal_capture import ROOT, PtyApp, audit, dirty_copy

HOSTILE_FILES = [
    "clip\x1b]52;c;UFdORUQtQlktRklMRU5BTUU=\x1b\\.txt",  # "PWNED-BY-FILENAME"
    "title\x1b]2;PWNED-TITLE\x1b\\.txt",
    "new\nline.txt",
    "we[@click=app.quit]ird.txt",
    "bell\x07dcs\x1bP1$qm\x1b\\.txt",
    "c1\u009b31mcsi.txt",
]
# Controls a terminal passes in a paste. (No ESC: Textual's input parser takes an ESC inside a
# bracketed paste as the start of a key sequence and replays what follows as keys, before any
# widget sees the paste; the hostile answers carry the ESC sequences instead.)
PASTE = "pasted \x07bell \x9b2J \x7fdel\x1a sub\r\n[bold]x[/] \u202eevil"
OLD_HISTORY = ["history \x1b]52;c;UFdORUQtQlktSElTVE9SWQ==\x07 \x1b]0;PWNED-HISTORY\x07 end", "older prompt"]


def _cli(tmp: Path) -> Path:
    script = tmp / "claude"
    script.write_text(f"#!{sys.executable}\nimport runpy, sys\n"
                      f"runpy.run_path({str(ROOT / 'tests' / 'security' / 'hostile_cli.py')!r}, run_name='__main__')\n")
    script.chmod(0o755)
    return script


def _project(tmp: Path) -> Path:
    project = tmp / "proj"
    project.mkdir()
    for name in HOSTILE_FILES:
        (project / name).write_text("hostile name\n")
    (project / "plain.txt").write_text("plain\n")
    git = shutil.which("git")
    if git is not None:  # committed, so the @ menu reads them from `git ls-files`
        env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
               "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(tmp)}
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "hostile"]):
            subprocess.run([git, *args], cwd=project, env=env, check=True, capture_output=True)
    return project


@pytest.fixture
def world(tmp_path: Path) -> tuple[list[str], dict[str, str]]:
    project = _project(tmp_path)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "TERM": "xterm-256color", "COLORTERM": "truecolor",
           "LANG": "C.UTF-8", "FAKE_CLAUDE_DELAY_MS": "0"}
    history = tmp_path / "data" / "claude-tui" / "history" / f"{project_key(project)}.json"
    history.parent.mkdir(parents=True)
    history.write_text(json.dumps(OLD_HISTORY))  # an earlier session (or version) stored raw escapes
    return ["--cwd", str(project), "--claude-path", str(_cli(tmp_path))], env


def _assert_clean(app: PtyApp, mark: int, where: str, copying: bool = False) -> list[str]:
    result = audit(app.since(mark), copying=copying)
    assert not result.bad, f"{where}: the app wrote sequences Textual does not:\n" + "\n".join(result.bad[:20])
    return result.copies


def _complete(app: PtyApp, typed: str, shown: str) -> None:
    mark = app.mark()
    app.send(text=typed)
    app.wait_text(lambda t: shown in t, f"the menu to offer {shown!r}", since=mark)
    app.send("tab")


def test_hostile_names_and_text_never_reach_the_terminal_raw(world: tuple[list[str], dict[str, str]]) -> None:
    args, env = world
    args = [*args, "--permission-mode", "bypassPermissions"]  # tools run without dialogs here
    app = PtyApp(args, env)
    app.start()
    try:
        app.wait_text(lambda t: "Type a prompt" in t, "the welcome")
        start = 0

        # @ menu and completions: each hostile file name shows (and is inserted) as one inert row.
        _complete(app, "@clip", "clip␛]52;c;UFdORUQtQlktRklMRU5BTUU=␛\\.txt")
        _complete(app, "@title", "title␛]2;PWNED-TITLE␛\\.txt")
        _complete(app, "@new", "new␊line.txt")
        _complete(app, "@bell", "bell␇dcs␛P1$qm␛\\.txt")
        _complete(app, "@c1", "c1\\x9b31mcsi.txt")
        _complete(app, "@we", "we[@click=app.quit]ird.txt")
        app.wait_text(lambda t: "@we[@click=app.quit]ird.txt" in t and "@new␊line.txt" in t, "the completions")
        app.send("ctrl+c")  # clears the prompt

        # / menu: command names and hints from initialize.
        _complete(app, "/clipcmd", "clipcmd␛]52;c;UFdORUQtQlktQ0xJ␇")
        app.send("ctrl+c")
        _complete(app, "/titlecmd", "titlecmd␛]2;PWNED-CLI-TITLE␛\\")
        app.send("ctrl+c")
        _complete(app, "/newcmd", "newcmd␊line")
        app.send("ctrl+c")
        _complete(app, "/we", "we[@click=app.quit]ird")
        app.send("ctrl+c")

        # History left by an earlier session (Ctrl+C above kept each cleared prompt in it too).
        mark = app.mark()
        for _ in range(len(OLD_HISTORY) + 9):
            app.send("up", "escape")  # a recalled "/command" opens the menu, which would take the next Up
        app.wait_text(lambda t: "history ␛]52;c;UFdORUQtQlktSElTVE9SWQ==␇" in t, "the old history entry", since=mark)
        app.send("ctrl+c")
        # A paste of hostile text.
        mark = app.mark()
        app.paste(PASTE)
        app.wait_text(lambda t: "pasted ␇bell \\x9b2J ␡del␚ sub" in t, "the paste, shown inert", since=mark)
        app.send("ctrl+c")
        assert app.alive(), "the markup in a name quit the app"
        _assert_clean(app, start, "prompt, menus, history, paste")

        # Turns: hostile answers and tool output; then every screen while they are in the log.
        mark = app.mark()
        app.send(text="kw:escape please")
        app.paste(" " + PASTE.replace("\r\n", " "))
        app.send("enter")
        app.wait_text(lambda t: "tail␛]52" in t, "the hostile answer", since=mark)
        mark = app.mark()
        app.send(text="kw:bash run it")
        app.send("enter")
        app.wait_text(lambda t: "tail␛]52" in t, "the hostile tool output", since=mark)
        screens = [  # key, what shows it is open, what to type there, what that shows
            ("f1", "Filter keys", "cmd", "clipcmd␛]52;c;UFdORUQtQlktQ0xJ␇"),
            ("ctrl+p", "Search for commands", "split", "split"),
            ("f4", "sessions", "", ""),
            ("ctrl+f", "Find", "tail", "tail"),
            ("f2", "Copy", "", ""),
        ]
        for key, opened, typed, shown in screens:
            mark = app.mark()
            app.send(key)
            app.wait_text(lambda t, s=opened: s in t, f"the screen {key} opens", since=mark)
            if typed:
                app.send(text=typed)
                app.wait_text(lambda t, s=shown: s in t, f"{shown!r} after {key}", since=mark)
            mark = app.mark()
            # A filter, then the screen; the extra one lands on the idle chat (no-op). Further apart than
            # Esc Esc's 0.8 s: two on the idle chat would open the rewind list, as in Claude Code.
            for _ in range(3):
                app.send("escape", pause=0.9)
            app.wait_text(lambda t: "f4 Sessions" in t, f"the chat again after {key}", since=mark)
        app.send("ctrl+c")
        _assert_clean(app, start, "turns and screens")

        # Copies: clean text on the clipboard, nothing else written.
        mark = app.mark()
        app.send("ctrl+y")
        app.wait_text(lambda t: "Copied" in t, "the copy of the last answer", since=mark, copying=True)
        app.send("f2")
        app.send("up")  # the select bar starts on the last item: walk back to the Bash card
        for _ in range(6):
            app.send(text="o")
            app.send("up")
        app.send("escape")
        copies = _assert_clean(app, mark, "copies", copying=True)
        assert copies, "no copy reached the terminal"
        assert any("tail" in copy for copy in copies) and not any(dirty_copy(copy) for copy in copies)
    finally:
        app.stop()
    whole = audit(app.output(), copying=True)
    assert "PWNED" not in "".join(whole.copies)
    assert "new␊line.txt" in whole.text

    # A second session: Up brings back the first session's hostile prompt, still inert.
    second = PtyApp(args, env)
    second.start()
    try:
        second.wait_text(lambda t: "Type a prompt" in t, "the welcome")
        second.send("up")
        second.wait_text(lambda t: "kw:bash run it" in t, "the last prompt")
        second.send("up")
        second.wait_text(lambda t: "pasted ␇bell" in t, "the stored hostile prompt")
        _assert_clean(second, 0, "second session")
    finally:
        second.stop()


def test_dialogs_diffs_and_changes_with_hostile_tool_input(world: tuple[list[str], dict[str, str]]) -> None:
    """Permission, edit and question dialogs, the diff, the tool cards and the changes screen, while
    every string of every tool input (paths, commands, old/new text, questions) carries escapes."""
    args, env = world
    app = PtyApp(args, env)
    app.start()
    try:
        app.wait_text(lambda t: "Type a prompt" in t, "the welcome")
        for prompt, dialog in (("kw:bash run", "Allow"), ("kw:edit change it", "Allow"), ("kw:ask me", "tail␛]52")):
            mark = app.mark()
            app.send(text=prompt)
            app.send("enter")
            app.wait_text(lambda t, d=dialog: d in t and "tail␛]52;c;UFdORUQtQlktQ0xJ␇" in t, f"the dialog for {prompt!r}",
                          since=mark)
            mark = app.mark()
            app.send("tab")  # the dialog opens waiting: Tab moves to it
            # Esc denies (or dismisses) once the dialog's guard has passed. A key inside the guard
            # re-arms it, so the tries are spaced wider than the guard (400 ms).
            for _ in range(20):
                app.send("escape", pause=0.7)
                if " idle " in audit(app.since(mark), partial=True).text:
                    break
            app.wait_text(lambda t: " idle " in t, f"the end of {prompt!r}", since=mark)
        mark = app.mark()
        app.send("f8")
        app.wait_text(lambda t: "Esc close" in t or "No changes" in t or "changes" in t.lower(), "the changes screen",
                      since=mark)
        app.send("escape")
        app.send("ctrl+e")  # the last tool card, expanded
        _assert_clean(app, 0, "dialogs, diffs and changes")
    finally:
        app.stop()
    _assert_clean(app, 0, "the whole session")
