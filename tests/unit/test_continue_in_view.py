"""Defect 8: after quitting with several tabs, --continue resumes the tab that was in view.

Every tab's CLI exits at the quit and writes its transcript as it goes, so the newest file is
whichever exited last. The quit records the tab in view in our own data dir (never the CLI's)."""

from __future__ import annotations

from pathlib import Path

from claude_tui.history.synth import used_at
from claude_tui.resume import newest_session_id
from claude_tui.store.in_view import recorded, remember
from tests.pilot.test_session_browser import BASH, PLAIN, RESUMED, build_tree

PROJECT = Path("/home/user/project")


def _quit_with_all_three_open(root: Path, in_view: str, state: Path) -> float:
    """Every CLI exits within a second, RESUMED last; the quit records `in_view` after that."""
    project = root / "projects" / "-home-user-project"
    quit_at = 1_900_000_000.0
    for offset, sid in enumerate((BASH, PLAIN, RESUMED)):
        used_at(project / f"{sid}.jsonl", quit_at - 1 + offset * 0.4)
    remember(PROJECT, in_view, root=state, at=quit_at)
    return quit_at


def test_continue_takes_the_tab_in_view_not_the_last_cli_to_exit(tmp_path: Path) -> None:
    root = build_tree(tmp_path, other_project=False)
    state = tmp_path / "data"
    _quit_with_all_three_open(root, BASH, state)
    assert newest_session_id(PROJECT, root, state_root=state) == BASH


def test_a_session_used_after_the_quit_wins(tmp_path: Path) -> None:
    root = build_tree(tmp_path, other_project=False)
    state = tmp_path / "data"
    quit_at = _quit_with_all_three_open(root, BASH, state)
    later = root / "projects" / "-home-user-project" / f"{PLAIN}.jsonl"
    used_at(later, quit_at + 600)  # `claude --continue` there, ten minutes on
    assert newest_session_id(PROJECT, root, state_root=state) == PLAIN


def test_a_record_of_a_vanished_session_or_none_falls_back_to_the_newest(tmp_path: Path) -> None:
    root = build_tree(tmp_path, other_project=False)
    state = tmp_path / "data"
    _quit_with_all_three_open(root, "00000000-0000-0000-0000-000000000000", state)
    assert newest_session_id(PROJECT, root, state_root=state) == RESUMED
    remember(PROJECT, None, root=state)  # the tab in view had no session yet: the record goes
    assert recorded(PROJECT, root=state) is None
    assert newest_session_id(PROJECT, root, state_root=state) == RESUMED


def test_a_broken_state_file_is_no_record(tmp_path: Path) -> None:
    state = tmp_path / "data"
    state.mkdir()
    (state / "in-view.json").write_text("{not json")
    assert recorded(PROJECT, root=state) is None
    remember(PROJECT, BASH, root=state, at=5.0)
    assert recorded(PROJECT, root=state) is not None


async def test_quitting_records_the_tab_in_view(tmp_path: Path) -> None:
    from tests.pilot.helpers import chat, make_app, send, wait_for

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:plain first tab")
        first = chat(app).session
        await wait_for(pilot, lambda: first.conversation.status.session_id, what="the first id")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: len(app.sessions) == 2, what="a second tab")
        await send(pilot, "kw:plain second tab")
        second = chat(app).session
        await wait_for(pilot, lambda: second.conversation.status.session_id, what="the second id")
        await pilot.press("alt+1")
        await wait_for(pilot, lambda: chat(app).session is first, what="back to the first tab")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")
    found = recorded(tmp_path)
    assert found is not None and found.session_id == first.conversation.status.session_id
