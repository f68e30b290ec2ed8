"""ssh's failures told apart from the remote CLI's own exit, each with what to do."""

from __future__ import annotations

import pytest

from claude_tui.transport.events import ProcessExited
from claude_tui.transport.ssh import SshTarget
from claude_tui.transport.ssh_faults import describe_exit, diagnose

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
    ("ssh: connect to host box port 22: Connection refused\n", "unreachable", "Ctrl+R"),
    ("Connection to box closed by remote host.\n", "connection-lost", "Ctrl+R"),
    ("", "connection-lost", "Ctrl+R"),
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
    assert title == "Claude Code stopped" and "boom" in text and "Ctrl+R" in text


@pytest.mark.parametrize("stderr", [CHANGED, "Host key verification failed.\n", "Permission denied (publickey).\n",
                                    "ssh: connect to host box port 22: Connection refused\n", ""])
def test_a_command_line_run_gets_advice_for_a_command(stderr: str) -> None:
    fault = diagnose(255, stderr, BOX, interactive=False)
    assert fault is not None and "Ctrl+R" not in fault.text
    assert "un the command again" in fault.text
