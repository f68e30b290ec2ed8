"""The session browser's state is a plain object (issue 29): no Textual, and it drops stale results."""

from __future__ import annotations

import ast
from pathlib import Path

import claude_tui.ui.browser.state as state_module
from claude_tui.history.index import SessionRow
from claude_tui.ui.browser.state import BrowserState


def test_the_state_imports_no_textual() -> None:
    tree = ast.parse(Path(state_module.__file__).read_text())
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not {name for name in imported if name.split(".")[0] == "textual"}


def row(path: str, mtime_ns: int = 1) -> SessionRow:
    return SessionRow(path, f"/p/{path}.jsonl", "-p", 0, mtime_ns, title=path)


def test_a_listing_for_an_older_scope_is_dropped(tmp_path: Path) -> None:
    state = BrowserState(tmp_path, config_root=tmp_path, index_path=tmp_path / "index.sqlite", names_path=None,
                         now=lambda: 0.0, all_projects=False, poll_seconds=None)
    old = state.generation
    state.new_scope(True)
    assert state.take_listing(old, [row("a")], None) is None and state.rows == [] and not state.listed
    assert state.take_listing(state.generation, [row("a")], None) is True and state.listed
    assert state.take_listing(state.generation, [row("a")], None) is False, "the same rows: nothing to redraw"
    assert not state.take_progress(old, 1, 2) and state.indexing is None
    assert state.take_progress(state.generation, 1, 2) and state.indexing == (1, 2)
    seq = state.start_search("x")
    state.searching = True
    assert not state.take_hits(seq - 1, [], None) and state.take_hits(seq, [], "note")
