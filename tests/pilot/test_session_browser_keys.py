"""The session browser: where the cursor starts, and keys you can find (footer, filter hint) at 80 columns."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.app import App
from textual.widgets import Input

from claude_tui.history.synth import make_session, read_records
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.browser.screen import _open_session_id
from claude_tui.ui.chat.app_host import register_app_host
from tests.pilot.test_session_browser import (
    BASH,
    NOW,
    PLAIN,
    RESUMED,
    SESSIONS,
    Host,
    build_tree,
    settle,
)

NEW = "0f0f0f0f-1111-2222-3333-444444444444"


class AppKeysHost(Host):
    """The test host with the real app's footer keys (Quit, Help) and its command palette."""

    BINDINGS = ClaudeTuiApp.BINDINGS


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The recorded sessions (tests here add one themselves, so no read-only check on this tree)."""
    return build_tree(tmp_path)


def add_newest(tree: Path) -> None:
    """A session that is newer than every other (e.g. the one the CLI is writing right now)."""
    make_session(tree / "projects" / "-home-user-project", read_records(SESSIONS / f"{BASH}.jsonl"),
                 session_id=NEW, cwd="/home/user/project", mtime=NOW - 5)


def screen_line(app: Host, y: int) -> str:
    return app.screen._compositor.render_strips()[y].text


def footer(app: Host) -> str:
    return screen_line(app, app.size.height - 1)


# -- where the cursor starts -----------------------------------------------------------------------


async def test_cursor_starts_on_the_newest_row_after_the_index_was_stale(tree: Path, tmp_path: Path) -> None:
    warm = Host(tree, tmp_path)
    async with warm.run_test() as pilot:
        await settle(pilot)
    add_newest(tree)  # not in the index yet: the first paint does not have it
    app = Host(tree, tmp_path)
    async with app.run_test() as pilot:
        screen = app.browser
        await settle(pilot)
        assert screen.table.listing.rows[0].session_id == NEW
        assert screen.table.cursor_row == 0 and screen.table.current_row.session_id == NEW


async def test_a_cursor_the_user_moved_stays_through_a_refresh(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        screen = app.browser
        await pilot.press("down")
        assert screen.table.current_row.session_id == BASH
        add_newest(tree)
        screen.reload()
        await settle(pilot)
        assert screen.table.listing.rows[0].session_id == NEW
        assert screen.table.current_row.session_id == BASH


async def test_cursor_starts_on_the_current_session(tree: Path, tmp_path: Path) -> None:
    warm = Host(tree, tmp_path)
    async with warm.run_test() as pilot:
        await settle(pilot)
    app = Host(tree, tmp_path, current_session_id=PLAIN)
    async with app.run_test() as pilot:
        assert app.browser.table.current_row.session_id == PLAIN  # first paint (from the warm index)
        await settle(pilot)
        assert app.browser.table.current_row.session_id == PLAIN  # and after the refresh
        await pilot.press("enter")
        await pilot.pause()
    assert app.choices[0] is not None and app.choices[0].session_id == PLAIN


async def test_a_current_session_not_listed_falls_back_to_the_newest(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path, current_session_id="not-a-listed-session")
    async with app.run_test() as pilot:
        await settle(pilot)
        assert app.browser.table.current_row.session_id == RESUMED


async def test_the_open_session_comes_from_the_apps_chat_screen() -> None:
    """The browser asks the registered app host (`app_host`) for the active tab, nothing by name."""

    class Running(App[None]):
        chat: object = SimpleNamespace(session=SimpleNamespace(conversation=SimpleNamespace(
            status=SimpleNamespace(session_id=BASH))))

    app = Running()
    register_app_host(app)  # type: ignore[arg-type]  # a stand-in: only .chat is read
    async with app.run_test():
        assert _open_session_id(app.screen) == BASH
        app.chat = SimpleNamespace(session=SimpleNamespace(conversation=SimpleNamespace(
            status=SimpleNamespace(session_id=""))))
        assert _open_session_id(app.screen) is None
        app.chat = None
        assert _open_session_id(app.screen) is None
    plain = App[None]()
    async with plain.run_test():
        assert _open_session_id(plain.screen) is None  # an app that registered no host: no open session


# -- keys you can find -------------------------------------------------------------------------------


async def test_filter_focus_names_tab_and_the_table_keys(tree: Path, tmp_path: Path) -> None:
    app = AppKeysHost(tree, tmp_path)
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(pilot)
        screen = app.browser
        box = screen.query_one("#browser-filter", Input)
        assert screen.focused is box
        assert "tab Table keys" in footer(app)
        edge = screen_line(app, 2)  # the filter's bottom border
        for words in ("Tab, then:", "f fork", "a all projects", "s sort", "r rename"):
            assert words in edge
        await pilot.press("f")  # letters still filter in the box
        assert box.value == "f" and app.choices == []
        await pilot.press("backspace", "tab")
        await pilot.pause()
        assert screen.focused is screen.table
        assert "Tab, then:" not in screen_line(app, 2) and "Table keys" not in footer(app)
        await pilot.press("a")  # in the table the letters are commands
        await settle(pilot)
        assert screen.state.all_projects
        await pilot.press("shift+tab")
        await pilot.pause()
        assert screen.focused is box and "a this project" in screen_line(app, 2)


async def test_footer_fits_80_columns_in_both_panes(tree: Path, tmp_path: Path) -> None:
    app = AppKeysHost(tree, tmp_path)
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(pilot)
        line = footer(app)
        for words in ("⏎ Resume", "tab Table keys", "/ Search", "esc Close", "^q Quit"):
            assert words in line, line
        await pilot.press("tab")
        await pilot.pause()
        line = footer(app)
        for words in ("⏎ Resume", "f Fork", "a All projects", "s Sort", "/ Search", "r Rename", "esc Close", "^q Quit"):
            assert words in line, line


async def test_f1_still_opens_help_though_the_footer_leaves_it_out(tree: Path, tmp_path: Path) -> None:
    opened: list[bool] = []

    class HelpHost(AppKeysHost):
        def action_help(self) -> None:
            opened.append(True)

    app = HelpHost(tree, tmp_path)
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(pilot)
        assert "Help" not in footer(app)
        await pilot.press("f1")
        assert opened == [True]


async def test_footer_fits_80_columns_with_nothing_listed(tmp_path: Path) -> None:
    root = tmp_path / "config"
    (root / "projects").mkdir(parents=True)
    app = AppKeysHost(root, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.browser.focused is None  # nothing to filter: every key is offered
        line = footer(app)
        for words in ("a All projects", "/ Search", "esc Close", "^q Quit"):
            assert words in line, line
