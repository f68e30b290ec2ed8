"""`--ssh` on the command line and the ssh config keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.cli import parse_app_args
from claude_tui.config import ConfigError, load_config


def test_ssh_paths_are_remote_and_left_alone() -> None:
    args = parse_app_args(["--ssh", "me@devbox", "--cwd", "/srv/does-not-exist-here", "--add-dir", "rel/dir"])
    assert args.ssh == "me@devbox"
    assert str(args.cwd) == "/srv/does-not-exist-here"  # not resolved or checked on this machine
    assert args.add_dirs == ["rel/dir"]


def test_without_ssh_the_cwd_is_still_checked() -> None:
    with pytest.raises(SystemExit):
        parse_app_args(["--cwd", "/srv/does-not-exist-here"])


@pytest.mark.parametrize("argv", [["--ssh", "box:22"], ["--ssh", "-oProxyCommand=x"], ["--ssh", "box", "--demo"]])
def test_bad_ssh_uses_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_app_args(argv)
    assert "--ssh" in capsys.readouterr().err


def test_ssh_config_keys(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('ssh_options = ["-F", "/etc/x"]\nhosts = ["me@box", "ssh://me@box:2222", "alias"]\n')
    config = load_config(path, environ={})
    assert config.ssh_options == ["-F", "/etc/x"] and len(config.hosts) == 3
    path.write_text('hosts = ["box:2222"]\n')
    with pytest.raises(ConfigError, match="ssh://box:2222"):
        load_config(path, environ={})
