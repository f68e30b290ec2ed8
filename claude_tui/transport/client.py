"""`ClaudeClient`: one running CLI, spoken to in stream-json.

A background reader task decodes stdout into protocol messages and
* resolves the futures of our own control requests (those responses are
  *not* yielded by `events()`),
* remembers ``can_use_tool`` and ``elicitation`` requests as pending (yielded; a dialog answers),
* holds a ``request_user_dialog`` of a kind we render as pending too (yielded; a dialog answers), and
  answers any other at once with ``{behavior: "cancelled"}`` (the CLI then takes the dialog's default),
* answers every other incoming control request with an error at once, so the
  CLI never hangs waiting for us (yielded as `AutoAnswered`, not as the raw
  ControlRequest, so nothing downstream tries to answer it again),
* drops pending permissions on ``control_cancel_request`` (yielded),
* tracks ``busy`` (a turn runs) and the session id,
and finally yields one `ProcessExited`.

Queue note: the event queue is unbounded on purpose. A bounded one would
stall the reader when the consumer is slow, and then the responses our own
`request()` calls wait for could not be matched (deadlock until timeout).
The CLI's output rate is bounded by the model, so this does not run away.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from claude_tui.protocol import builders, decode_line, dropped_fields, encode_line
from claude_tui.protocol.user_dialogs import cancelled, read_dialog
from claude_tui.transport import early
from claude_tui.transport.debuglog import DebugLog, open_debug_log
from claude_tui.transport.errors import ControlError, ControlTimeout, ProcessGoneError
from claude_tui.transport.events import AutoAnswered, ProcessExited
from claude_tui.transport.options import CliOptions, local_command
from claude_tui.transport.process import CliProcess

__all__ = ["ClaudeClient"]

Decoder = Callable[[bytes], Any]


def _subtype(msg: Any) -> str:
    # Typed attribute first: `.raw` would parse the line a second time.
    sub = getattr(msg, "subtype", None)
    if isinstance(sub, str):
        return sub
    raw = getattr(msg, "raw", None)
    return str(raw.get("subtype") or "") if isinstance(raw, dict) else ""


def _control_subtype(msg: Any) -> str:
    inner = getattr(msg, "request", None)
    sub = getattr(inner, "subtype", None)
    raw = getattr(msg, "raw", None)
    if sub is None and isinstance(raw, dict):
        request = raw.get("request")
        sub = request.get("subtype") if isinstance(request, dict) else None
    return str(sub or "")


_ASKS_USER = frozenset({"can_use_tool", "elicitation"})
"""Requests the user answers on a dialog: held as pending until answered or withdrawn."""


class ClaudeClient:
    def __init__(
        self,
        opts: CliOptions,
        debug_log: str | Path | DebugLog | None = None,
        decoder: Decoder = decode_line,
        *,
        eof_grace: float = 3.0,
        close_grace: float = 2.5,
        term_timeout: float = 2.0,
        interrupt_timeout: float = 1.0,
    ) -> None:
        self.opts = opts
        self._debug_log_target = debug_log
        self.debug_log: DebugLog | None = None
        self._decode = decoder
        self.eof_grace = eof_grace
        self.close_grace = close_grace
        self.term_timeout = term_timeout
        self.interrupt_timeout = interrupt_timeout
        self.argv: list[str] = []
        self.busy = False
        self.session_id: str | None = None
        self._process: CliProcess | None = None
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._requests: dict[str, asyncio.Future[Any]] = {}
        self._sent_early: dict[str, tuple[str, asyncio.Future[Any]]] = {}
        """Request bodies the launcher already sent to an adopted CLI (`early.spawn`) -> their id and answer."""
        self._pending_permissions: dict[str, Any] = {}
        self._reader: asyncio.Task[None] | None = None
        self._side_tasks: set[asyncio.Task[Any]] = set()
        self._exited: ProcessExited | None = None
        self._events_done = False
        self._closing = False

    # -- lifecycle ---------------------------------------------------------
    async def start(self) -> None:
        """Resolve the binary (unless ``opts.command``) and spawn the CLI.

        Raises `ClaudeNotFoundError` or `OSError` (e.g. bad cwd) before any
        process exists; nothing to clean up then.
        """
        if self._process is not None:
            raise RuntimeError("ClaudeClient already started")
        if self.opts.ssh is not None:
            # The CLI on another machine: we spawn ssh, which carries the argv (transport/ssh/argv.py).
            from claude_tui.transport.ssh.argv import remote_launch

            launch = remote_launch(self.opts, self.opts.ssh)
            self.argv, cwd, env, preamble = launch.argv, launch.cwd, launch.env, launch.preamble
        else:
            self.argv, env = local_command(self.opts)
            cwd, preamble = self.opts.cwd, b""
        self.debug_log = open_debug_log(self._debug_log_target)
        if self.debug_log and self.opts.env:
            # Values may be secrets (API keys): log names only.
            self.debug_log.note(f"extra env: {sorted(self.opts.env)}")
        process = CliProcess(self.argv, cwd=cwd, env=env, debug_log=self.debug_log)
        try:
            await process.start()
        except BaseException:
            if self.debug_log:
                self.debug_log.close()
            raise
        finally:
            early.discard()  # the first CLI the app starts adopts the early one, or it is not needed
        if preamble:  # before the reader and before anyone else can write: nothing can come first
            # The remote environment may hold secrets (API keys): kept out of the debug log.
            log, process.debug_log = process.debug_log, None
            await process.write(preamble)
            process.debug_log = log
        self._process = process
        for request in process.sent_early:
            # Answered as soon as the CLI is up, perhaps before anyone asks: awaited from now on.
            rid = str(request.get("request_id") or "")
            if rid:
                answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
                self._requests[rid] = self._sent_early.setdefault(_body(request), (rid, answer))[1]
        self._reader = asyncio.create_task(self._read_loop(), name="claude-client-reader")

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.running and self._exited is None

    @property
    def exited(self) -> ProcessExited | None:
        return self._exited

    @property
    def stderr_tail(self) -> str:
        return self._process.stderr_tail if self._process else ""

    @property
    def pending_permissions(self) -> tuple[str, ...]:
        return tuple(self._pending_permissions)

    def is_pending(self, request_id: str) -> bool:
        return request_id in self._pending_permissions

    # -- reading -----------------------------------------------------------
    async def events(self) -> AsyncIterator[Any]:
        """Protocol messages, `AutoAnswered` notes, and finally `ProcessExited`.

        Single consumer. After `ProcessExited` the iterator ends; calling
        `events()` again then yields nothing.
        """
        if self._process is None:
            raise RuntimeError("call start() first")
        while not self._events_done:
            item = await self._queue.get()
            if isinstance(item, ProcessExited):
                self._events_done = True
            yield item

    async def _read_loop(self) -> None:
        proc = self._process
        assert proc is not None
        watchdog = asyncio.create_task(self._orphan_watchdog(proc))
        try:
            while True:
                line = await proc.read_line()
                if line is None:
                    break
                if not line.strip():
                    continue  # the CLI never sends blank lines; tolerate them
                try:
                    msg = self._decode(line)
                    if self.debug_log and (dropped := dropped_fields(msg)):
                        # Lenient decoding kept the message without these; say so where it can be found.
                        self.debug_log.note(f"{type(msg).__name__}: dropped bad field(s) {', '.join(dropped)}")
                    self._dispatch(msg)
                except Exception as exc:  # nothing the CLI prints may end the session
                    if self.debug_log:
                        self.debug_log.note(f"decode/dispatch raised {exc!r}")
                    continue
        finally:
            watchdog.cancel()
            await self._finish(proc)

    async def _orphan_watchdog(self, proc: CliProcess) -> None:
        """If the CLI died but an orphan it spawned keeps stdout open, EOF
        never comes; kill the group so the reader can finish."""
        await proc.wait_exit()
        await asyncio.sleep(1.0)
        if not proc.stdout_eof:
            proc.kill_group()

    async def _finish(self, proc: CliProcess) -> None:
        closed_early = False
        rc = await proc.wait(self.eof_grace)
        if rc is None:
            # stdout closed but the process lives on: it can never talk to
            # us again, so shut it down rather than leave it hanging.
            closed_early = True
            rc = await proc.close(self.close_grace, self.term_timeout)
        gone = ProcessGoneError(
            f"the Claude Code process exited (status {rc}) before answering"
        )
        for fut in self._requests.values():
            if not fut.done():
                fut.set_exception(gone)
        self._requests.clear()
        for _, answer in self._sent_early.values():
            if not answer.cancelled():
                answer.exception()  # nobody will ask for it now: not "never retrieved"
        self._sent_early.clear()
        self._pending_permissions.clear()
        self.busy = False
        self._exited = ProcessExited(rc, proc.stderr_tail, closed_early)
        if self.debug_log:
            self.debug_log.note(f"process exited: {rc}")
        self._queue.put_nowait(self._exited)

    def _dispatch(self, msg: Any) -> None:
        kind = getattr(msg, "type", None)
        if kind == "control_response":
            fut = self._requests.pop(str(getattr(msg, "request_id", "") or ""), None)
            if fut is not None:
                if not fut.done():
                    if getattr(msg, "is_error", False):
                        fut.set_exception(ControlError(str(getattr(msg, "error", None) or "control request failed"),
                                                       str(msg.request_id)))
                    else:
                        fut.set_result(msg)
                return  # ours: resolved, not an event
        elif kind == "control_request":
            rid = str(getattr(msg, "request_id", "") or "")
            sub = _control_subtype(msg)
            if sub in _ASKS_USER:
                self._pending_permissions[rid] = msg
            elif sub == "request_user_dialog":
                request = getattr(msg, "request", None)
                kind = getattr(request, "dialog_kind", None)
                if read_dialog(kind, getattr(request, "payload", None)) is not None:
                    self._pending_permissions[rid] = msg
                else:
                    # We declare only the kinds we render, so the CLI should send no other; one that comes
                    # anyway (or a payload we cannot read) gets the SDK's answer for a kind a host does not
                    # render, "cancelled": the CLI settles it with the dialog's default at once. An error reply
                    # would be discarded and leave the dialog waiting for a deadline it may not have.
                    error = (f"claude-tui cannot show Claude Code's {kind or '?'!r} dialog; it was answered "
                             "\"cancelled\", and Claude Code goes on as if it was dismissed")
                    self._spawn(self.send(builders.control_success(rid, cancelled())))
                    self._queue.put_nowait(AutoAnswered(msg, error))
                    return
            else:
                error = f"claude-tui does not support the control request {sub or '?'!r}"
                self._spawn(self.send(builders.control_error(rid, error)))
                self._queue.put_nowait(AutoAnswered(msg, error))
                return
        elif kind == "control_cancel_request":
            self._pending_permissions.pop(str(getattr(msg, "request_id", "") or ""), None)
        elif kind == "result":
            self.busy = False
        elif kind == "system" and _subtype(msg) == "init":
            # Also marks turns the CLI starts on its own (after a subagent).
            self.busy = True
            sid = msg.raw.get("session_id")
            if isinstance(sid, str) and sid:
                self.session_id = sid
        self._queue.put_nowait(msg)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    # -- writing -----------------------------------------------------------
    async def send(self, obj: dict[str, Any]) -> bool:
        """Write one message (the single serialized writer). False if the
        process is gone; never raises for a dead pipe. Permission answers
        should go through `answer_permission` instead."""
        if self._process is None or self._exited is not None:
            return False
        is_user = obj.get("type") == "user"
        if is_user:
            self.busy = True  # before writing: the turn's first lines may arrive during drain()
        ok = await self._process.write(encode_line(obj))
        if is_user and not ok:
            self.busy = False
        return ok

    async def request(self, payload: dict[str, Any], timeout: float = 30.0) -> Any:
        """Send a control_request (from `protocol.builders`) and await its
        ControlResponse. Raises `ControlTimeout`, `ControlError` (the CLI's
        message) or `ProcessGoneError`."""
        rid = payload.get("request_id")
        if not rid:
            rid = builders.new_request_id()
            payload = {**payload, "request_id": rid}
        sub = str((payload.get("request") or {}).get("subtype") or "")
        if self._process is None or self._exited is not None:
            raise ProcessGoneError(f"cannot send {sub!r}: the Claude Code process is not running")
        early_ask = self._sent_early.pop(_body(payload), None) if self._sent_early else None
        fut: asyncio.Future[Any]
        if early_ask is not None:
            rid, fut = early_ask  # the launcher asked exactly this already: its answer (perhaps in), not a second ask
        else:
            fut = asyncio.get_running_loop().create_future()
            self._requests[rid] = fut  # before writing: the answer can be quick
        try:
            if early_ask is None and not await self._process.write(encode_line(payload)):
                raise ProcessGoneError(f"cannot send {sub!r}: the Claude Code process is not running")
            try:
                return await asyncio.wait_for(fut, timeout)
            except TimeoutError:
                raise ControlTimeout(
                    f"Claude Code did not answer {sub!r} (request {rid}) within {timeout:g}s", rid, sub
                ) from None
            except ControlError as exc:
                exc.subtype = sub
                raise
        finally:
            self._requests.pop(rid, None)

    async def answer_permission(self, obj: dict[str, Any]) -> bool:
        """Send a permission answer (builders.allow/deny/answer_questions) if
        its request is still pending. Answers to cancelled, already answered
        or unknown requests are dropped (False): the CLI has moved on."""
        rid = str(((obj.get("response") or {}).get("request_id")) or "")
        if self._pending_permissions.pop(rid, None) is None:
            if self.debug_log:
                self.debug_log.note(f"dropped answer for non-pending request {rid!r}")
            return False
        return await self.send(obj)

    async def interrupt(self, timeout: float = 5.0) -> Any:
        return await self.request(builders.interrupt(), timeout)

    # -- shutdown ----------------------------------------------------------
    async def close(self) -> ProcessExited | None:
        """Interrupt a running turn (briefly), then close stdin, wait, TERM, KILL.
        Idempotent; returns the `ProcessExited` (also queued for events())."""
        if self._process is None:
            return None
        if not self._closing:
            self._closing = True
            if self.busy and self.running:
                with contextlib.suppress(Exception):
                    await self.interrupt(timeout=self.interrupt_timeout)
            await self._process.close(self.close_grace, self.term_timeout)
        if self._reader is not None:
            # The reader's own failure was logged; closing must not raise it again.
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._reader), self.eof_grace + 5.0)
        for task in list(self._side_tasks):
            task.cancel()
        if self.debug_log:
            self.debug_log.close()
        return self._exited

    async def __aenter__(self) -> ClaudeClient:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def _body(request: Mapping[str, Any]) -> str:
    """A control request's body, whatever its id: what an early request is matched on."""
    return json.dumps(request.get("request"), sort_keys=True)
