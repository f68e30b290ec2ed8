"""A cache that cannot be written (read-only, full disk) costs search, never the session list.

Real faults: a tiny tmpfs filled to the last byte, and a read-only mount (a 0500 directory when
not root). The index moves into memory, lists and counts from the transcripts, and says once why
search is off; `sessions`, `search`, `export` and `--continue` answer instead of a traceback.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from claude_tui.history.commands import export_command, search_command, sessions_command
from claude_tui.history.index import SessionIndex
from claude_tui.history.synth import make_session, read_records
from tests.disks import fill, filling_disk, full_disk, read_only_dir
from tests.pilot.test_session_browser import BASH, PLAIN, RESUMED, SESSIONS, build_tree

PROJECT = Path("/home/user/project")


@pytest.fixture(params=["full", "read-only"])
def broken_cache(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """XDG_CACHE_HOME on a full disk or a read-only one; yields the phrase the fault is told by."""
    target = tmp_path / "cache"
    with (full_disk(target) if request.param == "full" else read_only_dir(target)):
        monkeypatch.setenv("XDG_CACHE_HOME", str(target / "nested"))
        yield request.param


def _said(note: str | None, kind: str) -> bool:
    assert note is not None
    wanted = ("disk is full",) if kind == "full" else ("Read-only", "Permission denied")
    return note.startswith("Search is off") and any(w in note for w in wanted)


def test_the_index_lists_and_counts_without_a_cache(tmp_path: Path, broken_cache: str) -> None:
    root = build_tree(tmp_path)
    with SessionIndex(root=root) as index:
        rows = index.list_sessions(PROJECT)
        assert [row.session_id for row in rows] == [RESUMED, BASH, PLAIN]
        assert [index.message_count(row) for row in rows] == [6, 4, 2]
        index.refresh()
        assert index.index_content() == 1  # the other project's one: counted, no text kept
        assert index.search("tool ran") == []
        assert _said(index.search_note, broken_cache) and index.unavailable


def test_a_disk_that_fills_under_a_working_index(tmp_path: Path) -> None:
    """Written fine, then full: the next refresh that must write moves into memory, listing it all."""
    root = build_tree(tmp_path, other_project=False)
    with filling_disk(tmp_path / "cache") as disk:
        db = disk / "index.sqlite"
        with SessionIndex(db, root=root) as index:
            assert len(index.list_sessions(PROJECT)) == 3
            assert index.index_content() == 3 and index.search("tool ran")
        fill(disk)
        project = root / "projects" / "-home-user-project"
        for _ in range(40):  # more rows than the free pages of the file can take
            make_session(project, read_records(SESSIONS / f"{PLAIN}.jsonl"))
        with SessionIndex(db, root=root) as index:
            assert index.unavailable is None  # opening and reading still work on a full disk
            rows = index.list_sessions(PROJECT)
            assert len(rows) == 43 and "disk is full" in (index.unavailable or "")
            assert all(index.message_count(row) > 0 for row in rows)
            assert index.index_content() >= 0 and index.search("tool ran") == []


def test_the_subcommands_answer_without_a_cache(tmp_path: Path, broken_cache: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    root = build_tree(tmp_path, other_project=False)
    out = io.StringIO()
    assert sessions_command(False, 50, False, PROJECT, out, root=root) == 0
    assert RESUMED in out.getvalue() and "kw:bash please" in out.getvalue()
    out = io.StringIO()
    assert search_command("tool ran", False, False, PROJECT, out, root=root) == 1
    assert out.getvalue() == ""
    assert _said(capsys.readouterr().err.removeprefix("claude-tui: "), broken_cache)
    out = io.StringIO()
    assert export_command(BASH[:8], "markdown", out, root=root, cwd=PROJECT) == 0
    assert "All done. The tool ran." in out.getvalue()


def test_continue_finds_the_newest_session_without_a_cache(tmp_path: Path, broken_cache: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from claude_tui.resume import newest_session_id

    root = build_tree(tmp_path, other_project=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    assert newest_session_id(PROJECT) == RESUMED


async def test_the_browser_lists_and_says_once_that_search_is_off(tmp_path: Path, broken_cache: str) -> None:
    from textual.widgets import Static

    from tests.pilot.test_session_browser import Host, settle, shown

    root = build_tree(tmp_path, other_project=False)
    app = Host(root, tmp_path / "nested-cache")
    app.browser.state.index_path = None  # the default index: under the broken XDG_CACHE_HOME
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        assert [row.session_id for row in screen.table.listing.rows] == [RESUMED, BASH, PLAIN]
        assert [row.message_count for row in screen.table.listing.rows] == [6, 4, 2]
        await pilot.press("slash", *"tool ran")
        await settle(pilot)
        status = shown(screen, "#browser-status")
        assert "Search is off" in status and "still building" not in status
        empty = str(screen.query_one("#browser-empty", Static).render())
        assert _said(empty.splitlines()[0], broken_cache)
        assert not screen.table.listing.rows
        await pilot.press("escape")  # leaves search: the list is still there
        await pilot.pause()
        assert len(screen.table.listing.rows) == 3


async def test_ctrl_o_opens_the_browser_on_a_broken_cache(tmp_path: Path, broken_cache: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: OSError from creating the cache dir, out of the key handler: the app ended."""
    from claude_tui.ui.browser.screen import SessionBrowserScreen
    from tests.pilot.helpers import make_app, wait_for

    root = build_tree(tmp_path, other_project=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    project = tmp_path / "work"
    project.mkdir()
    app = make_app(project)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f4")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionBrowserScreen), what="the browser")
        browser = app.screen
        assert isinstance(browser, SessionBrowserScreen)
        await pilot.press("a")  # every project: the tree's sessions
        await wait_for(pilot, lambda: len(browser.state.rows) == 3, what="the sessions listed")
        assert app.is_running
