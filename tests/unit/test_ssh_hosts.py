"""The config's ``hosts`` entries and what ``--ssh NAME`` makes of them (app and subcommands)."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.cli import parse_app_args
from claude_tui.config import ConfigError, load_config
from claude_tui.history.resolve import Resolution
from claude_tui.remote.hosts import remote_setup
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.launch import apply_remote_setup

CONFIG = """\
ssh_options = ["-F", "/etc/global_ssh_config"]
hosts = ["me@plain", "ssh://me@box:2222"]

[cli_env]
ANTHROPIC_BASE_URL = "http://global"
SHARED = "global"
"""

TABLES = """\
ssh_options = ["-F", "/etc/global_ssh_config"]

[cli_env]
SHARED = "global"
ONLY_GLOBAL = "g"

[[hosts]]
name = "devbox"
destination = "ssh://me@devbox.example:2200"
cwd = "/srv/app"
claude_path = "/opt/claude/bin/claude"
ssh_options = ["-i", "/keys/devbox"]
cli_env = { SHARED = "devbox" }

[[hosts]]
name = "gpu"
"""


def config_at(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_plain_destinations_name_themselves(tmp_path: Path) -> None:
    config = load_config(config_at(tmp_path, CONFIG), environ={})
    assert [host.name for host in config.hosts] == ["me@plain", "ssh://me@box:2222"]
    setup = remote_setup("ssh://me@box:2222", config)
    assert (setup.target.dest, setup.target.port, setup.name) == ("me@box", 2222, "ssh://me@box:2222")
    assert setup.target.options == ("-F", "/etc/global_ssh_config")


def test_a_host_table_brings_its_destination_options_env_cwd_and_claude(tmp_path: Path) -> None:
    config = load_config(config_at(tmp_path, TABLES), environ={})
    setup = remote_setup("devbox", config)
    assert (setup.target.dest, setup.target.port) == ("me@devbox.example", 2200)
    # The host's own options first: ssh keeps the first value it sees.
    assert setup.target.options == ("-i", "/keys/devbox", "-F", "/etc/global_ssh_config")
    assert setup.env == {"SHARED": "devbox", "ONLY_GLOBAL": "g"}
    assert (setup.cwd, setup.claude_path, setup.label) == ("/srv/app", "/opt/claude/bin/claude", "devbox")
    gpu = remote_setup("gpu", config)
    assert gpu.target.dest == "gpu" and gpu.cwd is None  # no destination: the name is the ssh alias


def test_a_name_not_in_hosts_is_a_destination(tmp_path: Path) -> None:
    config = load_config(config_at(tmp_path, TABLES), environ={})
    setup = remote_setup("other@machine", config)
    assert setup.target.dest == "other@machine" and setup.name is None and setup.cwd is None
    assert setup.env == {"SHARED": "global", "ONLY_GLOBAL": "g"}
    with pytest.raises(ValueError, match="host:port"):
        remote_setup("machine:22", config)


@pytest.mark.parametrize(("text", "problem"), [
    ('[[hosts]]\nname = "a"\n[[hosts]]\nname = "a"\n', "two hosts are named 'a'"),
    ('[[hosts]]\nname = "-oProxyCommand=x"\n', "not a host name"),
    ('[[hosts]]\nname = "my box"\n', "not a host name"),
    ('[[hosts]]\nname = "box\\n"\n', "not a host name"),
    ('[[hosts]]\nname = "a"\ndestination = "box:22"\n', "ssh://box:22"),
    ('[[hosts]]\nname = "a"\nport = 22\n', "port"),
    ('hosts = ["box:2222"]\n', "ssh://box:2222"),
])
def test_bad_hosts_are_explained(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        load_config(config_at(tmp_path, text), environ={})


def test_the_entrys_cwd_and_claude_apply_only_where_no_flag_is_given(tmp_path: Path) -> None:
    setup = remote_setup("devbox", load_config(config_at(tmp_path, TABLES), environ={}))
    args = parse_app_args(["--ssh", "devbox"])
    assert not args.explicit_cwd
    options = CliOptions(cwd=str(args.cwd), env={"FROM_CONFIG": "1"})
    apply_remote_setup(options, setup, args)
    assert options.ssh == setup.target
    assert (options.cwd, options.claude_path) == ("/srv/app", "/opt/claude/bin/claude")
    assert options.env == {"FROM_CONFIG": "1", "SHARED": "devbox", "ONLY_GLOBAL": "g"}
    args = parse_app_args(["--ssh", "devbox", "--cwd", "/elsewhere", "--claude-path", "/my/claude"])
    assert args.explicit_cwd
    options = CliOptions(cwd=str(args.cwd))
    apply_remote_setup(options, setup, args)
    assert (options.cwd, options.claude_path) == ("/elsewhere", "/my/claude")


def test_an_unknown_remote_name_points_at_the_remote_listing() -> None:
    problem = Resolution("nobody").problem("claude-tui sessions --ssh devbox --all")
    assert problem == "no session 'nobody' (try `claude-tui sessions --ssh devbox --all`)"
    assert Resolution("nobody").problem() == "no session 'nobody' (try `claude-tui sessions --all`)"


def test_a_session_on_a_host_keeps_the_flags_and_drops_this_machines_paths(tmp_path: Path) -> None:
    from claude_tui.remote.hosts import options_on_host

    config = load_config(config_at(tmp_path, TABLES), environ={})
    base = CliOptions(cwd="/home/me/local", model="opus", permission_mode="plan", resume="abc", fork_session=True,
                      add_dirs=["/home/me/other"], extra_args=["--max-turns", "3"], env={"LOCAL_ONLY": "1"},
                      claude_path="/usr/local/bin/claude", command=["python", "-m", "fake"])
    options = options_on_host(base, remote_setup("devbox", config))
    assert (options.model, options.permission_mode, options.extra_args) == ("opus", "plan", ["--max-turns", "3"])
    assert options.ssh is not None and options.ssh.dest == "me@devbox.example"
    assert (options.cwd, options.claude_path, options.command, options.add_dirs) == (
        "/srv/app", "/opt/claude/bin/claude", None, [])
    assert options.env == {"SHARED": "devbox", "ONLY_GLOBAL": "g"}
    assert (options.resume, options.fork_session, options.continue_session) == (None, False, False)
    assert base.cwd == "/home/me/local" and base.ssh is None  # the current session's options are untouched
    gpu = options_on_host(base, remote_setup("gpu", config))
    assert gpu.cwd is None and gpu.claude_path is None  # the login's home, `claude` on the PATH there
