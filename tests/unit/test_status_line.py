"""The user's statusLine setting: which file wins, what the command is given, what is shown."""

from __future__ import annotations

import json
from pathlib import Path

from claude_tui.session.status import SessionStatus
from claude_tui.status_line import find_setting, model_display_name, shown_text, status_input


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


RECORDED = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "statusline-input.json"
# What stream-json does not tell claude-tui: the effort level, the prompt's id, the prompt cache's health.
NOT_KNOWN = {"effort", "prompt_id", "prompt_cache"}


def _shape(value: object) -> object:
    return {k: _shape(v) for k, v in value.items()} if isinstance(value, dict) else type(value).__name__


def test_the_input_has_the_shape_claude_codes_own_tui_sent() -> None:
    # Recorded from Claude Code 2.1.330's TUI after a turn (a statusLine command that saved its stdin)
    recorded = json.loads(RECORDED.read_text())
    status = SessionStatus(session_id="s1", model="claude-opus-5-5", cwd="/w", cli_version="2.1.330",
                           cost_total=0.5, context_tokens=31700, context_window=1_000_000, api_duration_ms=28.4,
                           lines_added=3, lines_removed=1,
                           last_usage={"input_tokens": 1200, "output_tokens": 42, "cache_creation_input_tokens": 500,
                                       "cache_read_input_tokens": 30000})
    data = status_input(status, project="/p", transcript="/t.jsonl", model_name="Opus 5.5", duration_ms=8626.2)
    assert "hook_event_name" not in recorded and "hook_event_name" not in data
    assert _shape(data) == {k: v for k, v in _shape(recorded).items() if k not in NOT_KNOWN}  # type: ignore[union-attr]
    assert data["model"] == {"id": "claude-opus-5-5", "display_name": "Opus 5.5"} == recorded["model"]
    assert data["workspace"] == {"current_dir": "/w", "project_dir": "/p", "added_dirs": []}
    assert data["cost"] == {"total_cost_usd": 0.5, "total_duration_ms": 8626, "total_api_duration_ms": 28,
                            "total_lines_added": 3, "total_lines_removed": 1}
    assert data["context_window"] == recorded["context_window"]


def test_before_the_first_reply_the_usage_is_null_as_claude_code_has_it() -> None:
    data = status_input(SessionStatus(session_id="s1", model="m", context_window=1_000_000), project="/p",
                        transcript="")
    assert data["context_window"]["current_usage"] is None and data["context_window"]["used_percentage"] is None
    assert "vim" not in data and "session_name" not in data
    named = status_input(SessionStatus(), project="/p", transcript="", vim_mode="NORMAL", session_name="fix")
    assert named["vim"] == {"mode": "NORMAL"} and named["session_name"] == "fix"


def test_the_output_shown_is_one_inert_line() -> None:
    out = b"\n\x1b[1;31mred\x1b[0m \x1b]52;c;b3duZWQ=\x07text\x07bell\nsecond\n"
    shown = shown_text(out)
    assert "\x1b" not in shown and "\x07" not in shown and "b3duZWQ" not in shown
    assert shown.startswith("red text") and "second" not in shown
    assert len(shown_text(b"x" * 10_000)) == 400


def test_the_model_is_named_as_claude_code_names_it() -> None:
    models = [{"value": "default", "resolvedModel": "claude-opus-5-5", "displayName": "Default (recommended)",
               "description": "Use the default model (currently Opus 5.5) · $4/$20 per Mtok"},
              {"value": "opus", "resolvedModel": "claude-opus-5-5", "displayName": "Opus",
               "description": "Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok"}]
    assert model_display_name(models, "claude-opus-5-5") == "Opus 5.5"  # the CLI's own list
    assert model_display_name([], "claude-sonnet-4-5-20250929") == "Sonnet 4.5"
    assert model_display_name([], "claude-haiku-5") == "Haiku 5"
    assert model_display_name([], "my-proxy-model") == "my-proxy-model"
