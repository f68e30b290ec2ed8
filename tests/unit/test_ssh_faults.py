"""ssh's failures told apart from the remote CLI's own exit, each with what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.transport.events import ProcessExited
from claude_tui.transport.ssh.argv import SshTarget
from claude_tui.transport.ssh.faults import describe_exit, diagnose
from claude_tui.transport.ssh.known_hosts import known_hosts_entry

BOX = SshTarget("me@box")

CHANGED = """@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!
Host key for [127.0.0.1]:2222 has changed and you have requested strict checking.
Host key verification failed.
"""


@pytest.mark.parametrize(("stderr", "kind", "advice"), [
    ("No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.\n"
     "Host key verification failed.\n", "unknown-host", "accept the key"),
    (CHANGED, "host-key-changed", "ssh-keygen -R"),
    ("me@box: Permission denied (publickey).\n", "key-refused", "ssh-add"),
    ("ssh: Could not resolve hostname box: Name or service not known\n", "no-such-host", "~/.ssh/config"),
    ("ssh: connect to host box port 22: Connection refused\n", "unreachable", "F5"),
    ("Connection to box closed by remote host.\n", "connection-lost", "F5"),
    ("", "connection-lost", "F5"),
])
def test_ssh_failures(stderr: str, kind: str, advice: str) -> None:
    fault = diagnose(255, stderr, BOX)
    assert fault is not None and fault.kind == kind
    assert advice in fault.text and "me@box" in fault.title + fault.text


def test_the_wrappers_own_failures() -> None:
    fault = diagnose(98, "claude-tui-remote: 'claude' was not found on the remote PATH\n", BOX)
    assert fault is not None and fault.kind == "no-claude" and "--claude-path" in fault.text
    fault = diagnose(97, "claude-tui-remote: cannot enter the directory /srv/x\n", BOX)
    assert fault is not None and fault.kind == "no-directory" and "/srv/x" in fault.text


def test_the_clis_own_exit_is_not_an_ssh_fault() -> None:
    assert diagnose(1, "Error: something in the CLI\n", BOX) is None
    assert diagnose(98, "no marker here\n", BOX) is None  # the CLI's own 98, not the wrapper's
    title, text = describe_exit(BOX, ProcessExited(1, "Error: something in the CLI\n", False))
    assert "me@box" in title and "something in the CLI" in text


def test_ssh_text_is_made_inert() -> None:
    fault = diagnose(255, "Permission denied \x1b]52;c;SGVsbG8=\x07(publickey)\x1b[2J.\n", BOX)
    assert fault is not None and "\x1b" not in fault.text and "\x07" not in fault.text


def test_a_local_cli_keeps_its_old_note() -> None:
    title, text = describe_exit(None, ProcessExited(1, "boom\n", False))
    assert title == "Claude Code stopped" and "boom" in text and "F5" in text


@pytest.mark.parametrize("stderr", [CHANGED, "Host key verification failed.\n", "Permission denied (publickey).\n",
                                    "ssh: connect to host box port 22: Connection refused\n", ""])
def test_a_command_line_run_gets_advice_for_a_command(stderr: str) -> None:
    fault = diagnose(255, stderr, BOX, interactive=False)
    assert fault is not None and "F5" not in fault.text
    assert "un the command again" in fault.text


def test_a_wrong_claude_path_is_not_called_missing_from_the_path() -> None:
    fault = diagnose(98, "claude-tui-remote: '/opt/nope/claude' is not an executable file\n", BOX)
    assert fault is not None and fault.kind == "no-claude"
    assert "remote PATH" not in fault.title + fault.text.split("\n")[0]
    assert "/opt/nope/claude" in fault.text and "claude_path" in fault.text


def test_advice_names_the_config_entry_as_well_as_the_flag() -> None:
    # A tab opened from the palette has no command line to add --claude-path to.
    fault = diagnose(98, "claude-tui-remote: 'claude' was not found on the remote PATH\n", BOX)
    assert fault is not None and "claude_path in the host's entry" in fault.text


def test_a_changed_key_of_an_alias_names_the_entry_ssh_checks(tmp_path: Path) -> None:
    # Issue 28, item 20: the entry of an alias with HostName/Port is [127.0.0.1]:PORT, not the alias.
    config = tmp_path / "ssh_config"
    config.write_text(f"Host box-alias\n  HostName 127.0.0.1\n  Port 2222\n"
                      f"  UserKnownHostsFile {tmp_path / 'kh'}\n")
    target = SshTarget("box-alias", options=("-F", str(config)))
    assert known_hosts_entry(target) == ("[127.0.0.1]:2222", str(tmp_path / "kh"))
    fault = diagnose(255, CHANGED, target)
    assert fault is not None
    assert f"ssh-keygen -f {tmp_path / 'kh'} -R '[127.0.0.1]:2222'" in fault.text
    assert "-R box-alias" not in fault.text


def test_a_plain_host_keeps_the_plain_advice(tmp_path: Path) -> None:
    config = tmp_path / "ssh_config"
    config.write_text("")
    assert known_hosts_entry(SshTarget("me@box", options=("-F", str(config)))) == ("box", "")
    assert known_hosts_entry(SshTarget("box", port=2200, options=("-F", str(config))))[0] == "[box]:2200"
