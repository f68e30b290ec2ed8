"""Snapshots of the DiffView and the "what changed" panel (dark and light themes)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll

from claude_tui.diff import ChangeSet, FileDiff, preview_delete, preview_edit, preview_notebook, preview_write
from claude_tui.ui.panels.changes_panel import ChangesScreen
from claude_tui.ui.render.diff_view import DiffView

OLD_PY = '''"""Tiny config loader."""

import json
import os


def load(path):
    with open(path) as handle:
        data = json.load(handle)
    return data


def env(name, default=None):
    value = os.environ.get(name)
    if value is None:
        return default
    return value


def main():
    config = load("config.json")
    print("loaded", len(config), "keys")
    return 0
'''

NEW_PY = (
    OLD_PY.replace("import json\n", "import json\nimport logging\n")
    .replace("    data = json.load(handle)\n", "    data = json.load(handle)\n    logging.debug(\"read %s\", path)\n")
    .replace('    config = load("config.json")\n    print("loaded", len(config), "keys")\n',
             '    config = load(env("CONFIG", "config.json"))\n'
             '\tprint("loaded", len(config), "keys", "[bold]not markup[/bold]\x1b[31m")\n')
)


def edit_diff() -> FileDiff:
    return preview_write(True, OLD_PY, NEW_PY, path="src/app/config.py")


class DiffApp(App[None]):
    """One DiffView filling the screen."""

    def __init__(self, diff: FileDiff | Sequence[FileDiff], theme: str = "textual-dark", **options: object) -> None:
        super().__init__()
        self._diff = diff
        self._options = options
        self.theme = theme

    def compose(self) -> ComposeResult:
        yield DiffView(self._diff, **self._options)


class CardsApp(App[None]):
    """Several compact previews stacked like tool cards."""

    CSS = "DiffView { margin-bottom: 1; }"

    def __init__(self, diffs: list[FileDiff], max_rows: int = 8, theme: str = "textual-dark") -> None:
        super().__init__()
        self._diffs = diffs
        self._max_rows = max_rows
        self.theme = theme

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            for diff in self._diffs:
                yield DiffView(diff, max_rows=self._max_rows, split=False)


class ChangesApp(App[None]):
    def __init__(self, changes: ChangeSet, theme: str = "textual-dark") -> None:
        super().__init__()
        self._changes = changes
        self.theme = theme

    def on_mount(self) -> None:
        self.push_screen(ChangesScreen(self._changes))


def big_diff(lines: int = 20_000) -> FileDiff:
    old = "".join(f"value_{i} = {i}\n" for i in range(lines))
    new = "".join(f"value_{i} = {i * 2 if i % 7 == 0 else i}\n" for i in range(lines))
    return preview_write(True, old, new, path="data/table.py")


def sample_changes() -> ChangeSet:
    changes = ChangeSet()
    changes.record(preview_write(False, None, "def hello():\n    return 'hi'\n", path="src/app/hello.py"))
    changes.record(edit_diff())
    changes.begin_turn()
    changes.record(preview_edit(NEW_PY, "return 0", "return 1", path="src/app/config.py"))
    changes.record(preview_delete("# Old notes\n\n- one\n- two\n", path="docs/NOTES.md"))
    return changes


def test_unified_dark(snap_compare) -> None:
    assert snap_compare(DiffApp(edit_diff()), terminal_size=(100, 36))


def test_split_auto_when_wide(snap_compare) -> None:
    assert snap_compare(DiffApp(edit_diff()), terminal_size=(160, 36))


def test_split_toggled_with_s_key(snap_compare) -> None:
    assert snap_compare(DiffApp(edit_diff()), press=["tab", "s"], terminal_size=(120, 36))


def test_new_file(snap_compare) -> None:
    diff = preview_write(False, None, NEW_PY, path="src/app/config.py")
    assert snap_compare(DiffApp(diff), terminal_size=(100, 36))


def test_large_diff_scrolled_lazily(snap_compare) -> None:
    async def scroll(pilot) -> None:
        await pilot.pause()
        view = pilot.app.query_one(DiffView)
        view.focus()
        view.scroll_to(y=9_000, animate=False, immediate=True)
        await pilot.pause()
        assert view.scroll_offset.y == 9_000

    assert snap_compare(DiffApp(big_diff(), split=False), run_before=scroll, terminal_size=(100, 24))


def test_large_diff_preview_shows_more_lines(snap_compare) -> None:
    assert snap_compare(CardsApp([big_diff(), edit_diff()], max_rows=10), terminal_size=(100, 30))


def test_narrow_terminal(snap_compare) -> None:
    assert snap_compare(DiffApp(edit_diff()), terminal_size=(60, 30))


def test_unified_light(snap_compare) -> None:
    assert snap_compare(DiffApp(edit_diff(), theme="textual-light"), terminal_size=(100, 36))


def test_split_light(snap_compare) -> None:
    assert snap_compare(DiffApp(edit_diff(), theme="textual-light"), terminal_size=(160, 36))


def test_kinds_as_cards(snap_compare) -> None:
    notebook = '{"cells": [{"id": "c1", "cell_type": "code", "source": ["x = 1\\n", "print(x)\\n"]}]}'
    diffs = [
        preview_edit("alpha\n", "beta", "gamma", path="missing.txt"),
        preview_write(True, b"\x89PNG\r\n\x1a\n\x00\x00", b"\x89PNG\x00", path="logo.png"),
        preview_notebook(notebook, "c1", "x = 2\nprint(x)\n", path="analysis.ipynb"),
        preview_delete("line one\nline two\n", path="old.txt"),
    ]
    assert snap_compare(CardsApp(diffs), terminal_size=(100, 34))


def test_changes_panel_dark(snap_compare) -> None:
    assert snap_compare(ChangesApp(sample_changes()), terminal_size=(130, 34))


def test_changes_panel_light_second_file(snap_compare) -> None:
    assert snap_compare(ChangesApp(sample_changes(), theme="textual-light"), press=["down"], terminal_size=(130, 34))


def test_changes_panel_empty(snap_compare) -> None:
    assert snap_compare(ChangesApp(ChangeSet()), terminal_size=(100, 20))
