"""The launcher's early CLI (`early.py`) made an asyncio child of the app's event loop.

`ChildProcess` is the part of `asyncio.subprocess.Process` that `CliProcess` uses; `_Adopted` gives
it for a `subprocess.Popen` made before the event loop existed. Apart from `early.py` so that the
launcher spawns the CLI before asyncio is imported.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import threading
from typing import Protocol

from claude_tui.transport.early import EarlyCli

__all__ = ["ChildProcess", "adopt"]


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
