"""The app driving the real CLI on "another machine": a real sshd on 127.0.0.1 (tests/e2e/ssh_server.py).

The CLI and the Messages API stand-in run on the remote side (this machine, reached through sshd);
the app only talks to a local `ssh`. Every remote CLI carries the run marker, so "no remote claude
survives" is checked on the processes themselves.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from claude_tui.session.items import NoteKind
from claude_tui.transport.options import CliOptions
from claude_tui.transport.ssh.argv import SshTarget
from tests.e2e.app_driver import AppDriver, drive
from tests.e2e.conftest import RUN_ID, RUN_MARKER, marked_processes
from tests.e2e.mock_api import MockApi
from tests.e2e.offline_env import offline_overrides
from tests.e2e.ssh_server import BAD_KEY, CHANGED, GOOD, SSHD, UNKNOWN, SshServer, SshServerError
from tests.servers import missing


@pytest.fixture(scope="module")
def ssh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    server = SshServer(tmp_path_factory.mktemp("sshd"))
    if not os.access(SSHD, os.X_OK):
        missing("sshd", f"no OpenSSH server at {SSHD} for the remote tier")
    try:
        server.start()
    except SshServerError as error:
        pytest.fail(f"no OpenSSH server for the remote tier: {error}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def remote_env(mock_api: MockApi, tmp_path: Path) -> dict[str, str]:
    """Only what the remote CLI needs (sent as cli_env), never this process's environment."""
    env = offline_overrides(mock_api.url, tmp_path / "cli")
    for key in ("HOME", "TMPDIR"):
        Path(env[key]).mkdir(parents=True, exist_ok=True)
    env[RUN_MARKER] = RUN_ID
    return env


@pytest.fixture
def remote_options(claude_bin: Path, remote_env: dict[str, str], project_dir: Path,
                   ssh_server: SshServer) -> Iterator[Callable[..., CliOptions]]:
    def make(host: str = GOOD, **kwargs: object) -> CliOptions:
        values: dict[str, object] = {"cwd": str(project_dir), "claude_path": str(claude_bin), "env": dict(remote_env)}
        values.update(kwargs)
        return CliOptions(ssh=SshTarget(host, options=tuple(ssh_server.ssh_options)), **values)  # type: ignore[arg-type]

    yield make
    assert_no_remote_cli()


def assert_no_remote_cli(timeout: float = 8) -> None:
    deadline = time.monotonic() + timeout
    left = marked_processes()
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = marked_processes()
    assert not left, f"a remote claude outlived the app: {left}"


def _ancestors(pid: int) -> list[str]:
    names = []
    while pid > 1:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            break
        names.append(stat[stat.index("(") + 1:stat.rindex(")")])
        pid = int(stat[stat.rfind(")") + 2:].split()[1])
    return names


def remote_cli_pids() -> list[int]:
    """Marked processes that are the CLI itself (not a shell it started)."""
    return [pid for pid in marked_processes() if "claude" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(
        errors="replace").split("\0")[0]]


async def fault_note(d: AppDriver, title_part: str) -> str:
    notes = await d.wait(lambda: [n for n in d.notes(NoteKind.ERROR) if title_part in n.title],
                         f"an error note titled ...{title_part}...", 30)
    return f"{notes[-1].title}\n{notes[-1].text}"


async def test_a_prompt_streams_from_the_remote_cli(remote_options: Callable[..., CliOptions],
                                                    ssh_server: SshServer, monkeypatch: pytest.MonkeyPatch) -> None:
    async with drive(remote_options()) as d:
        assert d.chat.session.connection.client is not None and d.chat.session.connection.client.argv[0] == "ssh"
        await d.turn("hello over ssh")
        assert "Hello! You said: hello over ssh" in d.texts()
        pids = remote_cli_pids()
        assert pids, "no remote claude found"
        assert "sshd" in _ancestors(pids[0]), "the CLI did not run under sshd"
        assert ssh_server.session_processes(), "no ssh connection"
        # Reads share the CLI's connection (ControlMaster): no new login on the server.
        from claude_tui.remote.machine import machine_for

        logins = ssh_server.log.read_text().count("Accepted publickey")
        files = await asyncio.to_thread(machine_for(d.chat.session.options).list_files, d.conversation.status.cwd)
        assert "a.txt" in files
        assert ssh_server.log.read_text().count("Accepted publickey") == logins, "a read opened its own connection"
        # @ completion lists the remote project's files (read in a worker, over the same connection).
        from claude_tui.remote.machine import SshMachine
        from claude_tui.ui.panels.composer import Composer

        listed: list[str] = []
        original = SshMachine.list_files

        def spy(self: SshMachine, root: str) -> list[str]:
            listed.append(root)
            return original(self, root)

        monkeypatch.setattr(SshMachine, "list_files", spy)
        await d.type_prompt("@a.t")
        composer = d.chat.query_one(Composer)
        await d.wait(lambda: composer.files and "a.txt" in composer.files, "the remote file list")
        assert listed == [d.conversation.status.cwd]


