"""The real CLI runs in the session's git worktree; what it writes there is named before removal."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from claude_tui.git.worktree import create_worktree
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.dialogs.confirm import ConfirmScreen
from claude_tui.ui.dialogs.worktree_close import WorktreeCloseScreen
from tests.e2e.app_driver import SIZE, AppDriver, quiet_config
from tests.e2e.mock_api import MockApi

Options = Callable[..., CliOptions]


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True,
                          env=env).stdout


async def test_the_real_cli_works_in_the_worktree_and_its_file_is_named_on_quit(
        app_options: Options, mock_api: MockApi, project_dir: Path) -> None:
    git(project_dir, "init", "-q", "-b", "main")
    git(project_dir, "add", ".")
    git(project_dir, "commit", "-q", "-m", "first")
    wt = create_worktree(project_dir, "e2e")
    options = app_options(permission_mode="acceptEdits")
    options.cwd = str(wt.session_dir)  # what `claude-tui --worktree e2e` does (ui/app/launch.py)
    app = ClaudeTuiApp(options, quiet_config(), worktree=wt)
    async with app.run_test(size=SIZE) as pilot:
        d = AppDriver(app, pilot)
        try:
            await d.wait_ready()
            await d.turn("kw:write a new file")
            # The CLI's own report (system/init) and its tool both say: the worktree.
            assert Path(d.conversation.status.cwd).resolve() == wt.path.resolve(), d.dump()
            assert (wt.path / "new.txt").read_text() == "line1\nline2\n"
            assert not (project_dir / "new.txt").exists()
            assert "worktree-e2e" in d.screen_text()
            await d.press("ctrl+q")
            dialog = await d.wait_screen(WorktreeCloseScreen)
            assert not d.chat.session.connection.alive
            assert dialog.state.uncommitted == ["new.txt"], d.dump()
            await d.press("r")
            await d.wait_screen(ConfirmScreen)
            await d.press("y")
            await d.wait(lambda: app.return_code is not None, "the app to exit")
        finally:
            if app.chat is not None and app.return_code is None:
                await app.shutdown()
    assert not wt.path.exists()
    assert "worktree-e2e" not in git(project_dir, "branch")
    assert mock_api.messages_requests(), "the CLI never asked the API"


async def test_work_written_while_the_discard_dialog_is_open_survives(
        app_options: Options, mock_api: MockApi, project_dir: Path) -> None:
    """Issue 28's reproduction with the real CLI: a file and a commit made between "Discard 1
    uncommitted file?" and `y` keep the worktree, and the dialog comes back naming them."""
    git(project_dir, "init", "-q", "-b", "main")
    git(project_dir, "add", ".")
    git(project_dir, "commit", "-q", "-m", "first")
    wt = create_worktree(project_dir, "lossy")
    options = app_options(permission_mode="acceptEdits")
    options.cwd = str(wt.session_dir)
    app = ClaudeTuiApp(options, quiet_config(), worktree=wt)
    async with app.run_test(size=SIZE) as pilot:
        d = AppDriver(app, pilot)
        try:
            await d.wait_ready()
            await d.turn("kw:write a new file")
            await d.press("ctrl+q")
            await d.wait_screen(WorktreeCloseScreen)
            await d.press("r")
            await d.wait_screen(ConfirmScreen)
            (wt.path / "later.txt").write_text("written meanwhile\n")
            git(wt.path, "add", "later.txt")
            git(wt.path, "commit", "-q", "-m", "meanwhile")
            (wt.path / "latest.txt").write_text("also meanwhile\n")
            await d.press("y")
            again = await d.wait_screen(WorktreeCloseScreen)
            since = " ".join(again.since)
            assert "new file latest.txt" in since and "meanwhile" in since, d.dump()
            await d.press("k")
            await d.wait(lambda: app.return_code is not None, "the app to exit")
        finally:
            if app.chat is not None and app.return_code is None:
                await app.shutdown()
    assert (wt.path / "new.txt").exists() and (wt.path / "latest.txt").exists()
    assert "meanwhile" in git(project_dir, "log", "--all", "--format=%s")
