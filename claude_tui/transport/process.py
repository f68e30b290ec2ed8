"""`CliProcess`: the CLI as an asyncio subprocess, byte level.

Responsibilities: spawn in a new process group, under a keeper (`keeper.py`, Linux) and with a
per-spawn marker variable (`reaper`), hand out stdout *lines of any length*, keep draining stderr
into a bounded tail, serialize writes to stdin, and shut down with escalation (close stdin → wait
→ SIGTERM → wait → SIGKILL), after which nothing the CLI started is left (group kill + sweep by
marker). Nothing here knows about JSON; `client.ClaudeClient` builds on it.

Process lifetime, for any transport that spawns something (a CLI, an ssh): run it through a
`CliProcess` (``supervise=True``, the default) and call `close()`; that gives it the keeper
(dies with the app, even on kill -9), the marker and the app-exit cleanup (`reaper`).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shutil
import signal
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from claude_tui.protocol.builders import encode_line
from claude_tui.transport import adopted, early, keeper, reaper
from claude_tui.transport.debuglog import FROM_CLI, STDERR, TO_CLI, DebugLog
from claude_tui.transport.errors import ProcessGoneError

__all__ = ["CliProcess", "LineSplitter"]

READ_CHUNK = 256 * 1024
STDERR_TAIL_BYTES = 64 * 1024


class LineSplitter:
    """Splits a byte stream into lines without any length limit.

    Partial lines are kept as a list of chunks and joined once, so a 64 MiB
    line costs O(n) copying (the chunks plus one joined copy at the end),
    not O(n²) like repeated ``bytes +=``.
    """

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self.pending_bytes = 0

    def feed(self, chunk: bytes) -> list[bytes]:
        lines: list[bytes] = []
        start = 0
        while True:
            nl = chunk.find(b"\n", start)
            if nl < 0:
                break
            piece = chunk[start:nl]
            if self._parts:
                self._parts.append(piece)
                piece = b"".join(self._parts)
                self._parts = []
                self.pending_bytes = 0
            lines.append(piece)
            start = nl + 1
        if start < len(chunk):
            rest = chunk[start:]
            self._parts.append(rest)
            self.pending_bytes += len(rest)
        return lines

    def flush(self) -> bytes | None:
        """At EOF: the unterminated last line, if any."""
        if not self._parts:
            return None
        line = b"".join(self._parts)
        self._parts = []
        self.pending_bytes = 0
        return line


class CliProcess:
    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        debug_log: DebugLog | None = None,
        stderr_tail_bytes: int = STDERR_TAIL_BYTES,
        supervise: bool = True,
    ) -> None:
        self.argv = list(argv)
        self.supervise = supervise
        self.supervised = False
        """True once spawned under a keeper: `pid` is then the keeper's, the CLI is its child."""
        self.marker = ""
        """This spawn's `reaper.MARKER_VAR` value, carried by the CLI and everything it starts."""
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.debug_log = debug_log
        self._tail_limit = stderr_tail_bytes
        self._stderr_tail = bytearray()
        self._proc: adopted.ChildProcess | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._exit_task: asyncio.Task[int] | None = None
        self._write_lock = asyncio.Lock()
        self._splitter = LineSplitter()
        self._ready: deque[bytes] = deque()
        self._stdout_eof = False
        self._stdin_gone = False
        self._closed = False
        self.sent_early: tuple[Mapping[str, Any], ...] = ()
        """The control requests the launcher wrote to an adopted CLI (`early.spawn`), whose answers come as any."""

    # -- lifecycle ---------------------------------------------------------
    async def start(self) -> None:
        if self._proc is not None:
            raise RuntimeError("CliProcess already started")
        env = dict(os.environ if self.env is None else self.env)
        started = early.take(self.argv, self.cwd, env) if self.supervise else None
        if started is not None:
            # Spawned while the app loaded (see early.py), as below: adopted, not spawned again.
            self.marker, self.supervised = started.marker, started.supervised
            try:
                self._proc = await adopted.adopt(started)
            except BaseException:
                early.end(started)  # taken, so nobody else would end it
                raise
            self.sent_early = started.sent
            self._started(" (started early)")
            if self.debug_log:
                for request in started.sent:
                    self.debug_log.write(TO_CLI, encode_line(request))
            return
        if self.supervise and keeper.supported():
            # The keeper would only report a missing binary as exit 127: fail here, before any process.
            self._check_executable(env)
        spawn = reaper.marked(self.argv, env, keep=self.supervise)
        self.marker, self.supervised = spawn.marker, spawn.kept
        self._proc = await asyncio.create_subprocess_exec(
            *spawn.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.cwd,
            env=spawn.env,
            # Own process group: Ctrl-C in the terminal goes to us, not the
            # CLI, and close() can signal the CLI with everything it spawned.
            start_new_session=True,
        )
        reaper.register(self._proc.pid, keeper=self.supervised)
        self._started("")

    def _started(self, how: str) -> None:
        assert self._proc is not None
        if self.debug_log:
            how += " (under a keeper)" if self.supervised else ""
            self.debug_log.note(f"spawned pid {self._proc.pid}{how}: {self.argv!r} cwd={self.cwd!r}")
        self._stderr_task = asyncio.create_task(self._drain_stderr(), name=f"cli-stderr-{self._proc.pid}")
        self._exit_task = asyncio.create_task(self._proc.wait(), name=f"cli-wait-{self._proc.pid}")

    def _check_executable(self, env: Mapping[str, str]) -> None:
        program = self.argv[0] if self.argv else ""
        if os.sep in program:
            path = program if os.path.isabs(program) else os.path.join(self.cwd or ".", program)
            found = os.access(path, os.X_OK) and not os.path.isdir(path)
        else:
            found = shutil.which(program, path=env.get("PATH", os.defpath)) is not None
        if not found:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
        if self.cwd is not None and not os.path.isdir(self.cwd):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), self.cwd)

    @property
    def pid(self) -> int | None:
        """The process group leader: the keeper when `supervised`, else the CLI itself."""
        return self._proc.pid if self._proc else None

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode if self._proc else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    @property
    def stdin_open(self) -> bool:
        return self.running and not self._stdin_gone

    @property
    def stdout_eof(self) -> bool:
        return self._stdout_eof

    @property
    def stderr_tail(self) -> str:
        return bytes(self._stderr_tail).decode("utf-8", errors="replace")

    # -- stderr ------------------------------------------------------------
    async def _drain_stderr(self) -> None:
        """Read stderr until EOF, keeping only the last ``_tail_limit`` bytes.

        Must run continuously: a child blocked on a full stderr pipe would
        stop producing stdout too.
        """
        assert self._proc is not None and self._proc.stderr is not None
        stream = self._proc.stderr
        try:
            while True:
                chunk = await stream.read(64 * 1024)
                if not chunk:
                    return
                if self.debug_log:
                    self.debug_log.write(STDERR, chunk)
                self._stderr_tail += chunk
                excess = len(self._stderr_tail) - self._tail_limit
                if excess > 0:
                    del self._stderr_tail[:excess]
        except (OSError, asyncio.CancelledError):
            return

    # -- stdout ------------------------------------------------------------
    async def read_line(self) -> bytes | None:
        """The next stdout line without its newline (``\\r`` stripped); None at EOF."""
        assert self._proc is not None and self._proc.stdout is not None
        while not self._ready:
            if self._stdout_eof:
                return None
            try:
                chunk = await self._proc.stdout.read(READ_CHUNK)
            except (OSError, ValueError):
                chunk = b""
            if not chunk:
                self._stdout_eof = True
                last = self._splitter.flush()
                if last is not None:
                    self._ready.append(last)
                continue
            self._ready.extend(self._splitter.feed(chunk))
        line = self._ready.popleft()
        if line.endswith(b"\r"):
            line = line[:-1]
        if self.debug_log:
            self.debug_log.write(FROM_CLI, line)
        return line

    # -- stdin -------------------------------------------------------------
    async def write(self, data: bytes) -> bool:
        """Write one complete record; False if the process is gone.

        The lock makes this the single writer: a record is written and
        drained before the next one starts, so lines never interleave even
        when a huge record only partially fits in the pipe.
        """
        async with self._write_lock:
            if not self.stdin_open or self._proc is None or self._proc.stdin is None:
                return False
            stdin = self._proc.stdin
            if stdin.is_closing():
                self._stdin_gone = True
                return False
            try:
                stdin.write(data)
                await stdin.drain()
            except (BrokenPipeError, ConnectionResetError, ConnectionError, OSError, RuntimeError):
                self._stdin_gone = True
                return False
            if self.debug_log:
                self.debug_log.write(TO_CLI, data)
            return True

    async def write_or_raise(self, data: bytes) -> None:
        if not await self.write(data):
            raise ProcessGoneError("the Claude Code process is not running")

    async def close_stdin(self, flush_timeout: float = 1.0) -> None:
        """Send EOF. Deliberately not under the write lock: a writer stuck in
        drain() on a child that stopped reading must not block shutdown.
        Pending buffered bytes get ``flush_timeout`` s, then the pipe is aborted."""
        self._stdin_gone = True
        if self._proc is None or self._proc.stdin is None:
            return
        stdin = self._proc.stdin
        with contextlib.suppress(Exception):
            if not stdin.is_closing():
                stdin.close()
            await asyncio.wait_for(stdin.wait_closed(), flush_timeout)
        with contextlib.suppress(Exception):
            if not stdin.transport.is_closing() or stdin.transport.get_write_buffer_size():
                stdin.transport.abort()

    # -- exit --------------------------------------------------------------
    async def wait_exit(self, timeout: float | None = None) -> int | None:
        """The exit status once the process has exited; None on timeout.

        asyncio's ``Process.wait()`` only returns after *all pipes* closed, so
        a grandchild that inherited stdout (a backgrounded Bash command) would
        make it hang although the CLI is dead; we also poll the returncode,
        which asyncio records as soon as the child is reaped.
        """
        if self._proc is None or self._exit_task is None:
            return None
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        exited = self._exit_signal(loop)
        try:
            while self._proc.returncode is None and not self._exit_task.done():
                # While it runs, a pidfd wakes us when it exits: a poll every 50 ms for a whole
                # session was most of an idle app's CPU (and one a second still woke an idle app).
                # Once it has exited (or without pidfds) we poll until asyncio has reaped it.
                step: float | None = 0.05 if exited is None or exited.done() else None
                if deadline is not None:
                    step = deadline - loop.time() if step is None else min(step, deadline - loop.time())
                    if step <= 0:
                        return None
                waiting: set[asyncio.Future[Any]] = {self._exit_task}
                if exited is not None:
                    waiting.add(exited)
                # FIRST_COMPLETED: asyncio's wait() for the process ends only once a grandchild holding
                # our pipes lets go of them, and the pidfd has to be heard before that.
                await asyncio.wait(waiting, timeout=step, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if exited is not None:
                exited.cancel()
        return self._proc.returncode

    def _exit_signal(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future[None] | None:
        """A future done once the process has exited (a pidfd turns readable then); None where
        pidfds are missing (not Linux, kernel before 5.3) or the process is already gone."""
        assert self._proc is not None
        try:
            fd = os.pidfd_open(self._proc.pid)
        except (AttributeError, OSError):
            return None
        done: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            if not done.done():
                done.set_result(None)

        def release(_: object) -> None:
            loop.remove_reader(fd)
            os.close(fd)

        loop.add_reader(fd, readable)
        done.add_done_callback(release)
        return done

    async def wait(self, timeout: float | None = None) -> int | None:
        """Wait for exit (None on timeout) and for stderr to be drained."""
        rc = await self.wait_exit(timeout)
        if rc is None:
            return None
        await self._finish_stderr()
        assert self._proc is not None
        reaper.unregister(self._proc.pid)
        return rc

    def kill_group(self) -> None:
        """SIGKILL the whole process group and whatever carries this spawn's marker (orphans
        holding our pipes, tools in their own sessions)."""
        self._signal(signal.SIGKILL)
        if self.marker:
            reaper.sweep(self.marker)

    def terminate(self) -> None:
        """SIGTERM: to the keeper alone (it passes it on to the CLI once, then escalates and ends
        what is left), or to the whole group when there is no keeper."""
        if self._proc is None:
            return
        if self.supervised:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self._proc.pid, signal.SIGTERM)
        else:
            self._signal(signal.SIGTERM)

    async def _finish_stderr(self) -> None:
        if self._stderr_task is not None:
            # A grandchild may still hold stderr open; don't wait forever.
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._stderr_task), 1.0)
            if not self._stderr_task.done():
                self._stderr_task.cancel()

    def _signal(self, sig: int) -> None:
        if self._proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, sig)

    async def close(self, grace: float = 2.5, term_timeout: float = 2.0) -> int | None:
        """Close stdin, give the CLI ``grace`` s to flush its transcript and
        exit, then SIGTERM the group, then SIGKILL. Returns the exit status."""
        if self._proc is None:
            return None
        if self._closed:
            return self._proc.returncode
        self._closed = True
        await self.close_stdin()
        rc = self._proc.returncode
        exited_before = rc is not None
        if rc is None:
            rc = await self.wait(grace)
        if rc is None:
            if self.debug_log:
                self.debug_log.note(f"pid {self._proc.pid} still running {grace}s after stdin EOF: SIGTERM")
            self.terminate()
            rc = await self.wait(term_timeout)
        if rc is None:
            if self.debug_log:
                self.debug_log.note(f"pid {self._proc.pid} ignored SIGTERM: SIGKILL")
            self._signal(signal.SIGKILL)
            rc = await self.wait(5.0)
        elif not exited_before:
            # The leader just exited; anything it left in its group goes too.
            # (Not when it died long ago: its pid could by now lead an
            # unrelated new group.)
            self._signal(signal.SIGKILL)
        if self.marker:
            # Whatever escaped the group (a tool in its own session, an orphan of a killed keeper),
            # also when the CLI died long ago: the marker is unique to this spawn, unlike a pid.
            reaper.sweep(self.marker)
        await self._finish_stderr()
        if self._exit_task is not None and not self._exit_task.done():
            # Only pending while a grandchild holds a pipe; the group kill
            # above ends that, give the loop a moment to notice.
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._exit_task), 1.0)
        reaper.unregister(self._proc.pid)
        if self.debug_log:
            self.debug_log.note(f"pid {self._proc.pid} exited with {rc}")
        return rc
