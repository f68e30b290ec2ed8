"""The permission dialog takes part of a file change: ↑↓/j k move between hunks, Space leaves one
out, `e` rewrites a hunk's new lines, `y` applies what is taken (the input rebuilt from it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_tui.ui.dialogs.permission import PermissionScreen
from claude_tui.ui.render.diff_view import DiffView
from tests.pilot.test_dialogs import DialogHost, request_from, screen_text, settle

BEFORE = "".join(f"line {n}\n" for n in range(1, 21))
AFTER = BEFORE.replace("line 2\n", "LINE 2\n").replace("line 18\n", "LINE 18\n")


def two_hunk_dialog(tmp_path: Path, tool: str = "Edit", **dialog: Any) -> PermissionScreen:
    (tmp_path / "two.txt").write_text(BEFORE)
    if tool == "Write":
        tool_input: dict[str, Any] = {"file_path": "two.txt", "content": AFTER}
    elif tool == "MultiEdit":
        tool_input = {"file_path": "two.txt", "edits": [
            {"old_string": "line 2\n", "new_string": "LINE 2\n"},
            {"old_string": "line 18\n", "new_string": "LINE 18\n"}]}
    else:
        tool_input = {"file_path": "two.txt", "old_string": BEFORE[7:-17], "new_string": AFTER[7:-17],
                      "replace_all": False}
    request = request_from("edit-allow", "Edit", tool_name=tool, input=tool_input)
    return PermissionScreen(request, guard_ms=0, cwd=tmp_path, **dialog)


async def _ready(app: DialogHost, pilot: Any) -> PermissionScreen:
    await app.workers.wait_for_complete()
    await settle(pilot)
    dialog = app.dialog
    assert isinstance(dialog, PermissionScreen) and dialog.review is not None
    return dialog


def applied(tool: str, updated: dict[str, Any]) -> str:
    """What the CLI writes for the rebuilt input."""
    if tool == "Write":
        return str(updated["content"])
    if tool == "MultiEdit":
        text = BEFORE
        for edit in updated["edits"]:
            assert text.count(edit["old_string"]) == 1
            text = text.replace(edit["old_string"], edit["new_string"], 1)
        return text
    assert BEFORE.count(updated["old_string"]) == 1
    return BEFORE.replace(updated["old_string"], updated["new_string"], 1)


async def test_space_leaves_a_hunk_out_and_y_applies_the_other(tmp_path: Path) -> None:
    for tool in ("Edit", "MultiEdit", "Write"):
        app = DialogHost(two_hunk_dialog(tmp_path, tool))
        async with app.run_test(size=(120, 40)) as pilot:
            dialog = await _ready(app, pilot)
            assert dialog.review is not None and dialog.review.count == 2
            await pilot.press("space")  # the first hunk: left out
            await settle(pilot)
            assert "hunk 1 · ✗ left out" in screen_text(app)
            await pilot.press("j", "k", "down")  # the cursor ends on hunk 2, which stays taken
            await settle(pilot)
            assert dialog.review.cursor == 1 and dialog.review.rejected == {0}
            await pilot.press("y")
            await settle(pilot)
        [decision] = app.results
        assert decision.allow and decision.updated_input is not None
        assert applied(tool, decision.updated_input) == BEFORE.replace("line 18\n", "LINE 18\n"), tool
        assert "left out 1 of 2 hunks — hunk 1 (lines 1-5)" in decision.follow_up
        assert decision.words == "Allowed 1 of 2 hunks"


async def test_y_with_every_hunk_taken_sends_the_input_as_it_is(tmp_path: Path) -> None:
    app = DialogHost(two_hunk_dialog(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("space", "space", "y")  # left out, taken again
        await settle(pilot)
    [decision] = app.results
    assert decision.allow and decision.updated_input is None and decision.follow_up == ""


async def test_every_hunk_left_out_is_a_denial_that_says_so(tmp_path: Path) -> None:
    app = DialogHost(two_hunk_dialog(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("space", "down", "space", "y")
        await settle(pilot)
    [decision] = app.results
    assert not decision.allow and "left out 2 of 2 hunks" in decision.message


async def test_e_rewrites_the_hunk_under_the_cursor(tmp_path: Path) -> None:
    app = DialogHost(two_hunk_dialog(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await _ready(app, pilot)
        await pilot.press("down", "e")
        await settle(pilot)
        editor = dialog.query_one("#editor")
        assert editor.text == "line 15\nline 16\nline 17\nLINE 18\nline 19\nline 20\n"
        editor.load_text("line 15\nline 16\nline 17\nLine Eighteen\nline 19\nline 20\n")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert dialog.mode == "main" and "✎ rewritten" in screen_text(app)
        await pilot.press("up", "space", "y")
        await settle(pilot)
    [decision] = app.results
    assert decision.updated_input is not None
    assert applied("Edit", decision.updated_input) == BEFORE.replace("line 18\n", "Line Eighteen\n")
    assert "I rewrote the new lines of hunk 2" in decision.follow_up


async def test_t_applies_what_is_taken_and_says_why(tmp_path: Path) -> None:
    app = DialogHost(two_hunk_dialog(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("space", "t")
        await settle(pilot)
        await pilot.press(*"keep it", "enter")
        await settle(pilot)
    [decision] = app.results
    assert decision.allow and decision.follow_up.endswith("Why: keep it")


async def test_the_arrows_still_scroll_a_preview_with_nothing_to_review(tmp_path: Path) -> None:
    request = request_from("bash-allow", "Bash")
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert app.dialog.review is None and not app.dialog.query(DiffView)
        await pilot.press("down", "space", "y")
        await settle(pilot)
    [decision] = app.results
    assert decision.allow and decision.updated_input is None


class CommentHost(DialogHost):
    def __init__(self, dialog: PermissionScreen) -> None:
        super().__init__(dialog)
        self.asked: list[DiffView.CommentAsked] = []

    def on_diff_view_comment_asked(self, event: DiffView.CommentAsked) -> None:
        self.asked.append(event)


async def test_c_asks_for_a_comment_on_the_hunk_under_the_cursor(tmp_path: Path) -> None:
    app = CommentHost(two_hunk_dialog(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("down", "c")
        await settle(pilot)
        assert [(event.hunk, event.diff.hunks[event.hunk].old_start) for event in app.asked] == [(1, 15)]
        assert not app.results  # a comment answers nothing
