"""Defect 7: the model is named before the first turn, in Claude Code's order of precedence."""

from __future__ import annotations

import json
from pathlib import Path

from claude_tui.transport.options import CliOptions
from claude_tui.transport.ssh.target import SshTarget
from claude_tui.transport.starting_model import starting_model

MODELS = [{"value": "default", "resolvedModel": "claude-opus-5-5"},
          {"value": "sonnet", "resolvedModel": "claude-sonnet-5-5"},
          {"value": "haiku", "resolvedModel": "claude-haiku-5-5"}]


def _options(tmp_path: Path, **kwargs: object) -> CliOptions:
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    env = {"CLAUDE_CONFIG_DIR": str(config), **kwargs.pop("env", {})}  # type: ignore[dict-item]
    return CliOptions(cwd=str(tmp_path), env=env, **kwargs)  # type: ignore[arg-type]


def test_the_flag_then_the_env_then_the_settings_then_the_default(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"model": "haiku"}))
    assert starting_model(_options(tmp_path, model="sonnet"), MODELS) == "claude-sonnet-5-5"
    assert starting_model(_options(tmp_path, env={"ANTHROPIC_MODEL": "claude-x-1"}), MODELS) == "claude-x-1"
    assert starting_model(_options(tmp_path), MODELS) == "claude-haiku-5-5"
    project = tmp_path / ".claude"
    project.mkdir()
    (project / "settings.local.json").write_text(json.dumps({"model": "sonnet"}))
    assert starting_model(_options(tmp_path), MODELS) == "claude-sonnet-5-5"  # the project's local file wins
    (project / "settings.local.json").write_text("{broken")
    (tmp_path / "config" / "settings.json").write_text("[]")
    assert starting_model(_options(tmp_path), MODELS) == "claude-opus-5-5"  # unreadable: the default


def test_nothing_known_is_nothing_shown(tmp_path: Path) -> None:
    assert starting_model(_options(tmp_path), []) == ""


def test_an_ssh_session_does_not_read_local_settings(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"model": "haiku"}))
    options = _options(tmp_path, ssh=SshTarget("example.org"))
    assert starting_model(options, MODELS) == "claude-opus-5-5"
