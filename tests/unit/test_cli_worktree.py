"""`claude-tui --worktree [NAME]`: parsing, and the launch that creates the worktree and starts there."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from claude_tui.app_args import AppArgs
from claude_tui.cli import parse_app_args
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.app.launch import run_app


def test_the_flag_takes_an_optional_name() -> None:
    assert parse_app_args([]).worktree is None
    assert parse_app_args(["--worktree"]).worktree == ""
    assert parse_app_args(["--worktree", "fix-it"]).worktree == "fix-it"
    assert parse_app_args(["-w", "--model", "opus"]).worktree == ""


@pytest.mark.parametrize("other", [["--resume", "abc"], ["--continue"], ["--demo"]])
def test_the_flag_starts_a_new_session_only(other: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_app_args(["--worktree", *other])
    assert "--worktree starts a new session" in capsys.readouterr().err


@pytest.fixture
def launch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[ClaudeTuiApp]:
    """run_app up to the point where the app would run: the apps it built are collected instead."""
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, str(tmp_path / "xdg" / var))
    monkeypatch.delenv("CLAUDE_TUI_CLAUDE_PATH", raising=False)
    started: list[ClaudeTuiApp] = []
    monkeypatch.setattr(ClaudeTuiApp, "run", lambda self, *a, **k: started.append(self))

    class NoWatchdog:  # the real one would end this test process once the "app" has exited
        def start(self) -> NoWatchdog:
            return self

        def arm(self, *args: object) -> None:
            pass

    monkeypatch.setattr("claude_tui.ui.app.shutdown.Watchdog", NoWatchdog)
    return started


def _claude(tmp_path: Path) -> str:
    binary = tmp_path / "claude"
    binary.write_text("#!/bin/sh\nexit 0\n")
    binary.chmod(0o755)
    return str(binary)


def test_launch_creates_the_worktree_and_runs_the_session_there(tmp_path: Path, launch: list[ClaudeTuiApp]) -> None:
    repo = tmp_path / "app"
    (repo / "sub").mkdir(parents=True)
    (repo / "sub" / "f.txt").write_text("f\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e"}
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)
    assert run_app(AppArgs(cwd=repo / "sub", worktree="w1", claude_path=_claude(tmp_path))) == 0
    (app,) = launch
    (wt,) = app.worktrees
    assert wt.branch == "worktree-w1" and wt.path == tmp_path / "app-worktrees" / "w1"
    assert app.options.cwd == str(wt.path / "sub")
    assert app.worktree_for(app.options.cwd) is wt


def test_launch_outside_a_repository_fails_clearly(tmp_path: Path, launch: list[ClaudeTuiApp],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert run_app(AppArgs(cwd=plain, worktree="", claude_path=_claude(tmp_path))) == 2
    assert "not in a git repository" in capsys.readouterr().err and not launch
