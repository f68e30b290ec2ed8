"""`sessions`, `search`, `export` and `--resume NAME` with --ssh, `hosts` entries, and fish/tcsh login
shells, against the real sshd of `test_ssh_remote.py` (its fixtures) and the real CLI there.

The subcommands run as a user runs them: ``python -m claude_tui …`` in a subprocess, configured by a
config file (``ssh_options``, ``cli_env``, ``hosts``), so "never a traceback" is checked on stderr.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from claude_tui.transport.options import CliOptions
from tests.e2e.app_driver import drive
from tests.e2e.ssh_server import GOOD, LOGIN_SHELLS, UNKNOWN, SshServer, SshServerError, ThrowawayUser
from tests.e2e.test_ssh_remote import assert_no_remote_cli, remote_cli_pids, remote_env, remote_options, ssh_server
from tests.servers import missing, need_program

__all__ = ["remote_env", "remote_options", "ssh_server"]  # fixtures, used by name

ROOT = Path(__file__).resolve().parents[2]
ODD_WORD = "say 'hi' \\\\ $HOME !!"
"""Quoted differently by sh, fish (``\\\\`` in single quotes) and csh (``!``)."""


@pytest.fixture
def config_file(tmp_path: Path, ssh_server: SshServer, remote_env: dict[str, str], project_dir: Path) -> Path:
    """ssh_options and cli_env as a user would set them, and a `hosts` entry "devbox" for the good host."""
    path = tmp_path / "claude-tui.toml"
    store = {"CLAUDE_CONFIG_DIR": remote_env["CLAUDE_CONFIG_DIR"], "HOME": remote_env["HOME"]}
    path.write_text("\n".join([
        f"ssh_options = {json.dumps(ssh_server.ssh_options)}",
        "[cli_env]",
        *(f"{name} = {json.dumps(value)}" for name, value in store.items()),
        "",
        "[[hosts]]",
        'name = "devbox"',
        f'destination = "{GOOD}"',
        f"cwd = {json.dumps(str(project_dir))}",
        "",
    ]))
    return path


def cli(config: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CLAUDE_TUI_CONFIG": str(config), "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "claude_tui", *argv], capture_output=True, text=True, env=env,
                            cwd=ROOT, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    return result


async def make_session(options: CliOptions, prompt: str) -> str:
    async with drive(options) as d:
        await d.turn(prompt)
        return d.conversation.status.session_id


async def test_sessions_search_and_export_read_the_remote_store(
        remote_options: Callable[..., CliOptions], config_file: Path, ssh_server: SshServer,
        project_dir: Path) -> None:
    session = await make_session(remote_options(), "zebra remote topic")
    logins = ssh_server.log.read_text().count("Accepted publickey")
    listed = cli(config_file, "sessions", "--ssh", GOOD, "--cwd", str(project_dir), "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert [row["session_id"] for row in rows] == [session]
    assert rows[0]["title"] == "zebra remote topic"
    # Listing, fetching and resolving the directory: one connection (one login), not one each.
    assert ssh_server.log.read_text().count("Accepted publickey") == logins + 1
    # A `hosts` name: its destination and its cwd.
    table = cli(config_file, "sessions", "--ssh", "devbox")
    assert table.returncode == 0 and session in table.stdout and "zebra remote topic" in table.stdout, table
    # The login's home has no sessions: the cwd really is the remote one.
    home = cli(config_file, "sessions", "--ssh", GOOD, "--json")
    assert home.returncode == 0 and json.loads(home.stdout) == [], home
    found = cli(config_file, "search", "zebra", "--ssh", "devbox")
    assert found.returncode == 0 and session in found.stdout, found
    exported = cli(config_file, "export", "zebra remote topic", "--ssh", "devbox")  # by title, not id
    assert exported.returncode == 0, exported.stderr
    assert "Hello! You said: zebra remote topic" in exported.stdout
    assert cli(config_file, "export", session[:8], "--ssh", "devbox", "--format", "json").returncode == 0
    unknown = cli(config_file, "export", "no such title", "--ssh", "devbox")
    assert unknown.returncode == 1
    assert "no session 'no such title' (try `claude-tui sessions --ssh devbox --all`)" in unknown.stderr
    missing = cli(config_file, "sessions", "--ssh", GOOD, "--cwd", str(project_dir / "nope"))
    assert missing.returncode == 1 and "no directory" in missing.stderr


@pytest.mark.parametrize(("host", "says"), [
    (UNKNOWN, "is not a known host"),
    ("box:2222", "ssh does not take host:port"),
])
async def test_subcommand_ssh_failures_are_explained(config_file: Path, host: str, says: str) -> None:
    result = cli(config_file, "sessions", "--ssh", host)
    assert result.returncode == 2 and says in result.stderr, result
    assert "F5" not in result.stderr  # advice for a command, not for the app
    if host == UNKNOWN:
        assert "run the command again" in result.stderr and "ssh said:" in result.stderr


async def test_resume_by_name_resolves_in_the_remote_store(remote_options: Callable[..., CliOptions],
                                                           ssh_server: SshServer) -> None:
    from claude_tui.ui.app.launch import _remote_history

    first = await make_session(remote_options(), "twin title")
    second = await make_session(remote_options(), "twin title")
    only = await make_session(remote_options(), "the lonely one")
    options = remote_options(resume="the lonely one")
    conversation, problem = _remote_history(options, False, GOOD)
    assert not problem and options.resume == only
    assert conversation is not None and conversation.status.session_id == only
    options = remote_options(resume="twin title")
    conversation, problem = _remote_history(options, False, GOOD)
    assert conversation is None and "'twin title' fits 2 sessions" in problem
    assert first in problem and second in problem
    options = remote_options(resume="nobody")
    assert _remote_history(options, False, GOOD) == (
        None, f"no session 'nobody' (try `claude-tui sessions --ssh {GOOD} --all`)")
    # A name cannot be looked up when the store cannot be read: that stops the start, explained.
    options = remote_options(UNKNOWN, resume="the lonely one")
    conversation, problem = _remote_history(options, False, UNKNOWN)
    assert conversation is None and "could not read the sessions" in problem and "not a known host" in problem


@pytest.mark.parametrize("host", sorted(LOGIN_SHELLS))
async def test_a_fish_or_tcsh_login_shell_runs_the_cli_and_the_reads(
        host: str, remote_options: Callable[..., CliOptions], ssh_server: SshServer, config_file: Path,
        project_dir: Path) -> None:
    shell = LOGIN_SHELLS[host]
    if shell not in ssh_server.shell_ports:
        missing(shell)
    from claude_tui.remote.machine import machine_for

    # A cwd and an argument that shells quote differently: a space, a quote, a backslash pair, "!".
    odd = project_dir / "it's a \\\\ dir!"
    odd.mkdir()
    (odd / "b.txt").write_text("x\n")
    options = remote_options(host, cwd=str(odd), extra_args=["--append-system-prompt", ODD_WORD])
    async with drive(options) as d:
        await d.turn(f"hello from {shell}")
        assert f"Hello! You said: hello from {shell}" in d.texts()
        assert d.conversation.status.cwd == str(odd)
        pids = remote_cli_pids()
        assert pids
        argv = Path(f"/proc/{pids[0]}/cmdline").read_bytes().split(b"\0")
        assert ODD_WORD.encode() in argv  # the word arrived as it was
        files = machine_for(d.chat.session.options).list_files(str(odd))  # a read, through the same login shell
        assert files == ["b.txt"]
        session = d.conversation.status.session_id
    assert_no_remote_cli()
    listed = cli(config_file, "sessions", "--ssh", host, "--cwd", str(odd), "--json")
    assert listed.returncode == 0, listed.stderr
    assert [row["session_id"] for row in json.loads(listed.stdout)] == [session]


async def test_the_palette_opens_a_session_on_a_configured_host(
        app_options: Callable[..., CliOptions], remote_options: Callable[..., CliOptions], claude_bin: Path,
        remote_env: dict[str, str], ssh_server: SshServer, project_dir: Path) -> None:
    """A local session; "Open session on devbox" from the palette; the new tab's session runs there,
    beside the local one."""
    from textual.command import CommandPalette

    from claude_tui.config import HostEntry
    from tests.e2e.app_driver import quiet_config

    remote_dir = project_dir / "remote side"
    remote_dir.mkdir()
    host = HostEntry(name="devbox", destination=GOOD, cwd=str(remote_dir), claude_path=str(claude_bin),
                     ssh_options=ssh_server.ssh_options, cli_env=remote_env)
    async with drive(app_options(), quiet_config(hosts=[host])) as d:
        assert d.chat.session.connection.client is not None and d.chat.session.connection.client.argv[0] != "ssh"
        local = d.chat
        await d.press("ctrl+p")
        await d.wait(lambda: isinstance(d.app.screen, CommandPalette), "the palette")
        await d.press(*"open session on dev")
        palette = d.app.screen
        commands = palette.query_one("CommandList")
        # The list fills as the search runs: wait for the entry to be the highlighted one, as a user
        # reads it before pressing Enter (Enter takes whatever is highlighted at that moment).
        await d.wait(lambda: commands.highlighted is not None
                     and "Open session on devbox" in str(commands.get_option_at_index(commands.highlighted).prompt),
                     "the host's entry, highlighted")
        await d.press("enter")
        await d.wait(lambda: d.app.chat is not None and d.app.chat is not local, "the new tab")
        await d.wait_ready()
        assert [s.options.ssh is not None for s in d.app.sessions] == [False, True]  # the local tab stays
        assert d.chat.session.options.ssh is not None and d.chat.session.options.ssh.dest == GOOD
        assert d.chat.session.connection.client is not None and d.chat.session.connection.client.argv[0] == "ssh"
        await d.turn("hello devbox")
        assert "Hello! You said: hello devbox" in d.texts()
        assert d.conversation.status.cwd == str(remote_dir)
        assert remote_cli_pids(), "the session does not run over ssh"
    assert_no_remote_cli()


@pytest.fixture(scope="module")
def shell_users(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SshServer, dict[str, ThrowawayUser]]]:
    """Real accounts whose login shells are fish and tcsh, and an sshd that lets them in."""
    users: dict[str, ThrowawayUser] = {}
    server = None
    for shell in ("fish", "tcsh"):
        need_program(shell)
    try:
        for shell in ("fish", "tcsh"):
            users[shell] = ThrowawayUser(shell).create()
        server = SshServer(tmp_path_factory.mktemp("sshd-users"), users=tuple(u.name for u in users.values()))
        server.start()
        yield server, users
    except SshServerError as error:
        pytest.fail(f"no throwaway login for the shell test: {error}", pytrace=False)
    finally:
        if server is not None:
            server.stop()
        for user in users.values():
            user.remove()


@pytest.mark.parametrize("shell", ["fish", "tcsh"])
def test_a_real_account_with_a_fish_or_tcsh_login_shell(
        shell: str, shell_users: tuple[SshServer, dict[str, ThrowawayUser]]) -> None:
    """The accounts' own login shell (from /etc/passwd, as sshd takes it) parses our command line."""
    from claude_tui.remote.machine import SshMachine
    from claude_tui.transport.ssh.argv import cli_command, ssh_argv
    from claude_tui.transport.ssh.target import SshTarget

    server, users = shell_users
    user = users[shell]
    target = SshTarget(f"e2e-as-{user.name}", options=tuple(server.ssh_options))
    words = ["two words", "it's", "$HOME", "back\\\\slash", "!!", "new\nline", "`id`"]
    probe = ("import json, os, sys; print(json.dumps({'argv': sys.argv[1:], 'cwd': os.getcwd(), "
             "'shell': os.environ.get('SHELL'), 'env': os.environ.get('CT_VALUE'), 'stdin': sys.stdin.read()}))")
    remote = cli_command(["/usr/bin/python3", "-c", probe, *words], cwd="~", env={"CT_VALUE": "a 'b' \\\\ $c !d"})
    machine = SshMachine(target, cache=server.root / f"cache-{shell}")
    with machine.connection():  # the -N master: the same login, no command for the shell
        argv = ssh_argv(target, master=False, sockets=machine.sockets)
        done = subprocess.run([*argv, remote.command], input=remote.stdin + b"the CLI's stdin\n",
                              capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr
        seen = json.loads(done.stdout)
        assert seen["shell"] == user.shell  # sshd ran the account's login shell
        assert seen["argv"] == words and seen["env"] == "a 'b' \\\\ $c !d"
        assert seen["cwd"] == str(user.home) and seen["stdin"] == "the CLI's stdin\n"
        folder = user.home / "a $dir!"
        folder.mkdir()
        (folder / "note it's.txt").write_text("hi\n")
        for path in (folder, folder / "note it's.txt"):
            shutil.chown(path, user.name, user.name)
        assert machine.read_head(str(folder / "note it's.txt"), 10) == (True, b"hi\n")
        assert machine.list_files(str(folder)) == ["note it's.txt"]


async def test_usage_reads_the_remote_store(remote_options: Callable[..., CliOptions], config_file: Path) -> None:
    """`claude-tui usage --ssh`: the remote machine's calls, as Claude Code there recorded their cost."""
    session = await make_session(remote_options(), "usage over ssh")
    result = cli(config_file, "usage", "--ssh", GOOD, "--by", "session", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [row["key"] for row in report["rows"]] == [session]
    assert report["total"]["input_tokens"] > 0 and report["total"]["cost_usd"] > 0
    table = cli(config_file, "usage", "--ssh", "devbox")
    assert table.returncode == 0 and "TOTAL" in table.stdout, table
