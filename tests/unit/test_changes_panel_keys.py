"""The what-changed panel's diff keys (s, n, p) work with the file list focused, as its hint line says."""

from __future__ import annotations

from textual.app import App
from textual.widgets import OptionList

from claude_tui.diff import ChangeSet, preview_write
from claude_tui.ui.panels.changes_panel import ChangesScreen
from claude_tui.ui.render.diff_view import DiffView


def _hunks() -> ChangeSet:
    """One file with five hunks: taller than the diff pane, so n/p have somewhere to scroll."""
    old = "".join(f"l{i}\n" for i in range(200))
    new = old
    for line in (10, 50, 90, 130, 170):
        new = new.replace(f"l{line}\n", f"L{line}\n")
    changes = ChangeSet()
    changes.record(preview_write(True, old, new, path="f.txt"))
    return changes


class PanelApp(App[None]):
    def __init__(self, changes: ChangeSet) -> None:
        super().__init__()
        self.changes = changes

    def on_mount(self) -> None:
        self.push_screen(ChangesScreen(self.changes))


async def test_s_toggles_split_from_the_file_list() -> None:
    app = PanelApp(_hunks())
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        files = app.screen.query_one("#changes-files", OptionList)
        view = app.screen.query_one(DiffView)
        assert app.screen.focused is files
        assert not view.is_split
        await pilot.press("s")
        assert view.is_split
        await pilot.press("s")
        assert not view.is_split
        assert app.screen.focused is files  # the keys act on the diff without taking the focus


async def test_n_and_p_jump_between_hunks_from_the_file_list() -> None:
    app = PanelApp(_hunks())
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(DiffView)
        assert app.screen.focused is app.screen.query_one("#changes-files", OptionList)
        await pilot.press("n")
        await pilot.pause()
        assert view.render_line(1).text.strip() == "@@ -8,7 +8,7 @@"
        await pilot.press("n")
        await pilot.pause()
        assert view.render_line(1).text.strip() == "@@ -48,7 +48,7 @@"
        await pilot.press("p")
        await pilot.pause()
        assert view.render_line(1).text.strip() == "@@ -8,7 +8,7 @@"


async def test_diff_keys_still_work_with_the_diff_focused() -> None:
    app = PanelApp(_hunks())
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(DiffView)
        await pilot.press("tab")
        assert app.screen.focused is view
        await pilot.press("s")
        assert view.is_split  # toggled once (not by the pane and again by the panel)
        await pilot.press("n")
        await pilot.pause()
        assert "@@ -8,7 +8,7 @@" in view.render_line(1).text
