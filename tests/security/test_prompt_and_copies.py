"""Hostile names and text in the prompt box, the completion menus and history, and clean copies (issue 15).

Against the hostile stand-in CLI (`hostile_cli.py`) in a project whose file names carry escape
sequences. The terminal-bytes harness (`test_terminal_bytes.py`) proves the same on a pty; these
look inside: what the prompt document holds and sends, what each menu row is, what the clipboard
gets, and that the render-boundary filter had nothing left to catch (the sources did their part).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from textual import events

from claude_tui.config import Config
from claude_tui.session.items import UserItem
from claude_tui.store import PromptHistory
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.panels.composer import CompletionMenu, PromptInput
from tests.pilot.helpers import chat, idle, wait_for

HOSTILE_CLI = Path(__file__).with_name("hostile_cli.py")
FILES = ["clip\x1b]52;c;UFdORUQ=\x1b\\.txt", "new\nline.txt", "we[@click=app.quit]ird.txt"]
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
COPY_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]|\\[20[01]~")


def _app(tmp_path: Path, data: Path) -> ClaudeTuiApp:
    project = tmp_path / "proj"
    project.mkdir(exist_ok=True)
    for name in FILES:
        (project / name).write_text("x")
    options = CliOptions(cwd=str(project), command=[sys.executable, str(HOSTILE_CLI)],
                         env={"FAKE_CLAUDE_DELAY_MS": "0"}, permission_mode="bypassPermissions")
    return ClaudeTuiApp(options, Config(typeahead_guard_ms=0))


def _rows(app: ClaudeTuiApp) -> list[str]:
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


async def _ready(pilot) -> None:  # type: ignore[no-untyped-def]
    screen = chat(pilot.app)
    await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="CLI ready")


async def test_names_history_and_pastes_show_as_stand_ins_and_are_sent_as_shown(tmp_path: Path,
                                                                               monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    history = PromptHistory(tmp_path / "proj")
    history.legacy_path.parent.mkdir(parents=True)
    # An older version's file (one JSON list), from a session that stored raw ESC.
    history.legacy_path.write_text(json.dumps(["old \x1b]0;PWNED\x07 prompt"]))
    app = _app(tmp_path, tmp_path / "data")
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        prompt = chat(app).query_one(PromptInput)
        menu = chat(app).query_one(CompletionMenu)
        prompt.focus()

        # The @ menu: one row per file, a newline shown as ␊; the completion inserts what was shown.
        await pilot.press("@", *"new")
        await wait_for(pilot, lambda: menu.display and menu.option_count > 0, what="the @ menu")
        assert [str(o.prompt) for o in menu.options][0] == "@new␊line.txt"
        assert menu.virtual_size.height == menu.option_count, "a file name took two rows"
        await pilot.press("tab")
        await pilot.press("@", *"clip", "tab")
        assert prompt.text == "@new␊line.txt @clip␛]52;c;UFdORUQ=␛\\.txt "
        assert prompt.document.line_count == 1

        # The / menu: command names from initialize, as one inert row; markup stays literal.
        prompt.text = ""
        await pilot.press("slash", *"clipcmd")
        await wait_for(pilot, lambda: menu.display and menu.option_count > 0, what="the / menu")
        assert str(menu.options[0].prompt).startswith("/clipcmd␛]52;c;UFdORUQtQlktQ0xJ␇")
        await pilot.press("tab")
        assert prompt.text.startswith("/clipcmd␛]52;c;UFdORUQtQlktQ0xJ␇")
        prompt.text = ""
        await pilot.press("slash", *"we[", "tab")  # "we" alone: Claude Code's /web-setup ranks first
        assert prompt.text == "/we[@click=app.quit]ird "
        await pilot.pause()
        assert any("/we[@click=app.quit]ird" in row for row in _rows(app))

        # History from an earlier session, and a paste (as the driver delivers it) with every kind of control.
        prompt.text = ""
        await pilot.press("up")
        await wait_for(pilot, lambda: prompt.text.startswith("old"), what="the old prompt")
        assert prompt.text == "old ␛]0;PWNED␇ prompt"
        prompt.text = ""
        app.post_message(events.Paste("pasted \x1b]52;c;QUJD\x07 \x1b[201~x\r\ny \x9b2J \ud83d"))
        await wait_for(pilot, lambda: prompt.text.startswith("pasted"), what="the paste")
        assert prompt.text == "pasted ␛]52;c;QUJD␇ ␛[201~x\ny \\x9b2J \ufffd"

        # What is sent is what was shown.
        shown = prompt.text
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(isinstance(i, UserItem) for i in chat(app).session.conversation.items),
                       what="the prompt in the log")
        sent = next(i.text for i in chat(app).session.conversation.items if isinstance(i, UserItem))
        assert sent == shown and not CONTROLS.search(sent.replace("\n", ""))
        await wait_for(pilot, lambda: idle(app), what="the turn")
        await pilot.pause()
        for row in _rows(app):
            assert not CONTROLS.search(row), row
        assert app.terminal_safe.leaks == 0, "a widget let a control character through to the render boundary"


async def test_every_copy_is_clean_text(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = _app(tmp_path, tmp_path / "data")
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        prompt = chat(app).query_one(PromptInput)
        prompt.text = "kw:bash run it"
        prompt.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: idle(app), what="the Bash turn")

        # Ctrl+Y: the last answer, whose hostile tail ends a bracketed paste and runs a command.
        answer = chat(app).session.conversation.items[-1].text  # type: ignore[attr-defined]
        assert "\x1b[201~echo PASTEJACK" in answer
        await pilot.press("ctrl+y")
        copied = app.clipboard
        assert "tail" in copied and "echo PASTEJACK" in copied
        assert not COPY_FORBIDDEN.search(copied.replace("\n", "").replace("\t", "")), repr(copied)
        assert "\x1b" not in copied

        # Select mode: `o` on the Bash card copies its output, `y` a message; both clean.
        outputs = []
        await pilot.press("f2")
        for _ in range(len(chat(app).session.conversation.items)):
            for key in ("o", "y"):
                app.copy_to_clipboard("")
                await pilot.press(key)
                if app.clipboard:
                    outputs.append(app.clipboard)
            await pilot.press("up")
        assert any("tail" in text and "PASTEJACK" in text for text in outputs), outputs
        for text in outputs:
            assert not COPY_FORBIDDEN.search(text.replace("\n", "").replace("\t", "")), repr(text)

        # Any other route (a TextArea or Input selection, a mouse selection) ends in the same function.
        app.copy_to_clipboard("a\x1b]52;c;QUJD\x07b\x1b[201~c\r\nd\x07")
        assert app.clipboard == "abc\nd␇"


async def test_one_line_fields_show_stand_ins_too(tmp_path: Path) -> None:
    from textual.app import App, ComposeResult

    from claude_tui.ui.kit.safe_input import SafeInput

    class Fields(App[None]):
        def compose(self) -> ComposeResult:
            yield SafeInput(value="preset\x1b]2;t\x07", id="field")

    app = Fields()
    async with app.run_test() as pilot:
        field = app.query_one(SafeInput)
        assert field.value == "preset␛]2;t␇"
        field.value = ""
        field.focus()
        app.post_message(events.Paste("pasted\x1b[201~\x9b\ud83d"))
        await wait_for(pilot, lambda: field.value.startswith("pasted"), what="the paste")
        assert field.value == "pasted␛[201~\\x9b\ufffd"
        await pilot.press("x")
        assert field.value.endswith("x")


async def test_the_render_boundary_catches_what_a_widget_lets_through(tmp_path: Path) -> None:
    from rich.text import Text
    from textual.widgets import Static

    from tests.pilot.helpers import make_app

    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(pilot)
        # A widget that forgot `printable` (Text draws controls as zero-width characters).
        await chat(app).mount(Static(Text("careless \x1b]52;c;UFdORUQ=\x07 \x1b]2;PWNED\x07 \ud83d end"), id="leak"))
        await pilot.pause()
        rows = _rows(app)
        assert any("careless ]52;c;UFdORUQ= ]2;PWNED \ufffd end" in row for row in rows), rows
        assert not any(CONTROLS.search(row) for row in rows)
        assert app.terminal_safe.leaks > 0
        app.screen._compositor.render_full_update().render_segments(app.console).encode("utf-8")
