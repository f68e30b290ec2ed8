"""The store the CLI writes to is the one read: with CLAUDE_CONFIG_DIR (or HOME) in cli_env the real
CLI 2.1.330 writes its transcripts there, and `claude-tui sessions`, `--continue` and the browser
read them there, not ~/.claude (before: "No sessions found", "no previous session")."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from claude_tui.transport.options import CliOptions
from tests.e2e.app_driver import drive
from tests.e2e.test_resume_real_cli import quit_app, transcript_path

Options = Callable[..., CliOptions]


async def test_a_session_made_with_cli_env_is_listed_and_continued(
        app_options: Options, config_dir: Path, project_dir: Path, tmp_path: Path) -> None:
    from claude_tui.cli import parse_app_args
    from claude_tui.resume import load_conversation
    from claude_tui.ui.app.launch import resolve_resume
    from claude_tui.ui.browser.remote import session_browser

    assert "CLAUDE_CONFIG_DIR" not in os.environ  # only cli_env (options.env) names the store
    async with drive(app_options()) as d:
        await d.turn("kw:plain remember the word wombat")
        session_id = d.conversation.status.session_id
        await quit_app(d)
    assert transcript_path(config_dir, project_dir, session_id).is_file()
    assert not (Path.home() / ".claude" / "projects").is_dir() or not any(
        (Path.home() / ".claude" / "projects").rglob(f"{session_id}.jsonl"))

    config = tmp_path / "claude-tui.toml"
    config.write_text(f'[cli_env]\nCLAUDE_CONFIG_DIR = "{config_dir}"\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_")}
    listed = subprocess.run([sys.executable, "-m", "claude_tui", "sessions", "--cwd", str(project_dir)],
                            capture_output=True, text=True, timeout=120, check=False,
                            env={**env, "CLAUDE_TUI_CONFIG": str(config)})
    assert listed.returncode == 0 and session_id in listed.stdout, listed.stdout + listed.stderr
    assert "remember the word wombat" in listed.stdout

    options = app_options()  # its env is the cli_env: CLAUDE_CONFIG_DIR among it
    args = parse_app_args(["--continue", "--cwd", str(project_dir)])
    assert resolve_resume(args, options) == "" and options.resume == session_id
    assert session_browser(d.app, options).state.config_root == config_dir  # Ctrl+O reads it too
    conversation = load_conversation(session_id, project_dir, root=config_dir)
    assert conversation is not None
    async with drive(options, conversation=conversation) as d:
        assert any("wombat" in getattr(item, "text", "") for item in d.conversation.items)
        await d.turn("kw:plain and again")
        assert d.conversation.status.session_id == session_id  # the real CLI resumed it


def test_home_in_cli_env_moves_the_store(tmp_path: Path) -> None:
    from claude_tui.history.paths import cli_config_root

    assert cli_config_root({"HOME": str(tmp_path)}) == tmp_path / ".claude"
    assert cli_config_root({"HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": str(tmp_path / "c")}) == tmp_path / "c"