async def test_quitting_mid_turn_ends_the_remote_cli(remote_options: Callable[..., CliOptions]) -> None:
    async with drive(remote_options()) as d:
        await d.send("kw:slow go on")
        await d.wait(lambda: len(d.texts()) > 20, "the slow answer streaming")
        assert remote_cli_pids()
        await d.app.shutdown()
        assert_no_remote_cli()


async def test_a_dropped_connection_says_so_and_ctrl_r_resumes(remote_options: Callable[..., CliOptions],
                                                               ssh_server: SshServer, mock_api: MockApi,
                                                               remote_env: dict[str, str]) -> None:
    def pipe_dirs() -> list[Path]:
        return list(Path(remote_env["TMPDIR"]).glob("claude-tui.*"))

    async with drive(remote_options()) as d:
        await d.turn("first remote prompt")
        session = d.conversation.status.session_id
        await d.send("kw:slow keep talking")
        await d.wait(lambda: len(d.texts()) > 60, "the slow answer streaming")
        await d.type_prompt("my draft")
        assert ssh_server.drop_connections() > 0
        note = await fault_note(d, "was lost")
        assert "F5" in note
        assert d.prompt.text == "my draft"
        assert "Hello! You said: first remote prompt" in d.texts()  # the transcript stays
        assert_no_remote_cli()  # the remote CLI ended with its channel
        # Nor its pipe's directory: ssh's hang-up ends the wrapper before its own clean-up, so the
        # directory goes as soon as both ends of the pipe are open.
        assert not pipe_dirs(), pipe_dirs()
        await d.press("f5")
        await d.wait_ready()
        assert d.chat.session.connection.options.resume == session
        before = len(mock_api.requests)
        d.prompt.text = ""
        await d.turn("after the reconnect")
        assert d.conversation.status.session_id == session
        sent = [r for r in mock_api.requests[before:] if "after the reconnect" in str(r.body)]
        assert sent and "first remote prompt" in str(sent[-1].body), "the resumed CLI lost the history"


@pytest.mark.parametrize(("host", "title", "advice"), [
    (UNKNOWN, "is not a known host", "accept the key"),
    (CHANGED, "host key of", "ssh-keygen -f"),
    (BAD_KEY, "refused the login", "ssh-copy-id"),
])
async def test_ssh_failures_are_explained(remote_options: Callable[..., CliOptions], host: str, title: str,
                                          advice: str, ssh_server: SshServer) -> None:
    async with drive(remote_options(host), ready=False) as d:
        await d.type_prompt("keep me")
        note = await fault_note(d, title)
        assert advice in note and "ssh said:" in note
        if host == CHANGED:  # the alias's entry, as ssh stores it, in the file ssh reads
            assert f"-R '[127.0.0.1]:{ssh_server.port}'" in note and "known_hosts_changed" in note, note
            assert f"-R {CHANGED}" not in note
        assert "\x1b" not in note
        assert d.prompt.text == "keep me"
        # Only the right note: a CLI that never ran is no "running without its command list".
        assert not [n for n in d.notes(NoteKind.ERROR) if "command list" in n.title]
        said: list[str] = []
        notify = d.app.notify
        d.app.notify = lambda message, *args, **kwargs: (said.append(str(message)), notify(message, *args, **kwargs))
        await d.press("enter")
        await d.wait(lambda: said, "the answer to a prompt on a dead tab")
        assert title in said[-1] and "F5 tries again" in said[-1], said
        assert d.prompt.text == "keep me"


