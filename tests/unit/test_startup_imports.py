"""The first screen is painted before the Markdown renderer and the diff highlighter are loaded.

Loading them (Rich's Markdown, markdown-it, Pygments, Textual's Markdown widget) took ~45 ms of
the ~0.5 s from launch to the prompt; they are loaded by the warm-up thread after the first paint,
or by the first answer, tool card or dialog that needs them (see markdown_part.py)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("rich.markdown", "markdown_it", "pygments", "rich.syntax", "textual.widgets._markdown",
         "claude_tui.ui.render.markdown_lines", "claude_tui.ui.render.safe_markdown",
         "claude_tui.ui.render.diff_view")


def test_loading_the_app_loads_no_renderer() -> None:
    code = ("import sys, claude_tui.cli, claude_tui.ui.app.launch, claude_tui.ui.app.app\n"
            f"print(','.join(name for name in {HEAVY!r} if name in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "", f"imported before the first paint: {loaded}"


BEFORE_SPAWN = ("claude_tui.protocol.decode", "claude_tui.protocol.messages", "claude_tui.session.conversation",
                "claude_tui.history.index", "sqlite3", "textual")
"""Not needed to start the CLI: the launcher spawns it (`transport/early.py`) before they load, so
that node's start-up overlaps theirs (~110 ms of imports stood before the spawn)."""


def test_what_the_launcher_loads_before_it_starts_the_cli() -> None:
    code = ("import sys, claude_tui.cli, claude_tui.ui.app.launch, claude_tui.ui.app.shutdown, "
            "claude_tui.transport.early, claude_tui.transport.options\n"
            f"print(','.join(name for name in {BEFORE_SPAWN!r} if name in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "", f"imported before the CLI starts: {loaded}"
