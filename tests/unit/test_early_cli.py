"""The first CLI started while the app loads (transport/early.py): adopted only by an exact match,
usable as any spawned CLI, and never left running when nobody adopts it."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_tui.transport import early, keeper, reaper
from claude_tui.transport.client import ClaudeClient
from claude_tui.transport.debuglog import DebugLog
from claude_tui.transport.process import CliProcess
from tests.procs import alive, wait_until

PY = sys.executable
ECHO = [PY, "-c", "import sys\nfor line in sys.stdin: print('got', line.strip(), flush=True)\nsys.exit(4)"]


@pytest.fixture(autouse=True)
def _nothing_left() -> Iterator[None]:
    early.discard()
    yield
    early.discard()


def env() -> dict[str, str]:
    return dict(os.environ)


async def test_a_matching_cli_process_adopts_it_and_talks_to_it() -> None:
    started = early.spawn(ECHO, None, env())
    assert started is not None
    pid = started.popen.pid
    assert pid in reaper.registered(), "registered at once: the reaper ends it even if the app never starts"
    process = CliProcess(ECHO, env=env())
    await process.start()
    assert process.pid == pid, "adopted, not spawned again"
    assert process.supervised == keeper.supported()
    assert await process.write(b"hello\n")
    assert await asyncio.wait_for(process.read_line(), 15) == b"got hello"
    assert await process.close() == 4
    assert process.returncode == 4
    assert not alive(pid)
    assert pid not in reaper.registered()


async def test_the_marker_reaches_the_cli_and_a_kill_ends_it() -> None:
    started = early.spawn([PY, "-c", "import time; print('up', flush=True); time.sleep(300)"], None, env())
    assert started is not None
    process = CliProcess(started.argv, env=env())
    await process.start()
    assert await asyncio.wait_for(process.read_line(), 15) == b"up"
    assert wait_until(lambda: len(reaper.marked_processes(process.marker)) >= 1, 5)
    process.kill_group()
    assert await process.wait_exit(10) is not None
    assert wait_until(lambda: reaper.marked_processes(process.marker) == [], 5)


@pytest.mark.parametrize("differs", ["argv", "cwd", "env"])
async def test_anything_different_spawns_its_own_and_the_first_client_ends_the_early_one(
        differs: str, tmp_path: Path) -> None:
    started = early.spawn(ECHO, None, env())
    assert started is not None
    argv, cwd, environment = list(ECHO), None, env()
    if differs == "argv":
        argv = [*ECHO, "--other"]
    elif differs == "cwd":
        cwd = str(tmp_path)
    else:
        environment["SOMETHING_ELSE"] = "1"
    assert early.take(argv, cwd, environment) is None
    process = CliProcess(argv, cwd=cwd, env=environment)
    await process.start()
    assert process.pid != started.popen.pid
    assert alive(started.popen.pid), "kept for a later match until discarded"
    early.discard()
    assert not alive(started.popen.pid)
    assert started.popen.pid not in reaper.registered()
    await process.close()


async def test_a_client_with_the_same_options_adopts_it(tmp_path: Path) -> None:
    """The launcher's path: `start_cli_early` builds the argv and environment as `ClaudeClient` will."""
    from claude_tui.fakecli import command
    from claude_tui.transport.options import CliOptions
    from claude_tui.ui.app.launch import start_cli_early

    options = CliOptions(cwd=str(tmp_path), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    options.command = command()
    start_cli_early(options)
    assert early._early is not None
    pid = early._early.popen.pid
    log = tmp_path / "debug.log"
    client = ClaudeClient(options, debug_log=DebugLog(log))
    await client.start()
    try:
        assert client.pid == pid
        assert early._early is None
        assert "(started early)" in log.read_text()
    finally:
        await client.close()


@pytest.mark.parametrize("asked", ["at once", "after the answer came"])
async def test_the_handshake_sent_at_the_spawn_is_answered_once_and_not_asked_again(tmp_path: Path,
                                                                                    asked: str) -> None:
    """The launcher writes the session's initialize as it spawns the CLI: the CLI answers it while the
    app loads, and the client's ask for the same body awaits that answer (even one already read)."""
    from claude_tui.fakecli import command
    from claude_tui.protocol import builders
    from claude_tui.transport.options import CliOptions
    from claude_tui.ui.app.launch import start_cli_early

    options = CliOptions(cwd=str(tmp_path), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    options.command = command()
    start_cli_early(options)
    log = tmp_path / "debug.log"
    client = ClaudeClient(options, debug_log=DebugLog(log))
    await client.start()
    try:
        def lines(direction: str) -> list[str]:
            return [line for line in log.read_text().splitlines() if f" {direction} " in line]

        if asked != "at once":
            deadline = asyncio.get_running_loop().time() + 15
            while not any('"control_response"' in line for line in lines("<<")):
                assert asyncio.get_running_loop().time() < deadline, "the early handshake was never answered"
                await asyncio.sleep(0.02)  # the reader runs meanwhile
        response = await client.request(builders.session_initialize(), timeout=15)
        assert "commands" in response.payload
        sent = [line for line in lines(">>") if '"initialize"' in line]
        assert len(sent) == 1, sent
        # Another ask (the same body again, or a different one) goes to the CLI as usual.
        await client.request(builders.session_initialize(), timeout=15)
        assert len([line for line in lines(">>") if '"initialize"' in line]) == 2
    finally:
        await client.close()


def test_a_cli_that_died_before_it_was_adopted_is_not_taken() -> None:
    started = early.spawn([PY, "-c", "pass"], None, env())
    assert started is not None
    started.popen.wait(10)
    assert early.take(started.argv, None, env()) is None
    assert started.popen.pid not in reaper.registered()


def test_the_launcher_ends_an_early_cli_the_app_never_took(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Quit before the first session started (or an app that failed): nothing is left running."""
    from claude_tui.app_args import AppArgs
    from claude_tui.ui.app.app import ClaudeTuiApp
    from claude_tui.ui.app.launch import run_app

    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, str(tmp_path / "xdg" / var))
    started: list[int] = []

    def run(self: ClaudeTuiApp, *args: object, **kwargs: object) -> None:
        assert early._early is not None, "started before the app ran"
        started.append(early._early.popen.pid)

    class NoWatchdog:
        def start(self) -> NoWatchdog:
            return self

        def arm(self, *args: object) -> None:
            pass

    monkeypatch.setattr(ClaudeTuiApp, "run", run)
    monkeypatch.setattr("claude_tui.ui.app.shutdown.Watchdog", NoWatchdog)
    claude = tmp_path / "claude"
    claude.write_text("#!/bin/sh\nsleep 30\n")
    claude.chmod(0o755)
    assert run_app(AppArgs(cwd=tmp_path, claude_path=str(claude))) == 0
    (pid,) = started
    assert early._early is None
    assert wait_until(lambda: not alive(pid), 5)


def test_a_matching_spawn_keeps_the_running_cli_and_another_replaces_it(tmp_path: Path) -> None:
    """The launcher asks twice: from its first reading of the config, then with the validated one."""
    first = early.spawn(ECHO, None, env(), requests=[{"type": "control_request", "request_id": "a"}])
    assert first is not None
    again = early.spawn(ECHO, None, env(), requests=[{"type": "control_request", "request_id": "b"}])
    assert again is first, "the same command line: the one running is kept, with what it was sent"
    assert again.sent == ({"type": "control_request", "request_id": "a"},)
    other = early.spawn(ECHO, str(tmp_path), env())
    assert other is not None and other.popen.pid != first.popen.pid
    assert wait_until(lambda: not alive(first.popen.pid), 5), "one started with anything else is ended"
    assert first.popen.pid not in reaper.registered()
    assert early.take(ECHO, str(tmp_path), env()) is other
    early.end(other)


def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str) -> Path:
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, str(tmp_path / "xdg" / var))
    path = tmp_path / "config.toml"
    path.write_text(config)
    monkeypatch.setenv("CLAUDE_TUI_CONFIG", str(path))
    claude = tmp_path / "claude"
    claude.write_text("#!/bin/sh\nsleep 30\n")
    claude.chmod(0o755)
    return claude


def test_the_cli_started_before_the_config_is_validated_is_ended_when_the_config_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The first reading of the config takes the keys of the command line (`config_peek`), so the CLI
    starts before the model refuses the file; the launch stops there and leaves nothing running."""
    import gc

    from claude_tui.app_args import AppArgs
    from claude_tui.ui.app.launch import run_app

    claude = _isolated(tmp_path, monkeypatch, 'no_such_key = 1\nmodel = "opus"\n')
    spawned: list[early.EarlyCli] = []
    spawn = early.spawn

    def recorded(*args: Any, **kwargs: Any) -> early.EarlyCli | None:
        started = spawn(*args, **kwargs)
        if started is not None:
            spawned.append(started)
        return started

    monkeypatch.setattr(early, "spawn", recorded)
    assert run_app(AppArgs(cwd=tmp_path, claude_path=str(claude))) == 2
    assert "no_such_key" in capsys.readouterr().err
    (started,) = spawned
    assert "--model" in started.argv and "opus" in started.argv
    assert early._early is None
    assert wait_until(lambda: not alive(started.popen.pid), 5)
    assert gc.isenabled(), "collection is back on after a launch that stopped"


def test_collection_is_off_through_the_start_up_and_the_first_cli_is_the_validated_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from claude_tui.app_args import AppArgs
    from claude_tui.transport.options import local_command
    from claude_tui.ui.app.app import ClaudeTuiApp
    from claude_tui.ui.app.launch import run_app

    claude = _isolated(tmp_path, monkeypatch, 'cli_args = ["--max-turns", "3"]\ntheme = "nord"\n')
    seen: list[tuple[bool, list[str], list[str]]] = []

    def run(self: ClaudeTuiApp, *args: object, **kwargs: object) -> None:
        assert early._early is not None
        seen.append((gc.isenabled(), early._early.argv, local_command(self.options)[0]))

    monkeypatch.setattr(ClaudeTuiApp, "run", run)
    monkeypatch.setattr("claude_tui.ui.app.shutdown.Watchdog", _NoWatchdog)
    assert run_app(AppArgs(cwd=tmp_path, claude_path=str(claude))) == 0
    ((collecting, argv, validated),) = seen
    assert not collecting, "the launcher holds collection off until the app mounts (app._tune_gc)"
    assert argv == validated and argv[-2:] == ["--max-turns", "3"]
    assert gc.isenabled()


class _NoWatchdog:
    def start(self) -> _NoWatchdog:
        return self

    def arm(self, *args: object) -> None:
        pass


async def test_closing_an_adopted_clis_stdin_lets_a_large_last_record_through() -> None:
    """`close_stdin` waits for what is still buffered (the write pipe's protocol has a close waiter)."""
    # A slow reader: when `write` returns, the end of the record is still buffered on our side.
    count = [PY, "-c", "import sys, time\ntotal = 0\nwhile chunk := sys.stdin.buffer.read1(4096):\n"
             "    total += len(chunk)\n    time.sleep(0.002)\nprint(total, flush=True)"]
    started = early.spawn(count, None, env())
    assert started is not None
    process = CliProcess(count, env=env())
    await process.start()
    assert process.pid == started.popen.pid
    record = b"x" * 300_000 + b"\n"
    assert await process.write(record)
    await process.close_stdin()
    assert await asyncio.wait_for(process.read_line(), 15) == str(len(record)).encode()
    await process.close()
