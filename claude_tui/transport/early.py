"""The first CLI, started while the app is still loading.

Claude Code takes about 0.4 s from exec to answering `initialize`, and loading the app (Textual,
the widgets, the protocol models) takes about as long again; started one after the other, the CLI
was ready a second after launch. So the launcher starts the first CLI as soon as its command line
is known (`spawn`), and the first `CliProcess` to start with exactly that command line, directory
and environment adopts it (`take`) instead of spawning its own. It is spawned as `CliProcess` would
(own session, under a keeper, with a marker, registered with the reaper), so it cannot outlive us
even if the app never starts; one nobody adopted is ended by `discard`.

`ChildProcess` is the part of `asyncio.subprocess.Process` that `CliProcess` uses; `_Adopted` gives
it for a `subprocess.Popen` made before the event loop existed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from claude_tui.protocol.builders import encode_line
from claude_tui.transport import reaper

__all__ = ["ChildProcess", "EarlyCli", "adopt", "discard", "end", "spawn", "take"]


class ChildProcess(Protocol):
    """What `CliProcess` needs of a running child (asyncio's `Process` has it all)."""

    @property
    def pid(self) -> int: ...
    @property
    def returncode(self) -> int | None: ...
    @property
    def stdin(self) -> asyncio.StreamWriter | None: ...
    @property
    def stdout(self) -> asyncio.StreamReader | None: ...
    @property
    def stderr(self) -> asyncio.StreamReader | None: ...
    async def wait(self) -> int: ...


@dataclass
class EarlyCli:
    argv: list[str]
    cwd: str | None
    env: dict[str, str]
    """The environment asked for, without the marker (what a later `CliProcess` is matched on)."""
    marker: str
    supervised: bool
    popen: subprocess.Popen[bytes]
    sent: tuple[Mapping[str, Any], ...] = ()
    """Control requests written to it at its spawn: the adopter awaits their answers (`ClaudeClient`)."""


_early: EarlyCli | None = None


def spawn(argv: Sequence[str], cwd: str | None, env: Mapping[str, str],
          requests: Sequence[Mapping[str, Any]] = ()) -> EarlyCli | None:
    """Start the CLI now, for the first `CliProcess` with the same `argv`, `cwd` and `env` to adopt, and
    write `requests` to it (the pipe holds them until it reads). None when it could not be started:
    the app then spawns it as usual and reports what fails."""
    global _early
    if _early is not None:
        return None
    spawn = reaper.marked(argv, env, keep=True)
    try:
        popen = subprocess.Popen(spawn.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 cwd=cwd, env=spawn.env, start_new_session=True)
    except OSError:
        return None
    reaper.register(popen.pid, keeper=spawn.kept)
    sent: tuple[Mapping[str, Any], ...] = ()
    if requests and popen.stdin is not None:
        try:
            popen.stdin.write(b"".join(encode_line(request) for request in requests))
            popen.stdin.flush()
            sent = tuple(requests)
        except OSError:
            pass  # it died at once: `take` finds it gone, and the app spawns its own
    _early = EarlyCli(list(argv), cwd, dict(env), spawn.marker, spawn.kept, popen, sent)
    return _early


def take(argv: Sequence[str], cwd: str | None, env: Mapping[str, str]) -> EarlyCli | None:
    """The early CLI if it was started with exactly this command line, directory and environment
    (and is still running); it is then no longer anyone else's."""
    global _early
    early = _early
    if early is None or early.argv != list(argv) or early.cwd != cwd or early.env != dict(env):
        return None
    _early = None
    if early.popen.poll() is not None:
        end(early)
        return None
    return early


def discard() -> None:
    """End the early CLI if nobody adopted it (the app started another one, or none)."""
    global _early
    early, _early = _early, None
    if early is not None:
        end(early)


def end(early: EarlyCli) -> None:
    """Kill `early` and whatever it started, and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(early.popen.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        early.popen.wait(1.0)
    reaper.sweep(early.marker)
    reaper.unregister(early.popen.pid)
    for pipe in (early.popen.stdin, early.popen.stdout, early.popen.stderr):
        if pipe is not None:
            pipe.close()


class _StdinProtocol(asyncio.streams.FlowControlMixin, asyncio.Protocol):
    """A write pipe's protocol with what `StreamWriter` needs: `drain` (pausing when the pipe is full)
    and `wait_closed` (FlowControlMixin has no close waiter: without one, closing stdin skipped the
    grace that lets buffered bytes reach the CLI)."""

    def __init__(self) -> None:
        super().__init__()
        self._closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if not self._closed.done():
            self._closed.set_result(None)

    def _get_close_waiter(self, stream: asyncio.StreamWriter) -> asyncio.Future[None]:
        return self._closed


class _Adopted:
    """An early `subprocess.Popen` seen as an asyncio child: its pipes as streams, its exit as a future."""

    def __init__(self, popen: subprocess.Popen[bytes], stdin: asyncio.StreamWriter, stdout: asyncio.StreamReader,
                 stderr: asyncio.StreamReader, exited: asyncio.Future[int]) -> None:
        self._popen = popen
        self.stdin: asyncio.StreamWriter | None = stdin
        self.stdout: asyncio.StreamReader | None = stdout
        self.stderr: asyncio.StreamReader | None = stderr
        self._exited = exited

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        return self._exited.result() if self._exited.done() else None

    async def wait(self) -> int:
        return await asyncio.shield(self._exited)


async def adopt(early: EarlyCli) -> ChildProcess:
    """`early` as an asyncio child process of the running loop."""
    loop = asyncio.get_running_loop()
    popen = early.popen
    assert popen.stdin is not None and popen.stdout is not None and popen.stderr is not None

    async def reader(pipe: object) -> asyncio.StreamReader:
        stream = asyncio.StreamReader(limit=2**16, loop=loop)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream, loop=loop), pipe)
        return stream

    stdout, stderr = await reader(popen.stdout), await reader(popen.stderr)
    transport, protocol = await loop.connect_write_pipe(_StdinProtocol, popen.stdin)
    stdin = asyncio.StreamWriter(transport, protocol, None, loop)
    exited: asyncio.Future[int] = loop.create_future()

    def reaped(status: int) -> None:
        if not exited.done():
            exited.set_result(status)

    try:
        pidfd = os.pidfd_open(popen.pid)
    except (AttributeError, OSError):
        pidfd = -1
    if pidfd >= 0:
        # Readable once the child has exited: reaped then, without a thread (starting one waited
        # 15-25 ms for the scheduler while the CLI started on the other cores).
        def exited_now() -> None:
            loop.remove_reader(pidfd)
            os.close(pidfd)
            reaped(popen.wait())

        loop.add_reader(pidfd, exited_now)
    else:
        def wait() -> None:
            # What asyncio's own threaded child watcher does: a thread blocked in waitpid for this child.
            status = popen.wait()
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(reaped, status)

        threading.Thread(target=wait, name=f"cli-wait-{popen.pid}", daemon=True).start()
    return _Adopted(popen, stdin, stdout, stderr, exited)
