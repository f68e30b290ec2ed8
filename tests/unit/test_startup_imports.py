"""The first screen is painted before the Markdown renderer and the diff highlighter are loaded.

Loading them (Rich's Markdown, markdown-it, Pygments, Textual's Markdown widget) took ~45 ms of
the ~0.5 s from launch to the prompt; they are loaded by the warm-up thread after the first paint,
or by the first answer, tool card or dialog that needs them (see markdown_part.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("rich.markdown", "markdown_it", "pygments", "rich.syntax", "textual.widgets._markdown",
         "claude_tui.ui.render.markdown_lines", "claude_tui.ui.render.safe_markdown",
         "claude_tui.ui.render.diff_view")


PALETTE = ("claude_tui.ui.palette.commands", "claude_tui.ui.palette.sessions", "claude_tui.ui.palette.hosts",
           "claude_tui.history.index", "claude_tui.ui.manage.commands", "claude_tui.remote.hosts")
"""The command palette's providers and what they load (the session index, the manage screens' commands,
the remote hosts: ~40 ms): loaded when the palette first opens (`app.py`'s COMMANDS)."""


def test_loading_the_app_loads_no_renderer_and_no_palette() -> None:
    code = ("import sys, claude_tui.cli, claude_tui.ui.app.launch, claude_tui.ui.app.app\n"
            f"print(','.join(name for name in {HEAVY + PALETTE!r} if name in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "", f"imported before the first paint: {loaded}"


BEFORE_SPAWN = ("claude_tui.protocol.decode", "claude_tui.protocol.messages", "claude_tui.session.conversation",
                "claude_tui.history.index", "sqlite3", "textual", "pydantic", "claude_tui.config", "asyncio",
                "secrets")
"""Not needed to start the CLI: the launcher spawns it (`transport/early.py`) before they load, so
that node's start-up overlaps theirs (~110 ms of imports stood before the spawn; then the config's
validation, pydantic and asyncio ~90 ms more: `config_peek.py`, `transport/adopted.py`)."""


def test_what_the_launcher_loads_before_it_starts_the_cli() -> None:
    code = ("import sys, claude_tui.cli, claude_tui.ui.app.launch, claude_tui.ui.app.shutdown, "
            "claude_tui.transport.early, claude_tui.transport.options\n"
            f"print(','.join(name for name in {BEFORE_SPAWN!r} if name in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "", f"imported before the CLI starts: {loaded}"


def test_the_launcher_starts_the_cli_before_the_config_is_validated(tmp_path: Path) -> None:
    """At the moment the first CLI is spawned (the first `subprocess.Popen`), none of `BEFORE_SPAWN`
    is loaded: run as `claude-tui` is, with a plain config file, up to that moment."""
    claude = tmp_path / "claude"
    claude.write_text("#!/bin/sh\nexit 0\n")
    claude.chmod(0o755)
    config = tmp_path / "config.toml"
    config.write_text('theme = "nord"\ncli_args = ["--max-turns", "3"]\n[notifications]\nbell = false\n')
    code = ("import os, sys\n"
            "def hook(event, args):\n"
            "    if event == 'subprocess.Popen':\n"
            f"        names = [name for name in {BEFORE_SPAWN!r} if name in sys.modules]\n"
            "        os.write(1, ('spawned ' + ','.join(names) + '\\n').encode())\n"
            "        os._exit(0)\n"
            "sys.addaudithook(hook)\n"
            "from claude_tui.cli import main\n"
            f"main(['--claude-path', {str(claude)!r}, '--cwd', {str(tmp_path)!r}])\n")
    env = {**os.environ, "CLAUDE_TUI_CONFIG": str(config)}
    env.update({var: str(tmp_path / var) for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
                                                      "XDG_CACHE_HOME")})
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60).stdout
    assert out.startswith("spawned "), f"no CLI spawned: {out!r}"
    assert out.strip() == "spawned", f"imported before the CLI starts: {out.split()[1]}"
