"""After quitting, the terminal is told how to resume the sessions (Claude Code's "Resume this
session with: claude --resume <id>"): the tab in view first, nothing for a tab with no prompt sent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pilot.helpers import chat, idle, make_app, send, wait_for


async def test_a_session_with_a_prompt_is_named_on_quit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # launched where the session runs: no --cwd in the line
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:plain hello")
        await wait_for(pilot, lambda: idle(app), what="the answer")
        session_id = chat(app).session.conversation.status.session_id
        assert session_id
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, what="the quit")
    assert app.resume_hint == [f"Resume this session with: claude-tui --resume {session_id}"]


async def test_nothing_is_said_when_no_prompt_was_sent(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="CLI ready")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, what="the quit")
    assert app.resume_hint == []


async def test_several_tabs_one_line_each_the_one_in_view_first_and_inert(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        first = chat(app)
        await send(pilot, "kw:plain first")
        await wait_for(pilot, lambda: first.session.conversation.status.turns > 0, what="the first answer")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: len(app.chat_screen.views) == 2, what="a second tab")  # type: ignore[union-attr]
        second = app.chat_screen.views[1]  # type: ignore[union-attr]
        await send(pilot, "kw:plain second")
        await wait_for(pilot, lambda: second.session.conversation.status.turns > 0, what="the second answer")
        second.session.name = "evil\x1b]0;pwned\x07\nname"  # a name is the user's text (or a session's title)
        assert app.chat is second
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, what="the quit")
    ids = [view.session.conversation.status.session_id for view in (second, first)]
    lines = app.resume_hint
    assert lines[0] == "Resume these sessions with:" and len(lines) == 3
    assert f"--resume {ids[0]}" in lines[1] and f"--resume {ids[1]}" in lines[2]
    assert f"--cwd {tmp_path}" in lines[1]  # not launched there: Claude Code finds it only from its directory
    assert all("\x1b" not in line and "\x07" not in line and "\n" not in line for line in lines)
