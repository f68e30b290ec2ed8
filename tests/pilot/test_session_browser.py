"""The session browser over a config tree built from the real CLI's transcripts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Input, Static

from claude_tui.history.index import SessionRow
from claude_tui.history.names import NameStore
from claude_tui.history.synth import make_session, read_records, tree_digest, used_at
from claude_tui.session.items import TextItem
from claude_tui.ui.browser.listing import fuzzy_match, sort_rows
from claude_tui.ui.browser.preview import SessionPreview
from claude_tui.ui.browser.screen import BrowserChoice, SessionBrowserScreen, conversation_for
from claude_tui.ui.browser.table import PAGE, Listing, SessionTable
from claude_tui.ui.dialogs.text_prompt import TextPrompt
from claude_tui.ui.log.assistant_text import AssistantText
from tests.conftest import FIXTURES
from tests.styles import APP_CSS

SESSIONS = FIXTURES / "sessions" / "-home-user-project"
PLAIN = "f122259a-3b96-4c04-9b7c-9b19a6582dba"  # "Hello there, kw:plain"
BASH = "3aa3043d-6dbe-4e80-8b58-4789dd1efc50"  # "kw:bash please" → Bash tool, "All done. The tool ran."
RESUMED = "1371d147-61d8-4b34-beff-86ba0e32e82d"  # "kw:edit the file", then "follow-up after resume"
OTHER = "0b6c8a1e-6f4f-4f59-9a43-2d3f7f0c0a11"
NOW = 1_795_400_000.0
CSS = [APP_CSS]


def build_tree(tmp_path: Path, *, other_project: bool = True) -> Path:
    """``tmp/config/projects/...``: the three recorded sessions (+ one in a second project)."""
    root = tmp_path / "config"
    project = root / "projects" / "-home-user-project"
    project.mkdir(parents=True)
    for i, sid in enumerate((PLAIN, BASH, RESUMED)):  # RESUMED is the newest
        shutil.copyfile(SESSIONS / f"{sid}.jsonl", project / f"{sid}.jsonl")
        used_at(project / f"{sid}.jsonl", NOW - 3600 + i * 600)
    if other_project:
        make_session(root / "projects" / "-home-user-other", read_records(SESSIONS / f"{PLAIN}.jsonl"),
                     session_id=OTHER, cwd="/home/user/other", mtime=NOW - 86400 * 3)
    return root


class Host(App[None]):
    CSS_PATH = CSS  # type: ignore[assignment]

    def __init__(self, root: Path, tmp_path: Path, **options: object) -> None:
        super().__init__()
        self.choices: list[BrowserChoice | None] = []
        self.browser = SessionBrowserScreen(Path("/home/user/project"), config_root=root,
                                            index_path=tmp_path / "index.sqlite", now=lambda: NOW,
                                            names_path=tmp_path / "names.json", poll_seconds=None,
                                            **options)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        self.push_screen(self.browser, self.choices.append)


async def settle(pilot, rounds: int = 2) -> None:  # type: ignore[no-untyped-def]
    """Let timers fire and thread workers finish, a few times over (results start new work)."""
    for _ in range(rounds):
        await pilot.pause(0.2)
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def titles(screen: SessionBrowserScreen) -> list[str]:
    return [row.display_title for row in screen.table.listing.rows]


def shown(screen: SessionBrowserScreen, selector: str) -> str:
    """What a widget shows on screen, line by line."""
    widget = screen.query_one(selector)
    return "\n".join(widget.render_line(y).text for y in range(widget.size.height))


def preview_texts(screen: SessionBrowserScreen) -> list[str]:
    return [w.item.text for w in screen.query_one(SessionPreview).query(AssistantText)]


@pytest.fixture
def tree(tmp_path: Path):  # type: ignore[no-untyped-def]
    root = build_tree(tmp_path)
    before = tree_digest(root)
    yield root
    assert tree_digest(root) == before, "the browser changed the CLI's files"


async def test_lists_every_session_with_counts_and_preview(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        # Titles are first prompts: RESUMED's follow-up prompt does not rename it.
        assert titles(screen) == ["kw:edit the file", "kw:bash please", "Hello there, kw:plain"]
        assert all(row.entrypoint == "sdk-cli" for row in screen.state.rows)  # hidden by Claude Code's picker
        assert [row.message_count for row in screen.table.listing.rows] == [6, 4, 2]
        assert screen.state.indexed and screen.state.indexing is None
        line = screen.table.render_line(1).text  # the first row, below the header
        assert "kw:edit the file" in line and "40 min ago" in line and "$0.04" in line
        assert "6" in line.split("40 min ago")[1]
        assert screen.has_class("-wide")
        assert any("follow-up after resume" in text for text in preview_texts(screen))
        await pilot.press("down")
        await settle(pilot)
        assert screen.table.current_row.session_id == BASH
        assert "All done. The tool ran." in " ".join(preview_texts(screen))
        header = str(screen.query_one("#preview-header", Static).render())
        assert "3aa3043d" in header and "/home/user/project" in header and "4 messages" in header


async def test_first_paint_comes_from_the_index(tree: Path, tmp_path: Path) -> None:
    first = Host(tree, tmp_path)
    async with first.run_test() as pilot:
        await settle(pilot)
    again = Host(tree, tmp_path)
    async with again.run_test() as pilot:
        # Before any worker ran: rows straight from the warm index, counts included.
        assert len(again.browser.table.listing.rows) == 3
        assert [row.message_count for row in again.browser.state.rows] == [6, 4, 2]
        await settle(pilot)


async def test_typing_filters_titles_fuzzily(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        await pilot.press("k", "w", "b", "s", "h")  # a non-command key starts the filter
        assert screen.focused is screen.filter_input
        assert screen.filter_input.value == "kwbsh"
        assert titles(screen) == ["kw:bash please"]
        assert screen.table.listing.positions[screen.table.listing.rows[0].path] == [0, 1, 3, 5, 6]
        await pilot.press("backspace", "backspace", "backspace", "backspace", "backspace", "p", "l", "a", "i", "n")
        assert titles(screen) == ["Hello there, kw:plain"]
        await pilot.press("z", "z", "z")
        assert titles(screen) == []
        empty = str(screen.query_one("#browser-empty", Static).render())
        assert "No session titles match" in empty and "/ to search" in empty
        await pilot.press("escape")  # clears the filter, back to the table
        assert screen.filter_input.value == "" and screen.focused is screen.table
        assert len(titles(screen)) == 3
        await pilot.press("escape")
        await pilot.pause()
        assert app.choices == [None]


async def test_full_text_search_shows_snippets(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        await pilot.press("slash")
        assert screen.state.searching and screen.focused is screen.filter_input
        await pilot.press(*"tool ran")
        await settle(pilot)
        assert sorted(titles(screen)) == ["kw:bash please", "kw:edit the file"]
        hits = screen.table.listing.hits
        assert hits is not None and all("tool ran" in h[0].snippet.lower() for h in hits.values())
        line = screen.table.render_line(1).text
        assert "All done. The tool ran." in line  # the match column
        for _ in "tool ran":
            await pilot.press("backspace")
        await pilot.press(*"follow-up after resume")
        await settle(pilot)
        assert titles(screen) == ["kw:edit the file"]
        matches = str(screen.query_one("#preview-matches", Static).render())
        assert "follow-up after resume" in matches and "turn 2" in matches
        await pilot.press("escape")  # leaves search, not the browser
        assert not screen.state.searching and app.choices == []
        assert len(titles(screen)) == 3 and screen.focused is screen.table


async def test_enter_resumes_and_f_forks(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")
        await pilot.pause()
    choice = app.choices[0]
    assert choice == BrowserChoice(BASH, tree / "projects" / "-home-user-project" / f"{BASH}.jsonl",
                                   Path("/home/user/project"), False)
    conversation = conversation_for(choice)
    assert any(isinstance(i, TextItem) and "The tool ran" in i.text for i in conversation.items)
    assert conversation.status.session_id == BASH and conversation.status.cost_total == pytest.approx(0.02828)

    app = Host(tree, tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("tab")  # letters are commands in the table, typed in the filter
        await pilot.press("f")
        await pilot.pause()
    assert app.choices[0] is not None and app.choices[0].session_id == RESUMED and app.choices[0].fork


async def test_enter_from_the_filter_resumes_the_top_match(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press(*"hello", "enter")
        await pilot.pause()
    assert [c.session_id if c else None for c in app.choices] == [PLAIN]

    app = Host(tree, tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("e")  # every title has an "e": best match first, then newest
        assert titles(app.browser) == ["kw:edit the file", "Hello there, kw:plain", "kw:bash please"]
        await pilot.press("down", "enter")  # arrows move the table's cursor while typing
        await pilot.pause()
    assert [c.session_id if c else None for c in app.choices] == [PLAIN]


async def test_a_toggles_all_projects(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        assert len(screen.state.rows) == 3
        await pilot.press("tab")  # letters are commands in the table, typed in the filter
        await pilot.press("a")
        await settle(pilot)
        assert screen.state.all_projects and len(screen.state.rows) == 4
        assert OTHER in [row.session_id for row in screen.table.listing.rows]
        assert "Project" in screen.table.render_line(0).text  # only shown across projects
        assert "all projects" in shown(screen, "#browser-status")
        await pilot.press("tab")  # letters are commands in the table, typed in the filter
        await pilot.press("a")
        await settle(pilot)
        assert not screen.state.all_projects and len(screen.state.rows) == 3
        assert "Project" not in screen.table.render_line(0).text


async def test_s_cycles_the_sort(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        await pilot.press("tab")  # letters are commands in the table, typed in the filter
        await pilot.press("s")
        assert screen.sort == "created"
        assert titles(screen) == ["kw:edit the file", "kw:bash please", "Hello there, kw:plain"]
        await pilot.press("s")
        assert screen.sort == "cost" and titles(screen)[0] == "kw:edit the file"
        await pilot.press("s")
        assert screen.sort == "title" and titles(screen) == ["Hello there, kw:plain", "kw:bash please",
                                                             "kw:edit the file"]
        assert "sorted by title" in shown(screen, "#browser-status")
        await pilot.press("s")
        assert screen.sort == "last active"


async def test_rename_persists_in_our_store(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        await pilot.press("tab")  # letters are commands in the table, typed in the filter
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, TextPrompt) and app.screen.id == "rename-session"
        assert app.screen.query_one(Input).value == ""
        await pilot.press(*"Parser fix", "enter")
        await settle(pilot)
        assert app.screen is screen
        assert NameStore(tmp_path / "names.json").get(RESUMED) == "Parser fix"
        assert titles(screen)[0] == "Parser fix"
        assert "Parser fix" in screen.table.render_line(1).text
        await pilot.press("tab")  # letters are commands in the table, typed in the filter
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.query_one(Input).value == "Parser fix"
        await pilot.press("escape")  # cancel keeps the name
        await settle(pilot)
        assert NameStore(tmp_path / "names.json").get(RESUMED) == "Parser fix"
    names = json.loads((tmp_path / "names.json").read_text())
    assert names == {RESUMED: "Parser fix"}
    again = Host(tree, tmp_path)
    async with again.run_test() as pilot:
        assert titles(again.browser)[0] == "Parser fix"
        await pilot.press(*"pfix")
        assert titles(again.browser) == ["Parser fix"]
        await settle(pilot)


async def test_new_and_grown_sessions_appear_while_open(tree: Path, tmp_path: Path) -> None:
    app = Host(tree, tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        screen = app.browser
        extra = tree / "projects" / "-home-user-project" / "0f0f0f0f-1111-2222-3333-444444444444.jsonl"
        make_session(extra.parent, read_records(SESSIONS / f"{BASH}.jsonl"), session_id=extra.stem,
                     extra_turns=2, cwd="/home/user/project", mtime=NOW - 5)
        screen.reload()
        await settle(pilot)
        assert len(screen.state.rows) == 4 and screen.table.listing.rows[0].session_id == extra.stem
        assert (screen.table.listing.rows[0].message_count or 0) > 4  # counted in the background
        extra.unlink()
        screen.reload()
        await settle(pilot)
        assert len(screen.state.rows) == 3


async def test_empty_tree_says_so(tmp_path: Path) -> None:
    root = tmp_path / "config"
    (root / "projects").mkdir(parents=True)
    app = Host(root, tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        screen = app.browser
        empty = str(screen.query_one("#browser-empty", Static).render())
        assert "No sessions yet for /home/user/project" in empty and "Press a" in empty
        assert not screen.query_one("#browser-body").display
        await pilot.press("tab", "enter", "f", "r")  # nothing to act on (no table: the letters are typed)
        assert app.choices == [] and app.screen is screen
        await pilot.press("escape", "escape")  # the first clears the filter, the second closes
        await pilot.pause()
    assert app.choices == [None]


async def test_hostile_titles_are_inert(tmp_path: Path) -> None:
    root = build_tree(tmp_path, other_project=False)
    path = root / "projects" / "-home-user-project" / f"{PLAIN}.jsonl"
    lines = path.read_text().splitlines()
    lines.append(json.dumps({"type": "custom-title", "customTitle": "[bold red]x[/] \x1b[31mred", "sessionId": PLAIN}))
    path.write_text("\n".join(lines) + "\n")
    app = Host(root, tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        line = "\n".join(screen.table.render_line(y).text for y in range(4))
        assert "[bold red]x[/]" in line and "\x1b" not in line


def test_pure_helpers() -> None:
    assert fuzzy_match("bash", "kw:bash please") is not None
    assert fuzzy_match("kbp", "kw:bash please") is not None
    assert fuzzy_match("bash zzz", "kw:bash please") is None
    assert fuzzy_match("tool", "kw:bash please") is None
    exact = fuzzy_match("parse", "parser rewrite")
    loose = fuzzy_match("parse", "please add real summaries everywhere")
    assert exact is not None and loose is not None and exact[0] > loose[0]
    assert sort_rows([], "cost") == []


class TableHost(App[None]):
    CSS_PATH = CSS  # type: ignore[assignment]

    def compose(self):  # type: ignore[no-untyped-def]
        yield SessionTable(lambda: NOW, id="browser-table")


async def test_long_listings_are_added_a_page_at_a_time() -> None:
    rows = [SessionRow(f"{i:08x}-0000-4000-8000-000000000000", f"/p/{i}.jsonl", "-p", 0, 0, title=f"session {i}",
                       last_active=NOW - i * 60, message_count=i) for i in range(450)]
    app = TableHost()
    async with app.run_test(size=(100, 30)) as pilot:
        table = app.query_one(SessionTable)
        table.show(Listing(rows))
        await pilot.pause()
        assert table.row_count == PAGE and len(table.listing.rows) == 450
        await pilot.press("pagedown", "pagedown", "pagedown", "pagedown", "pagedown", "pagedown", "pagedown")
        await pilot.pause()  # the cursor neared the end of what is loaded: the next page came in
        assert table.cursor_row > PAGE // 2 and table.row_count == 2 * PAGE
        await pilot.press("end")  # End means the last session, not the last loaded one
        await pilot.pause()
        assert table.row_count == 450 and table.current_row is rows[-1]
        await pilot.press("home")
        assert table.current_row is rows[0]
        table.show(Listing(rows), keep="/p/420.jsonl")  # keeping a row far down loads up to it
        await pilot.pause()
        assert table.current_row is rows[420] and table.row_count >= 421
        table.set_counts({"/p/3.jsonl": 99})
        assert "99" in [cell.plain for cell in table.get_row_at(3)]


async def test_number_columns_are_as_wide_as_their_numbers() -> None:
    """Was: a fixed 5-cell Msgs column showed 35,149 as "35,14" (and Cost cut $1,234.56)."""
    rows = [SessionRow(f"{i:08x}-0000-4000-8000-000000000000", f"/p/{i}.jsonl", "-p", 0, 0, title=f"session {i}",
                       last_active=NOW - 60, message_count=count, cost_usd=cost)
            for i, (count, cost) in enumerate([(35_149, 1_234.56), (7, 0.5)])]
    app = TableHost()
    async with app.run_test(size=(100, 30)) as pilot:
        table = app.query_one(SessionTable)
        table.show(Listing(rows))
        await pilot.pause()
        line = table.render_line(1).text
        assert "35,149" in line and "$1,235" in line  # whole dollars from $100 (protocol/units.py)
        rows[1].message_count = 1_234_567  # counted later, wider than the column
        table.set_counts({rows[1].path: 1_234_567})
        await pilot.pause()
        assert "1,234,567" in table.render_line(2).text and "35,149" in table.render_line(1).text
