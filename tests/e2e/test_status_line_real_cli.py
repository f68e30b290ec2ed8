"""The user's statusLine command against the real CLI: what it is given has the shape Claude Code's own
TUI gives it (recorded in tests/fixtures/claude-code-2.1.330/statusline-input.json), with the real
CLI's model name, usage and cost after a turn."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from claude_tui.transport.options import CliOptions
from claude_tui.ui.chat.user_status import UserStatusLine
from tests.e2e.app_driver import drive
from tests.unit.test_status_line import NOT_KNOWN, RECORDED, _shape

Options = Callable[..., CliOptions]
SAVE = "import pathlib, sys; data = sys.stdin.read(); pathlib.Path(sys.argv[1]).write_text(data); print('line ok')"


async def test_the_command_gets_what_claude_codes_tui_gives_it(app_options: Options, project_dir: Path,
                                                             tmp_path: Path) -> None:
    saved = tmp_path / "input.json"
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(SAVE)} {shlex.quote(str(saved))}"
    (project_dir / ".claude").mkdir(exist_ok=True)
    (project_dir / ".claude" / "settings.json").write_text(json.dumps({"statusLine": {"type": "command",
                                                                                    "command": command}}))
    async with drive(app_options()) as d:
        line = d.app.chat.query_one(UserStatusLine) if d.app.chat is not None else None
        assert line is not None
        runs = line.runs
        await d.turn("kw:plain hello there")
        await d.wait(lambda: line.runs > runs and not line.running and saved.exists()
                     and json.loads(saved.read_text())["context_window"]["current_usage"] is not None,
                     "the status line run after the turn")
        data = json.loads(saved.read_text())
    recorded = json.loads(RECORDED.read_text())
    assert _shape(data) == {k: v for k, v in _shape(recorded).items() if k not in NOT_KNOWN}  # type: ignore[union-attr]
    # The same stand-in reply Claude Code's TUI was recorded with: the same numbers
    assert data["model"] == recorded["model"]
    assert data["context_window"] == recorded["context_window"]
    # recorded after two turns of the same stand-in reply (this test takes one): half the cost
    assert data["cost"]["total_cost_usd"] == recorded["cost"]["total_cost_usd"] / 2
    assert data["cost"]["total_api_duration_ms"] > 0 and data["cost"]["total_duration_ms"] > 0
    assert data["version"] == "2.1.330" and data["output_style"] == {"name": "default"}
    assert data["workspace"]["added_dirs"] == [] and data["fast_mode"] is False