async def test_no_claude_on_the_remote_path(remote_options: Callable[..., CliOptions],
                                            remote_env: dict[str, str]) -> None:
    env = dict(remote_env, PATH="/usr/bin:/bin")
    async with drive(remote_options(claude_path=None, env=env), ready=False) as d:
        note = await fault_note(d, "not installed")
        assert "'claude' was not found on the remote PATH" in note and "--claude-path" in note


async def test_a_claude_path_that_does_not_exist_is_named(remote_options: Callable[..., CliOptions]) -> None:
    async with drive(remote_options(claude_path="/opt/nowhere/claude"), ready=False) as d:
        note = await fault_note(d, "No Claude Code at that path")
        assert "'/opt/nowhere/claude' is not an executable file" in note
        assert "remote PATH" not in note.split("leave it out")[0]


async def test_the_browser_lists_and_resumes_a_remote_session(remote_options: Callable[..., CliOptions],
                                                              mock_api: MockApi, remote_env: dict[str, str]) -> None:
    from claude_tui.remote.machine import machine_for
    from claude_tui.ui.browser.screen import SessionBrowserScreen

    async with drive(remote_options()) as d:
        await d.turn("remember the remote word")
        session = d.conversation.status.session_id
    assert_no_remote_cli()
    options = remote_options()
    mirror = machine_for(options).session_root()
    assert Path(remote_env["CLAUDE_CONFIG_DIR"]) not in mirror.parents  # read into our cache, not there
    async with drive(options) as d:
        assert "remember the remote word" not in d.texts()
        await d.press("f4")
        browser = await d.wait_screen(SessionBrowserScreen)
        await d.wait(lambda: any(row.session_id == session for row in browser.state.rows), "the remote session listed")
        row = next(row for row in browser.state.rows if row.session_id == session)
        assert mirror in Path(row.path).parents
        # The only session there (the new CLI has written nothing yet): the cursor starts on it.
        await d.wait(lambda: browser.table.current_path == row.path, "the cursor on the remote session", 10)
        await d.press("enter")
        await d.wait(lambda: d.app.chat is not None and d.chat.session.options.resume == session, "the resumed chat")
        await d.wait_ready()
        assert "Hello! You said: remember the remote word" in d.texts()  # the history, read from the mirror
        await d.press("f4")  # full-text search runs on the mirror's index too
        browser = await d.wait_screen(SessionBrowserScreen)
        await d.press("slash", *"remote word")

        def found() -> bool:
            hits = browser.table.listing.hits
            return bool(hits) and any("remote word" in h[0].snippet.lower() and h[0].session_id == session
                                      for h in hits.values())

        await d.wait(found, "the remote session found by full-text search")
        await d.press("escape", "escape", "escape")
        await d.wait_chat_active()
        before = len(mock_api.requests)
        await d.turn("and now?")
        sent = [r for r in mock_api.requests[before:] if "and now?" in str(r.body)]
        assert sent and "remember the remote word" in str(sent[-1].body)


