"""Messages of the command line quote arguments, paths and the environment: none of them writes an
escape sequence to the terminal (argparse's own errors included)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from claude_tui.app_args import AppArgs
from claude_tui.transport.options import CliOptions

OSC = "\x1b]52;c;aGVsbG8=\x07\x1b]0;PWN\x07"


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "claude_tui", *args], capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL, env={**os.environ, **env}, check=False)


def _inert(data: bytes) -> bool:
    return b"\x1b" not in data and b"\x07" not in data


# (A bare word is no error any more: `claude-tui "fix it"` is the first prompt, as `claude "fix it"`.)
@pytest.mark.parametrize("args", [["--cwd", f"/nonexistent{OSC}"], [f"--bogus{OSC}"], ["--permission-mode", OSC],
                                  ["sessions", f"--nope{OSC}"], ["export", "--format", OSC, "x"]],
                         ids=["cwd", "unknown-flag", "bad-mode", "subcommand-flag", "bad-choice"])
def test_argument_errors_are_inert(args: list[str]) -> None:
    done = _run(*args)
    assert done.returncode == 2 and b"error" in done.stderr
    assert _inert(done.stderr)
    assert "␛".encode() in done.stderr or b"\\x1b" in done.stderr  # the ESC is shown, not sent


def test_config_path_from_the_environment_is_inert(tmp_path: Path) -> None:
    done = _run("config", "--path", CLAUDE_TUI_CONFIG=str(tmp_path / f"c{OSC}.toml"))
    assert done.returncode == 0 and _inert(done.stdout) and "␛]0;PWN␇".encode() in done.stdout


def test_continue_without_a_session_names_the_directory_inertly(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from claude_tui.ui.app.launch import resolve_resume

    cwd = tmp_path / f"d{OSC}"
    cwd.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "config"))
    problem = resolve_resume(AppArgs(cwd=cwd, continue_session=True), CliOptions(cwd=str(cwd)))
    assert "no previous session" in problem and "\x1b" not in problem and "␛]0;PWN␇" in problem
