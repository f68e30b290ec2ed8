"""The prompt's own insertions (a dropped file's mention, a paste typed while a dialog waits) behave
like typing: they replace the selection, leave the cursor after the text, are one undo step, post
`TextArea.Changed`, and do nothing in read-only mode. (They go through the public `replace`, not
TextArea's private keyboard helper.)"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import App, ComposeResult
from textual.events import Paste
from textual.widgets import TextArea
from textual.widgets.text_area import Selection

from claude_tui.ui.panels.composer import PromptInput


class PromptApp(App[None]):
    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self.changes = 0

    def compose(self) -> ComposeResult:
        prompt = PromptInput()
        prompt.project_root = self.root
        yield prompt

    @on(TextArea.Changed)
    def _count(self) -> None:
        self.changes += 1


async def _prepared(app: PromptApp, pilot: object) -> PromptInput:
    prompt = app.query_one(PromptInput)
    prompt.focus()
    prompt.load_text("see XX now")
    prompt.selection = Selection((0, 6), (0, 4))  # "XX", selected leftwards: the cursor is before it
    await pilot.pause()  # type: ignore[attr-defined]
    app.changes = 0
    return prompt


async def test_a_dropped_file_replaces_the_selection_as_one_undo_step(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    app = PromptApp(tmp_path)
    async with app.run_test() as pilot:
        prompt = await _prepared(app, pilot)
        app.post_message(Paste(str(tmp_path / "a.py")))
        await pilot.pause()
        assert prompt.text == "see @a.py  now"  # a mention ends with a space
        assert prompt.cursor_location == (0, len("see @a.py "))
        assert app.changes >= 1
        prompt.action_undo()
        await pilot.pause()
        assert prompt.text == "see XX now"


async def test_a_paste_typed_while_a_dialog_waits_replaces_the_selection(tmp_path: Path) -> None:
    app = PromptApp(tmp_path)
    async with app.run_test() as pilot:
        prompt = await _prepared(app, pilot)
        prompt.post_message(PromptInput.Typed("", None, paste="two\nlines"))
        await pilot.pause()
        assert prompt.text == "see two\nlines now"
        assert prompt.cursor_location == (1, len("lines"))
        assert app.changes >= 1
        prompt.action_undo()
        await pilot.pause()
        assert prompt.text == "see XX now"


async def test_read_only_takes_neither(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    app = PromptApp(tmp_path)
    async with app.run_test() as pilot:
        prompt = await _prepared(app, pilot)
        prompt.read_only = True
        app.post_message(Paste(str(tmp_path / "a.py")))
        prompt.post_message(PromptInput.Typed("", None, paste="pasted"))
        await pilot.pause()
        assert prompt.text == "see XX now"
        assert app.changes == 0
