"""The user's statusLine command: run with the session's JSON on stdin, shown inert, failures said once."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat import user_status
from claude_tui.ui.chat.user_status import UserStatusLine
from tests.pilot.helpers import chat, idle, make_app, send, wait_for

SCRIPT = """
import json, sys
data = json.load(sys.stdin)
print("\\x1b[31m" + "Status " + data["model"]["display_name"] + " " + data["model"]["id"] + "\\x1b]0;owned\\x07 " + data["cwd"][-4:])
print("second line")
"""


def _settings(project: Path, command: str) -> dict[str, str]:
    (project / ".claude").mkdir(parents=True, exist_ok=True)
    (project / ".claude" / "settings.json").write_text(json.dumps({"statusLine": {"type": "command",
                                                                                  "command": command}}))
    config = project / "cfg"
    config.mkdir(exist_ok=True)
    return {"CLAUDE_CONFIG_DIR": str(config)}


def _notes(app: ClaudeTuiApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def _line(app: ClaudeTuiApp) -> UserStatusLine:
    return chat(app).query_one(UserStatusLine)


async def test_the_command_gets_the_session_json_and_its_line_is_shown_inert(tmp_path: Path) -> None:
    script = tmp_path / "line.py"
    script.write_text(SCRIPT)
    app = make_app(tmp_path, env=_settings(tmp_path, f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"))
    async with app.run_test(size=(100, 30)) as pilot:
        line = _line(app)
        await wait_for(pilot, lambda: str(line.render()).startswith("Status "), what="the status line")
        shown = str(line.render())
        assert "\x1b" not in shown and "owned" not in shown and "second" not in shown
        runs = line.runs
        await send(pilot, "kw:plain hello")
        await wait_for(pilot, lambda: idle(app) and line.runs > runs, what="run again at the turn's end")
        await wait_for(pilot, lambda: chat(app).session.conversation.status.model in str(line.render()),
                       what="the model in the line")


async def test_a_failing_command_says_so_once(tmp_path: Path) -> None:
    app = make_app(tmp_path, env=_settings(tmp_path, "echo boom >&2; exit 3"))
    async with app.run_test(size=(100, 30)) as pilot:
        line = _line(app)
        await wait_for(pilot, lambda: any("failed: boom" in n for n in _notes(app)), what="the failure said")
        await send(pilot, "kw:plain hello")
        await wait_for(pilot, lambda: idle(app) and line.runs >= 2 and not line.running, what="a second run")
        assert sum("status line" in n for n in _notes(app)) == 1


async def test_a_slow_command_is_stopped_and_never_blocks_typing(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(user_status, "TIMEOUT", 0.5)
    app = make_app(tmp_path, env=_settings(tmp_path, "sleep 30"))
    async with app.run_test(size=(100, 30)) as pilot:
        prompt = chat(app).query_one("#prompt")
        prompt.focus()
        await pilot.press(*"still typing")
        assert prompt.text == "still typing"  # type: ignore[attr-defined]
        await wait_for(pilot, lambda: any("took over" in n for n in _notes(app)), what="the timeout said")
