"""Issue 18 in the browser and the app, against the fake CLI: forks marked with their parent, the
8-character ids and first prompts find their session, one bad transcript hides nothing, the open
session's row is live and choosing it returns to it without a restart, a search hit opens find on it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import Static

from claude_tui.ui.browser.screen import SessionBrowserScreen
from claude_tui.ui.panels.find_bar import FindBar
from tests.conftest import FIXTURES
from tests.pilot.helpers import chat, idle, make_app, send, wait_for
from tests.pilot.test_resume_fork_markers import SESSION, ready
from tests.pilot.test_session_browser import Host, settle, titles

FORKED = FIXTURES / "forked"
PARENT, FORK = "f61f467c-c544-4f29-ba69-c98aed385abd", "46934f4f-3972-45c7-9479-2296c0bf4f7c"
BAD = "77777777-2222-3333-4444-555555555555"


def fork_tree(tmp_path: Path, *, bad: bool = False) -> Path:
    root = tmp_path / "config"
    project = root / "projects" / "-home-user-project"
    project.mkdir(parents=True)
    for path in FORKED.glob("*.jsonl"):  # the real CLI's session and its --fork-session copy
        shutil.copyfile(path, project / path.name)
    if bad:  # a title holding a lone surrogate, the way a Node CLI writes half an emoji
        (project / f"{BAD}.jsonl").write_text(
            json.dumps({"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": BAD, "cwd": "/home/user/project",
                        "message": {"role": "user", "content": "half an emoji \ud83d"}}) + "\n"
            + '{"type":"custom-title","customTitle":"cut \\ud83d title"}\n', errors="surrogatepass")
    return root


async def test_a_fork_is_shown_as_the_fork_of_its_parent(tmp_path: Path) -> None:
    app = Host(fork_tree(tmp_path), tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        rows = {row.session_id: row for row in screen.table.listing.rows}
        assert rows[FORK].forked_from == PARENT and rows[PARENT].forked_from is None
        lines = [screen.table.render_line(y).text for y in range(1, 3)]
        fork_line = next(line for line in lines if "fork of" in line)
        assert "↳ fork of f61f467c · kw:t" in fork_line
        assert rows[FORK].display_title == rows[PARENT].display_title == "kw:think what is six times seven"
        screen.table.move_cursor(row=[r.session_id for r in screen.table.listing.rows].index(FORK))
        await settle(pilot)
        assert "fork of f61f467c" in str(screen.query_one("#preview-header", Static).render())


async def test_the_ids_and_prompts_shown_find_their_session(tmp_path: Path) -> None:
    app = Host(fork_tree(tmp_path), tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        await pilot.press(*PARENT[:8])  # what the status bar and the fork note show
        assert [r.session_id for r in screen.table.listing.rows] == [PARENT]
        screen.filter_input.value = ""
        screen.state.rows[0].name = "renamed here"
        await pilot.press(*"six times")  # the first prompt still finds a renamed session
        assert len(titles(screen)) == 2


async def test_one_surrogate_titled_transcript_hides_nothing(tmp_path: Path) -> None:
    app = Host(fork_tree(tmp_path, bad=True), tmp_path)
    async with app.run_test(size=(130, 36)) as pilot:
        await settle(pilot)
        screen = app.browser
        assert screen.state.listed  # not "Looking for sessions…" for ever
        assert {row.session_id for row in screen.state.rows} == {PARENT, FORK, BAD}
        assert "cut \ufffd title" in titles(screen)


async def browser_ready(pilot, browser: SessionBrowserScreen) -> None:  # type: ignore[no-untyped-def]
    """Listed and indexed (the app's own workers, such as its CLI's, never complete: not waited for)."""
    await wait_for(pilot, lambda: browser.state.listed and browser.state.indexed, what="the browser listed and indexed", timeout=30)
    await pilot.pause(0.3)


@pytest.fixture
def resumable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """SESSION's transcript where the browser looks (CLAUDE_CONFIG_DIR), in the app's project."""
    from tests.pilot.test_resume_fork_markers import transcript

    root = tmp_path / "claude"
    project = root / "projects" / "".join(c if c.isalnum() else "-" for c in str(tmp_path))
    project.mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    path = transcript(project, 0.05)
    # No cost-state yet: the CLI writes it when it exits, so a session still open has none on disk.
    path.write_text("".join(line + "\n" for line in path.read_text().splitlines() if "cost-state" not in line))
    return path


async def test_the_open_sessions_row_is_live_and_enter_returns_without_a_restart(tmp_path: Path,
                                                                              resumable: Path) -> None:
    from claude_tui.ui.browser.screen import BrowserChoice, conversation_for

    app = make_app(tmp_path)
    async with app.run_test(size=(130, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready", timeout=30)
        choice = BrowserChoice(SESSION, resumable, tmp_path)
        first = app.chat
        await app._switch_session(choice, conversation_for(choice))
        await wait_for(pilot, lambda: app.chat is not first and ready(app), what="the resumed session", timeout=30)
        await send(pilot, "kw:plain more")
        await wait_for(pilot, lambda: idle(app), what="the turn", timeout=30)
        open_chat, connection = app.chat, chat(app).session.connection
        status = chat(app).session.conversation.status
        assert status.session_id == SESSION and status.cost_total > 0
        await pilot.press("f4")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionBrowserScreen), what="the browser", timeout=30)
        browser = app.screen
        await browser_ready(pilot, browser)
        row = next(r for r in browser.table.listing.rows if r.session_id == SESSION)
        # The transcript has no cost and 2 messages; the row says what the session says now.
        assert row.cost_usd == pytest.approx(status.cost_total)
        assert row.message_count == 4
        assert row.title == "earlier question"
        assert browser.table.current_row is row  # the cursor starts on the open session
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is app.chat_screen, what="back in the chat", timeout=30)
        await pilot.pause(0.3)
        assert app.chat is open_chat and chat(app).session.connection is connection and connection.alive
        assert chat(app).session.conversation.status.cost_total == pytest.approx(status.cost_total)


async def test_a_search_hit_opens_find_on_the_match(tmp_path: Path, resumable: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(130, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready", timeout=30)
        await pilot.press("f4")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionBrowserScreen), what="the browser", timeout=30)
        browser = app.screen
        await browser_ready(pilot, browser)
        await pilot.press("slash", *"earlier answer")
        await wait_for(pilot, lambda: [r.session_id for r in browser.table.listing.rows] == [SESSION],
                       what="the search hit", timeout=30)
        first = app.chat
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.chat is not first and ready(app), what="the resumed session", timeout=30)
        await wait_for(pilot, lambda: bool(app.chat.query(FindBar)) and app.chat.query_one(FindBar).display,
                       what="find open", timeout=30)
        bar = app.chat.query_one(FindBar)
        assert bar.find_text == "earlier answer" and bar.current is not None
        item = next(i for i in chat(app).session.conversation.items if i.id == bar.current)
        assert "earlier answer" in item.text


async def test_the_palette_finds_a_session_by_its_short_id_and_resumes_it(tmp_path: Path, resumable: Path) -> None:
    from textual.command import CommandPalette

    app = make_app(tmp_path)
    async with app.run_test(size=(130, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready", timeout=30)
        # the index is filled by the browser (or any listing): list once, as opening Ctrl+O would
        from claude_tui.history.index import SessionIndex

        with SessionIndex() as index:
            index.list_sessions(tmp_path)
        first = app.chat
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette", timeout=30)
        await pilot.press(*SESSION[:8])
        await wait_for(pilot, lambda: any(f"· {SESSION[:8]}" in str(o.prompt) for o in
                                          app.screen.query("OptionList").first().options), what="the session hit", timeout=30)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.chat is not first and ready(app), what="the resumed session", timeout=30)
        assert chat(app).session.conversation.status.session_id == SESSION
