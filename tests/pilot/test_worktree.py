"""Sessions in git worktrees (fake CLI): the quit dialog keeps or removes, the palette starts one."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from claude_tui.config import Config
from claude_tui.fakecli import command
from claude_tui.git.worktree import Worktree, create_worktree
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat.worktree_flow import new_worktree_session
from claude_tui.ui.dialogs.confirm import ConfirmScreen
from claude_tui.ui.dialogs.text_prompt import TextPrompt
from claude_tui.ui.dialogs.worktree_close import WorktreeCloseScreen
from claude_tui.ui.panels.status_bar import StatusBar
from tests.pilot.helpers import chat, idle, send, wait_for


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True,
                          env=env).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "app"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.txt").write_text("alpha\nbeta\ngamma\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "first")
    return root


def make_app(cwd: Path, worktree: Worktree | None = None, guard_ms: int = 0) -> ClaudeTuiApp:
    options = CliOptions(cwd=str(cwd), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    return ClaudeTuiApp(options, Config(typeahead_guard_ms=guard_ms), worktree=worktree)


def branches(repo: Path) -> set[str]:
    return set(git(repo, "branch", "--format=%(refname:short)").split())



def _name_prompt(app: ClaudeTuiApp) -> bool:
    return isinstance(app.screen, TextPrompt) and app.screen.id == "worktree-name"

async def _quit_to_dialog(pilot, app: ClaudeTuiApp) -> WorktreeCloseScreen:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: chat(app).session.connection.alive and chat(app).session.conversation.commands, what="CLI ready")
    await pilot.press("ctrl+q")
    await wait_for(pilot, lambda: isinstance(app.screen, WorktreeCloseScreen), what="worktree dialog")
    assert not chat(app).session.connection.alive  # the CLI stopped before anyone looks at the worktree
    await pilot.press("tab")  # the dialog opens waiting: Tab moves to it
    return app.screen  # type: ignore[return-value]


async def test_the_session_runs_in_the_worktree_and_says_so(repo: Path) -> None:
    wt = create_worktree(repo, "shown")
    app = make_app(wt.session_dir, wt)
    async with app.run_test(size=(160, 40)) as pilot:
        await send(pilot, "kw:plain hi")
        await wait_for(pilot, lambda: idle(app), what="turn")
        assert Path(chat(app).session.conversation.status.cwd).resolve() == wt.path.resolve()  # from system/init
        assert "worktree-shown" in str(chat(app).query_one(StatusBar).render())
        from claude_tui.ui.app.help import session_sections

        rows = [row for section in session_sections(chat(app).session, app) for row in section.rows]
        assert any(left == "Worktree" and "worktree-shown" in right for left, right in rows)
        await app.shutdown()


async def test_quit_offers_keep_by_default(repo: Path) -> None:
    wt = create_worktree(repo, "kept")
    app = make_app(wt.session_dir, wt)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await _quit_to_dialog(pilot, app)
        text = " ".join(str(s.render()) for s in dialog.query("Static"))
        assert "nothing" in text and "worktree-kept" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")
    assert wt.path.is_dir() and wt.branch in branches(repo)


async def test_quit_removes_a_clean_worktree_with_r(repo: Path) -> None:
    wt = create_worktree(repo, "clean")
    app = make_app(wt.session_dir, wt)
    async with app.run_test(size=(120, 40)) as pilot:
        await _quit_to_dialog(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")
    assert not wt.path.exists() and wt.branch not in branches(repo)


async def test_the_guard_swallows_a_typed_ahead_r(repo: Path) -> None:
    wt = create_worktree(repo, "typed")
    app = make_app(wt.session_dir, wt, guard_ms=5_000)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await _quit_to_dialog(pilot, app)
        await pilot.press("r")
        await pilot.pause(0.2)
        assert app.screen is dialog and not dialog.settled and app.return_code is None
        # A key in the guard is swallowed and holds the guard up (no stray letter, nothing removed).
        assert wt.path.is_dir() and not dialog.waiting and dialog.has_class("-paused")
        dialog.arm(0)  # the guard falls: now an explicit key answers
        await pilot.press("k")
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")
    assert wt.path.is_dir()


async def test_removing_uncommitted_work_needs_a_second_yes(repo: Path) -> None:
    wt = create_worktree(repo, "dirty")
    app = make_app(wt.session_dir, wt)
    async with app.run_test(size=(120, 40)) as pilot:
        (wt.path / "notes.txt").write_text("mine\n")
        (wt.path / "c.txt").write_text("c\n")
        git(wt.path, "add", "c.txt")
        git(wt.path, "commit", "-q", "-m", "add c")
        dialog = await _quit_to_dialog(pilot, app)
        text = " ".join(str(s.render()) for s in dialog.query("Static"))
        assert "1 uncommitted file" in text and "notes.txt" in text
        assert "1 commit not merged or pushed" in text and "add c" in text and "is kept" in text
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="second confirmation")
        assert "Discard 1 uncommitted file?" in str(app.screen.query_one("#confirm-question").render())
        await pilot.press("tab", "n")  # no: kept, and the app still quits
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")
    assert (wt.path / "notes.txt").read_text() == "mine\n" and wt.branch in branches(repo)

    app = make_app(wt.session_dir, wt)
    async with app.run_test(size=(120, 40)) as pilot:
        await _quit_to_dialog(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="second confirmation")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")
    # The worktree and its uncommitted file are gone; the branch and its commit stay.
    assert not wt.path.exists() and wt.branch in branches(repo)
    assert "add c" in git(repo, "log", "--all", "--format=%s")


async def test_work_that_appears_while_the_dialog_is_open_is_kept_and_asked_about(repo: Path) -> None:
    """Issue 28: a file written and a commit made between the dialog and `y` were deleted with it."""
    wt = create_worktree(repo, "lossy")
    app = make_app(wt.session_dir, wt)
    async with app.run_test(size=(120, 40)) as pilot:
        (wt.path / "first.txt").write_text("named\n")
        await _quit_to_dialog(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="Discard 1 uncommitted file?")
        (wt.path / "second.txt").write_text("written meanwhile\n")
        git(wt.path, "add", "second.txt")
        git(wt.path, "commit", "-q", "-m", "meanwhile")
        (wt.path / "third.txt").write_text("also meanwhile\n")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: isinstance(app.screen, WorktreeCloseScreen), what="asked again")
        again = app.screen
        since = str(again.query_one("#worktree-since", Static).render())
        assert "new file third.txt" in since and "new commit" in since and "meanwhile" in since
        assert wt.path.is_dir() and (wt.path / "third.txt").exists()
        await pilot.press("tab", "k")
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")
    assert (wt.path / "first.txt").exists() and (wt.path / "third.txt").exists()
    assert "meanwhile" in git(repo, "log", "--all", "--format=%s")


async def test_palette_command_restarts_the_session_in_a_new_worktree(repo: Path) -> None:
    app = make_app(repo)
    async with app.run_test(size=(120, 40)) as pilot:
        old = chat(app)
        await wait_for(pilot, lambda: old.session.connection.alive and old.session.conversation.commands, what="CLI ready")
        from claude_tui.ui.palette.commands import chat_commands

        entry = next(c for c in chat_commands(old) if c.text == "New session in a git worktree…")
        entry.callback()
        await wait_for(pilot, lambda: _name_prompt(app), what="name prompt")
        await pilot.press(*"bad..name", "enter")
        assert _name_prompt(app) and not app.worktrees  # refused, said why
        assert isinstance(app.screen, TextPrompt) and "git does not allow it" in app.screen.problem
        app.screen.query_one(Input).value = ""
        await pilot.press(*"from-palette", "enter")
        await wait_for(pilot, lambda: app.chat is not None and app.chat is not old and len(app.worktrees) == 1,
                       what="new session")
        wt = app.worktrees[0]
        assert wt.branch == "worktree-from-palette"
        assert chat(app).session.options.cwd == str(wt.session_dir) and wt.branch in branches(repo)
        assert not old.session.connection.alive
        await send(pilot, "kw:plain hi")
        await wait_for(pilot, lambda: idle(app), what="turn")
        assert Path(chat(app).session.conversation.status.cwd).resolve() == wt.path.resolve()
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, WorktreeCloseScreen), what="worktree dialog")
        await pilot.press("tab", "r")
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")
    assert not wt.path.exists()


async def test_palette_command_outside_a_repository_says_why(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive, what="CLI ready")
        await new_worktree_session(app, app, screen.session)
        assert app.chat is screen and screen.session.connection.alive and not app.worktrees
        await wait_for(pilot, lambda: any("not in a git repository" in str(n.message) for n in app._notifications),
                       what="the reason, in a notification")
        await app.shutdown()


async def test_esc_in_the_name_prompt_starts_nothing(repo: Path) -> None:
    app = make_app(repo)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="CLI ready")
        from claude_tui.ui.chat.worktree_flow import ask_worktree_session

        ask_worktree_session(app, app, screen.session)
        await wait_for(pilot, lambda: _name_prompt(app), what="name prompt")
        await pilot.press(*"abc", "escape")
        await wait_for(pilot, lambda: app.screen is app.chat_screen, what="back in the chat")
        await pilot.pause(0.2)
        assert app.chat is screen and screen.session.connection.alive and not app.worktrees
        assert branches(repo) == {"main"}
        await app.shutdown()


async def test_a_worktree_kept_when_its_tab_closed_is_not_asked_about_again(repo: Path) -> None:
    from claude_tui.ui.chat.worktree_flow import close_worktrees, offer_removal

    wt = create_worktree(repo, "asked")
    app = make_app(repo)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: chat(app).session.conversation.commands, what="CLI ready")
        worktrees = [wt]
        worker = app.run_worker(offer_removal(app, worktrees, wt))
        await wait_for(pilot, lambda: isinstance(app.screen, WorktreeCloseScreen), what="worktree dialog")
        await pilot.press("tab")
        await pilot.press("k")
        await wait_for(pilot, lambda: worker.is_finished, what="the answer")
        assert str(worker.result).startswith("Kept worktree")
        assert worktrees == []  # answered: quitting does not ask again
        assert await close_worktrees(app, worktrees) == []
        assert not isinstance(app.screen, WorktreeCloseScreen)
        await app.shutdown()
    assert wt.path.is_dir()


async def test_an_ssh_tab_makes_no_local_worktree(repo: Path) -> None:
    # Issue 28, item 13: git would run here, on the remote tab's path, where a local repository sits.
    from claude_tui.transport.ssh.target import SshTarget
    from claude_tui.ui.chat.worktree_flow import ask_worktree_session
    from claude_tui.ui.palette.commands import chat_commands

    app = make_app(repo)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive, what="CLI ready")
        screen.session.options.ssh = SshTarget("build-box")  # as a tab opened on a host has it
        offered = {c.text: c for c in chat_commands(screen)}
        for text in ("New session in a git worktree…", "New tab in a git worktree…"):
            assert "not on build-box" in offered[text].help
        assert not offered["New session in a git worktree…"].discover
        await new_worktree_session(app, app, screen.session, "remote")
        ask_worktree_session(app, app, screen.session, new_tab=True)
        await pilot.pause()
        assert not isinstance(app.screen, TextPrompt)
        assert app.chat is screen and not app.worktrees
        assert branches(repo) == {"main"}
        assert not (repo.parent / "app-worktrees").exists()
        await wait_for(pilot, lambda: any("made on this machine only" in str(n.message) for n in app._notifications),
                       what="the reason, in a notification")
        screen.session.options.ssh = None
        await app.shutdown()
