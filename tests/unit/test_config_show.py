"""`claude-tui config --show` prints TOML that tomllib reads back as the same config, secrets masked."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from claude_tui.config import Config, HostEntry, NotificationSettings, render_config
from claude_tui.config_show import MASK, masked
from claude_tui.protocol.sanitize import CONTROL_CLASS

_text = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=24)
_env_names = st.one_of(_text.filter(bool), st.sampled_from(["ANTHROPIC_API_KEY", "GH_TOKEN", "db_password",
                                                            "MY_SECRET", "CLAUDE_CONFIG_DIR", "HOME"]))
_envs = st.dictionaries(_env_names, _text, max_size=4)
_host_names = st.from_regex(r"[a-z][a-z0-9.-]{0,8}", fullmatch=True)
_hosts = st.lists(st.builds(HostEntry, name=_host_names, destination=st.sampled_from(["", "me@box", "ssh://a@b:2222"]),
                            cwd=st.none() | _text, claude_path=st.none() | _text,
                            ssh_options=st.lists(_text, max_size=3), cli_env=_envs),
                  max_size=3, unique_by=lambda host: host.name)
_configs = st.builds(
    Config, claude_path=st.none() | _text, model=st.none() | _text,
    permission_mode=st.none() | st.sampled_from(["default", "acceptEdits", "plan", "bypassPermissions"]),
    theme=_text, show_thinking=st.booleans(), sidebar=st.sampled_from(["auto", "show", "hide"]),
    notifications=st.builds(NotificationSettings, bell=st.booleans(), desktop=st.booleans(),
                            long_turn_seconds=st.floats(allow_nan=False)),
    typeahead_guard_ms=st.integers(0, 5000), cli_args=st.lists(_text, max_size=4), cli_env=_envs,
    ssh_options=st.lists(_text, max_size=3), hosts=_hosts, keymap=st.dictionaries(_text, _text, max_size=3))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_configs)
@example(Config(keymap={"0\n": ""}))  # `$` in the bare-key pattern let a final newline through (CI)
def test_the_output_is_toml_that_reads_back_as_the_config(config: Config) -> None:
    shown = render_config(config)
    parsed = tomllib.loads(shown)
    assert Config.model_validate(parsed).model_dump() == masked(config.model_dump())
    import re
    assert not re.search(CONTROL_CLASS.replace("\\x00-\\x1f", "\\x00-\\x09\\x0b-\\x1f"), shown)


def test_secrets_are_masked_and_hosts_are_tables(tmp_path: Path) -> None:
    import os

    path = tmp_path / "config.toml"
    path.write_text('cli_env = { ANTHROPIC_API_KEY = "sk-ant-api03-very-secret", EDITOR = "vim" }\n'
                    'hosts = ["me@box", { name = "lab", destination = "me@lab", cli_env = { GH_TOKEN = "ghp_s3" } }]\n')
    done = subprocess.run([sys.executable, "-m", "claude_tui", "config", "--show"], capture_output=True, text=True,
                          env={**os.environ, "CLAUDE_TUI_CONFIG": str(path)}, timeout=120, check=True)
    assert "sk-ant" not in done.stdout and "ghp_s3" not in done.stdout
    parsed = tomllib.loads(done.stdout)
    assert parsed["cli_env"] == {"ANTHROPIC_API_KEY": MASK, "EDITOR": "vim"}
    assert [host["name"] for host in parsed["hosts"]] == ["me@box", "lab"]
    assert parsed["hosts"][1]["cli_env"] == {"GH_TOKEN": MASK}
