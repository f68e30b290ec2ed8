"""`!command` with `--ssh` runs on the remote machine (a real sshd on 127.0.0.1, tests/e2e/ssh_server.py),
and Ctrl+C ends it there too (issue 30)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from claude_tui.session.items import ShellItem
from claude_tui.transport.options import CliOptions
from tests.e2e.app_driver import drive
from tests.e2e.mock_api import MockApi
from tests.e2e.test_ssh_remote import remote_env, remote_options, ssh_server  # noqa: F401 - fixtures

Options = Callable[..., CliOptions]


def _pgrep(pattern: str) -> list[str]:
    return subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split()


async def test_a_bang_command_runs_on_the_remote_machine_and_reaches_claude(
        remote_options: Options, mock_api: MockApi, project_dir: Path) -> None:  # noqa: F811
    async with drive(remote_options()) as d:
        await d.type_prompt('!pwd; test -n "$SSH_CONNECTION" && echo under-sshd')
        await d.press("enter")
        await d.wait(lambda: any(isinstance(i, ShellItem) and not i.running for i in d.items), "the command's end")
        [item] = [i for i in d.items if isinstance(i, ShellItem)]
        assert item.text.splitlines() == [str(project_dir), "under-sshd"] and item.exit_code == 0
        await d.turn("kw:plain and?")
        content = [m for m in mock_api.messages_requests()[-1].body["messages"] if m["role"] == "user"][-1]["content"]
        assert any(b.get("text") == f"<bash-stdout>{project_dir}\nunder-sshd</bash-stdout><bash-stderr></bash-stderr>"
                   for b in content)


async def test_ctrl_c_ends_a_remote_command_on_the_remote_machine(remote_options: Options) -> None:  # noqa: F811
    async with drive(remote_options()) as d:
        await d.type_prompt("!echo started; sleep 61.25")
        await d.press("enter")
        await d.wait(lambda: any(isinstance(i, ShellItem) and "started" in i.text for i in d.items), "its first line")
        assert _pgrep("sleep 61.25"), "the remote sleep is not running"
        await d.press("ctrl+c")
        [item] = [i for i in d.items if isinstance(i, ShellItem)]
        await d.wait(lambda: not item.running, "the command stopped")
        assert item.stopped
        deadline = time.monotonic() + 10  # the remote wrapper ends its group once the channel closes
        while _pgrep("sleep 61.25") and time.monotonic() < deadline:
            await d.pilot.pause(0.1)
        assert not _pgrep("sleep 61.25"), "the remote command outlived Ctrl+C"
