"""The user's statusLine setting: which file wins, what the command is given, what is shown."""

from __future__ import annotations

import json
from pathlib import Path

from claude_tui.session.status import SessionStatus
from claude_tui.status_line import find_setting, shown_text, status_input


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)


def test_local_settings_win_over_the_projects_and_the_users(tmp_path: Path) -> None:
    project, user = tmp_path / "p", tmp_path / "u"
    _write(user / "settings.json", {"statusLine": {"type": "command", "command": "user"}})
    assert find_setting(project, user).command == "user"  # type: ignore[union-attr]
    _write(project / ".claude" / "settings.json", {"statusLine": {"type": "command", "command": "project"}})
    assert find_setting(project, user).command == "project"  # type: ignore[union-attr]
    _write(project / ".claude" / "settings.local.json", {"statusLine": {"command": "local"}})
    setting = find_setting(project, user)
    assert setting is not None and setting.command == "local"
    assert setting.source == project / ".claude" / "settings.local.json"


def test_broken_files_are_passed_over_and_disable_all_hooks_turns_it_off(tmp_path: Path) -> None:
    project, user = tmp_path / "p", tmp_path / "u"
    _write(project / ".claude" / "settings.local.json", "{not json")
    _write(project / ".claude" / "settings.json", {"statusLine": {"type": "command", "command": "  "}})
    _write(user / "settings.json", {"statusLine": {"type": "command", "command": "user"}})
    assert find_setting(project, user).command == "user"  # type: ignore[union-attr]
    _write(project / ".claude" / "settings.json", {"disableAllHooks": True})
    assert find_setting(project, user) is None
    assert find_setting(tmp_path / "none", tmp_path / "nothing") is None


def test_the_input_is_claude_codes_status_json() -> None:
    status = SessionStatus(session_id="s1", model="claude-x", cwd="/w", cli_version="2.1.330", cost_total=0.5)
    data = status_input(status, project="/p", transcript="/t.jsonl")
    assert data["hook_event_name"] == "Status" and data["session_id"] == "s1"
    assert data["model"] == {"id": "claude-x", "display_name": "claude-x"}
    assert data["workspace"] == {"current_dir": "/w", "project_dir": "/p"}
    assert data["cost"]["total_cost_usd"] == 0.5 and data["transcript_path"] == "/t.jsonl"


def test_the_output_shown_is_one_inert_line() -> None:
    out = b"\n\x1b[1;31mred\x1b[0m \x1b]52;c;b3duZWQ=\x07text\x07bell\nsecond\n"
    shown = shown_text(out)
    assert "\x1b" not in shown and "\x07" not in shown and "b3duZWQ" not in shown
    assert shown.startswith("red text") and "second" not in shown
    assert len(shown_text(b"x" * 10_000)) == 400
