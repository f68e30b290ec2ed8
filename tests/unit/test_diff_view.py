"""DiffView and ChangesPanel behaviour in a headless app (lazy rendering, modes, safety)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.reactive import reactive
from textual.widgets import OptionList

from claude_tui.diff import ChangeSet, FileDiff, preview_edit, preview_write
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.panels.changes_panel import ChangesPanel, ChangesScreen
from claude_tui.ui.render.diff_view import APP_SPLIT, DiffView


class ViewApp(App[None]):
    def __init__(self, view: DiffView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        yield self.view


def _big(lines: int = 5_000) -> FileDiff:
    old = "".join(f"v{i} = {i}\n" for i in range(lines))
    new = "".join(f"v{i} = {-i}\n" for i in range(lines))
    return preview_write(True, old, new, path="big.py")


async def test_only_visible_rows_are_rendered() -> None:
    view = DiffView(_big())
    async with ViewApp(view).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert view.virtual_size.height == len(view.rows_for(False)) + 1 > 10_000
        assert 0 < len(view._strips) <= 30
        view.scroll_to(y=5_000, animate=False, immediate=True)
        await pilot.pause()
        assert len(view._strips) <= 60


async def test_split_is_automatic_by_width_and_toggled_by_s() -> None:
    diff = preview_edit("a\nb\nc\n", "b", "B", path="x.txt")
    view = DiffView(diff)
    app = ViewApp(view)
    async with app.run_test(size=(100, 20)) as pilot:
        assert not view.is_split
        view.focus()
        await pilot.press("s")
        assert view.split is True and view.is_split
        assert "│" in view.render_line(2).text
        await pilot.press("s")
        assert view.is_split is False
    wide = DiffView(diff)
    async with ViewApp(wide).run_test(size=(150, 20)):
        assert wide.split is None and wide.is_split


async def test_line_text_is_never_markup_and_controls_are_visible() -> None:
    diff = preview_edit("x = 1\n", "x = 1", "x = '[bold red]hi[/]\x1b[2J'", path="m.py")
    view = DiffView(diff, split=False)
    async with ViewApp(view).run_test(size=(100, 10)) as pilot:
        await pilot.pause()
        texts = [view.render_line(y).text for y in range(6)]
        added = next(t for t in texts if "+ x =" in t)
        assert "[bold red]hi[/]" in added
        assert "\x1b" not in "".join(texts)


async def test_preview_mode_caps_rows_and_height() -> None:
    view = DiffView(_big(), max_rows=8, split=False)
    async with ViewApp(view).run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert view.size.height == 9  # header + 8 rows
        assert "more lines" in view.render_line(8).text


async def test_next_hunk_key_jumps_to_the_next_header() -> None:
    old = "".join(f"l{i}\n" for i in range(200))
    new = old.replace("l10\n", "L10\n").replace("l150\n", "L150\n")
    view = DiffView(preview_write(True, old, new, path="f.txt"), split=False)
    async with ViewApp(view).run_test(size=(80, 10)) as pilot:
        view.focus()
        await pilot.press("n")
        await pilot.pause()
        assert view.render_line(1).text.strip() == "@@ -8,7 +8,7 @@"
        await pilot.press("n")
        await pilot.pause()
        assert view.render_line(1).text.strip() == "@@ -148,7 +148,7 @@"
        await pilot.press("p")
        await pilot.pause()
        assert view.render_line(1).text.strip() == "@@ -8,7 +8,7 @@"


async def test_changes_panel_lists_turn_and_session_and_shows_diffs() -> None:
    changes = ChangeSet()
    changes.record(preview_write(False, None, "a\n", path="new.txt"))
    changes.begin_turn()
    changes.record(preview_edit("x\n", "x", "y", path="edit.txt"))

    class PanelApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ChangesScreen(changes))

    app = PanelApp()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        files = app.screen.query_one("#changes-files", OptionList)
        ids = [files.get_option_at_index(i).id for i in range(files.option_count)]
        assert ids == ["turn:heading", "turn:0", "session:heading", "session:0", "session:1"]
        view = app.screen.query_one(DiffView)
        assert view.diffs[0].path == "edit.txt"
        await pilot.press("down")
        assert view.diffs[0].path == "new.txt"
        await pilot.press("escape")
        assert not isinstance(app.screen, ChangesScreen)


async def test_changes_panel_empty_state_and_refresh() -> None:
    changes = ChangeSet()
    panel = ChangesPanel(changes)

    class PanelApp(App[None]):
        def compose(self) -> ComposeResult:
            yield panel

    async with PanelApp().run_test(size=(100, 20)) as pilot:
        assert panel.has_class("-empty")
        changes.record(preview_edit("x\n", "x", "y", path="e.txt"))
        panel.refresh_changes()
        await pilot.pause()
        assert not panel.has_class("-empty")
        assert panel.query_one(DiffView).diffs[0].path == "e.txt"


async def test_theme_change_recolours_cached_rows() -> None:
    view = DiffView(preview_edit("a\nb\nc\n", "b", "B", path="x.txt"), split=False)
    app = ViewApp(view)
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        dark = list(view.render_line(4))[0].style.bgcolor
        app.theme = "textual-light"
        await pilot.pause()
        light = list(view.render_line(4))[0].style.bgcolor
        assert dark != light


def test_paths_in_the_project_are_shown_relative_to_it() -> None:
    from claude_tui.diff.display import project_relative

    assert project_relative("/home/u/proj/src/a.py", "/home/u/proj") == "src/a.py"
    assert project_relative("/home/u/other/a.py", "/home/u/proj") == "/home/u/other/a.py"  # outside: in full
    assert project_relative("/home/u/projX/a.py", "/home/u/proj") == "/home/u/projX/a.py"  # a prefix is not inside
    assert project_relative("src/a.py", "/home/u/proj") == "src/a.py"
    assert project_relative("/home/u/proj/a.py", None) == "/home/u/proj/a.py"


async def test_every_diff_view_follows_the_apps_split_choice() -> None:
    """The app-wide choice is one app reactive (`APP_SPLIT`) the views watch: no loop over screens."""

    class SplitApp(App[None]):
        diff_split: reactive[bool | None] = reactive(None, init=False)

        def compose(self) -> ComposeResult:
            yield DiffView(_big(20), id="by-width")
            yield DiffView(_big(20), split=False, id="chosen")

    app = SplitApp()
    async with app.run_test(size=(100, 30)) as pilot:
        by_width, chosen = app.query_one("#by-width", DiffView), app.query_one("#chosen", DiffView)
        assert by_width.split is None and chosen.split is False  # nothing chosen app-wide yet
        app.diff_split = True
        await pilot.pause()
        assert by_width.split is True and chosen.split is True  # a toggle sets every view
        chosen.focus()
        await pilot.press("s")
        assert chosen.split is False  # one view flipped by hand …
        app.diff_split = False
        await pilot.pause()
        app.diff_split = True
        await pilot.pause()
        assert chosen.split is True  # … follows the next toggle again
        later = DiffView(_big(20))
        await app.mount(later)
        assert later.split is True  # a view made after the toggle starts with it
    assert APP_SPLIT in ClaudeTuiApp.__dict__ and isinstance(ClaudeTuiApp.__dict__[APP_SPLIT], reactive)