async def test_an_edit_previews_from_and_applies_to_the_remote_file(
        remote_options: Callable[..., CliOptions], project_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from claude_tui.remote.machine import SshMachine
    from claude_tui.ui.dialogs.permission import PermissionScreen
    from claude_tui.ui.render.diff_view import DiffView
    from tests.e2e.test_app_real_cli import widget_text

    reads: list[str] = []
    original = SshMachine.read_head

    def spy(self: SshMachine, path: str, limit: int) -> tuple[bool, bytes]:
        reads.append(path)
        return original(self, path, limit)

    monkeypatch.setattr(SshMachine, "read_head", spy)
    async with drive(remote_options()) as d:
        await d.send("kw:edit the file")
        dialog = await d.wait_screen(PermissionScreen)
        preview = await d.wait(lambda: dialog.query(DiffView), "the Edit preview")
        await d.pilot.pause()
        shown = widget_text(preview.first())
        assert "BETA" in shown and "beta" in shown, shown
        assert reads == [str(project_dir / "a.txt")]  # read over ssh, from the machine the CLI runs on
        await d.press("y")
        await d.wait_turns(1)
        assert (project_dir / "a.txt").read_text() == "alpha\nBETA\ngamma\n"


async def test_resume_and_continue_from_the_command_line_read_the_remote_store(
        remote_options: Callable[..., CliOptions], project_dir: Path, ssh_server: SshServer) -> None:
    from claude_tui.ui.app.launch import _remote_history

    async with drive(remote_options()) as d:
        await d.turn("a remote first prompt")
        session = d.conversation.status.session_id
    options = remote_options(continue_session=True)
    conversation, problem = _remote_history(options, True)  # what `claude-tui --ssh HOST --continue` does first
    assert options.resume == session and not options.continue_session and not problem
    assert conversation is not None and conversation.status.session_id == session
    options = remote_options(resume=session)
    conversation, problem = _remote_history(options, False)
    assert conversation is not None and not problem
    assert any("a remote first prompt" in getattr(item, "text", "") for item in conversation.items)
    # An unreachable store is a warning for a full id (the remote CLI resumes it), never a traceback.
    options = remote_options(UNKNOWN, resume=session)
    assert _remote_history(options, False) == (None, "")


async def test_a_far_away_machine_streams_and_the_browser_opens_at_once(
        remote_options: Callable[..., CliOptions], ssh_server: SshServer) -> None:
    """200 ms round trip (tests/e2e/delay_proxy.py): everything works; the browser is on screen
    before its sync over the slow link is done (no key handler waits on the network).
    Numbers: benchmarks/remote.py."""
    from claude_tui.ui.browser.screen import SessionBrowserScreen
    from tests.e2e.ssh_server import SLOW

    async with drive(remote_options(SLOW)) as d:
        await d.turn("hello from far away")
        assert "Hello! You said: hello from far away" in d.texts()
        await d.press("f4")
        assert isinstance(d.app.screen, SessionBrowserScreen), "the browser waited for the network"
        browser = d.app.screen
        session = d.conversation.status.session_id
        # Nothing mirrored yet: the empty table says it is still reading, never "No sessions yet".
        empty = await d.wait(lambda: str(browser.query_one("#browser-empty").render()).strip(), "the browser's words")
        assert empty == f"Reading the sessions on {SLOW}…", empty
        await d.wait(lambda: any(row.session_id == session for row in browser.state.rows), "the remote session listed")


async def test_a_remote_session_forks_from_the_browser(remote_options: Callable[..., CliOptions],
                                                        mock_api: MockApi) -> None:
    from claude_tui.ui.browser.screen import SessionBrowserScreen

    async with drive(remote_options()) as d:
        await d.turn("the parent's prompt")
        parent = d.conversation.status.session_id
        await d.press("f4")
        browser = await d.wait_screen(SessionBrowserScreen)
        await d.wait(lambda: any(row.session_id == parent for row in browser.state.rows), "the remote session listed")
        await d.wait(lambda: browser.table.current_path is not None, "a row under the cursor", 10)
        await d.press("tab", "f")
        await d.wait(lambda: d.app.chat is not None and d.chat.session.options.fork_session, "the forked chat")
        await d.wait_ready()
        await d.turn("the child's prompt")
        assert d.conversation.status.session_id not in ("", parent)
        sent = [r for r in mock_api.requests if "the child's prompt" in str(r.body)]
        assert sent and "the parent's prompt" in str(sent[-1].body)


async def test_a_new_tab_on_an_unreachable_host_gets_only_the_right_note(
        remote_options: Callable[..., CliOptions], ssh_server: SshServer) -> None:
    # Issue 28, item 16: as "New tab on a host…" opens one, beside a tab that works.
    async with drive(remote_options()) as d:
        first = d.chat
        # Its own connection: the test's aliases all reach 127.0.0.1, so they would share the first
        # tab's (ControlPath %C), which already passed the host key check.
        own = SshTarget(UNKNOWN, options=("-o", "ControlPath=none", *ssh_server.ssh_options))
        await d.app.open_session(dataclasses.replace(remote_options(UNKNOWN), ssh=own), new_tab=True)
        await d.wait(lambda: d.app.chat is not first, "the new tab in view")
        note = await fault_note(d, "is not a known host")
        assert "accept the key" in note
        await d.wait(lambda: not d.chat.session.alive, "the dead tab's CLI gone")
        assert not [n for n in d.notes(NoteKind.ERROR) if "command list" in n.title]
        assert "running without" not in d.screen_text()
