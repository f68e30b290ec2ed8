"""The launcher's first reading of the config (`config_peek`) never disagrees with the validated one:
whenever it gives the keys that shape the CLI's command line, `load_config` gives the same."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claude_tui.config import Config, ConfigError, PermissionMode, load_config
from claude_tui.config_peek import COMMAND_KEYS, PERMISSION_MODES, THINKING_DISPLAYS, command_settings


def validated(path: Path, environ: dict[str, str], flags: dict[str, Any]) -> dict[str, Any] | None:
    try:
        config = load_config(path, environ, flags)
    except ConfigError:
        return None  # the app says so and exits: whatever was started early is ended (test_early_cli.py)
    return {key: getattr(config, key) for key in COMMAND_KEYS}


def test_the_defaults_and_choices_are_the_models() -> None:
    defaults = Config()
    assert {key: getattr(defaults, key) for key in COMMAND_KEYS} == COMMAND_KEYS
    assert PERMISSION_MODES == typing.get_args(PermissionMode)
    thinking = typing.get_args(Config.model_fields["thinking_display"].annotation)
    assert THINKING_DISPLAYS == typing.get_args(thinking[0])


def test_a_plain_file_and_flags_read_as_the_model_reads_them(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('model = "sonnet"\npermission_mode = "plan"\ncli_args = ["--max-turns", "3"]\n'
                    'file_checkpoints = false\ntheme = "nord"\n[cli_env]\nFOO = "bar"\n[notifications]\nbell = false\n')
    flags = {"model": "opus", "permission_mode": None, "claude_path": "/opt/claude"}
    peeked = command_settings(path, {}, flags)
    assert peeked is not None
    assert peeked == validated(path, {}, flags)
    assert peeked["model"] == "opus" and peeked["permission_mode"] == "plan" and peeked["cli_env"] == {"FOO": "bar"}


@pytest.mark.parametrize("text", [
    "enable_todo_tools = 1\n",  # the model coerces it: not this reading's to guess
    'cli_args = "--verbose"\n',
    'permission_mode = "yolo"\n',
    'thinking_display = "full"\n',
    "cli_env = { A = 1 }\n",
    "model = [\n",  # not TOML
])
def test_what_it_is_not_sure_of_gives_none(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    assert command_settings(path, {}, {}) is None


def test_not_utf8_and_environment_overrides_give_none(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'model = "\xff"\n')
    assert command_settings(path, {}, {}) is None
    assert command_settings(tmp_path / "none.toml", {"CLAUDE_TUI_CLI_ARGS": '["-x"]'}, {}) is None
    assert command_settings(tmp_path / "none.toml", {"CLAUDE_TUI_THEME": "nord"}, {}) == COMMAND_KEYS


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(
    ["", "sonnet", "plan", "auto", "yolo", "summarized", "omitted", "/bin/claude", "--x"]))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3),
                   st.dictionaries(st.sampled_from(["A", "B"]), SCALARS, max_size=2))


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + " }"
    return json.dumps(value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.dictionaries(st.sampled_from(sorted(COMMAND_KEYS)), VALUES, max_size=5),
       model=st.sampled_from([None, "opus"]), mode=st.sampled_from([None, "acceptEdits"]))
def test_whenever_it_reads_something_the_model_reads_the_same(tmp_path: Path, file: dict[str, object],
                                                               model: str | None, mode: str | None) -> None:
    path = tmp_path / "config.toml"
    # TOML has no null: a None leaves the key out, as a user's file would.
    path.write_text("".join(f"{key} = {toml_value(value)}\n" for key, value in file.items() if value is not None
                            and not (isinstance(value, list) and None in value)
                            and not (isinstance(value, dict) and None in value.values())))
    flags = {"model": model, "permission_mode": mode, "claude_path": None}
    peeked, model_reads = command_settings(path, {}, flags), validated(path, {}, flags)
    # A file the model refuses (a flag may cover a bad value the file holds) stops the app.
    if peeked is not None and model_reads is not None:
        assert peeked == model_reads
    if model_reads is None:
        return
    only_flags = {key: value for key, value in flags.items() if value is not None}
    if all(key in only_flags or type(value) is type(COMMAND_KEYS[key]) or COMMAND_KEYS[key] is None
           and type(value) is str for key, value in file.items() if value is not None):
        assert peeked is not None, "a plain file the model takes as it is is read"
