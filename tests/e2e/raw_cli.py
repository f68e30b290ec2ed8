"""Drive the real ``claude`` CLI over raw stream-json: send lines, wait for messages.

A reader thread parses stdout (lines of any length) into ``messages``; another
drains stderr.  The CLI runs in its own process group so ``close()`` can end it
and everything it spawned (Bash tool children) without touching anything else.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

Message = dict[str, Any]
Predicate = Callable[[Message], bool]

STREAM_FLAGS = (
    "--output-format", "stream-json",
    "--input-format", "stream-json",
    "--verbose",
    "--include-partial-messages",
    "--permission-prompt-tool", "stdio",
)
#: process groups of every CLI started in this interpreter (checked for leftovers)
STARTED_PGIDS: list[int] = []


class CliTimeout(AssertionError):
    """A message the test waited for did not arrive in time."""


def is_type(kind: str, subtype: str | None = None) -> Predicate:
    def pred(m: Message) -> bool:
        return m.get("type") == kind and (subtype is None or m.get("subtype") == subtype)

    return pred


def is_control(subtype: str) -> Predicate:
    return lambda m: m.get("type") == "control_request" and m["request"].get("subtype") == subtype


def user_text(text: str) -> Message:
    return {"type": "user", "session_id": "", "parent_tool_use_id": None,
            "message": {"role": "user", "content": [{"type": "text", "text": text}]}}


class RawCli:
    """One ``claude`` process in stream-json mode."""

    def __init__(self, binary: Path | str, env: dict[str, str], cwd: Path | str,
                 extra_args: Sequence[str] = ()) -> None:
        self.argv = [str(binary), *STREAM_FLAGS, *extra_args]
        self.messages: list[Message] = []
        self.stderr_lines: list[str] = []
        self.bad_lines: list[str] = []
        self._cond = threading.Condition()
        self._eof = False
        self._ids = 0
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            self.argv, cwd=str(cwd), env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
        STARTED_PGIDS.append(self.proc.pid)
        self._threads = [
            threading.Thread(target=self._read_stdout, daemon=True, name="cli-stdout"),
            threading.Thread(target=self._read_stderr, daemon=True, name="cli-stderr"),
        ]
        for t in self._threads:
            t.start()

    # -- readers ------------------------------------------------------------
    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:  # binary readline: no line length limit
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                self.bad_lines.append(line)
                continue
            with self._cond:
                msg["_t"] = time.monotonic() - self.started
                self.messages.append(msg)
                self._cond.notify_all()
        with self._cond:
            self._eof = True
            self._cond.notify_all()

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self.stderr_lines.append(raw.decode("utf-8", "replace").rstrip("\n"))

    # -- writing --------------------------------------------------------------
    def send(self, obj: Message) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(obj) + "\n").encode())
        self.proc.stdin.flush()

    def send_user(self, text: str) -> int:
        """Send a user prompt; returns the index later waits can start from."""
        mark = len(self.messages)
        self.send(user_text(text))
        return mark

    def control(self, subtype: str, timeout: float = 15, **fields: Any) -> Message:
        """Send a control_request and wait for its control_response."""
        self._ids += 1
        rid = f"req_{subtype}_{self._ids}"
        self.send({"type": "control_request", "request_id": rid,
                   "request": {"subtype": subtype, **fields}})
        return self.wait_for(
            lambda m: m.get("type") == "control_response"
            and m["response"].get("request_id") == rid, timeout)

    def initialize(self, timeout: float = 20) -> Message:
        return self.control("initialize", timeout)["response"]

    def allow(self, request: Message, updated_input: dict[str, Any] | None = None) -> None:
        inp = request["request"]["input"] if updated_input is None else updated_input
        self._answer(request, {"behavior": "allow", "updatedInput": inp})

    def deny(self, request: Message, message: str) -> None:
        self._answer(request, {"behavior": "deny", "message": message})

    def _answer(self, request: Message, response: dict[str, Any]) -> None:
        self.send({"type": "control_response", "response": {
            "subtype": "success", "request_id": request["request_id"], "response": response}})

    # -- waiting --------------------------------------------------------------
    def wait_for(self, pred: Predicate, timeout: float = 20, start: int = 0) -> Message:
        """First message at index >= start matching pred; raises CliTimeout."""
        deadline = time.monotonic() + timeout
        i = start
        with self._cond:
            while True:
                while i < len(self.messages):
                    if pred(self.messages[i]):
                        return self.messages[i]
                    i += 1
                left = deadline - time.monotonic()
                if left <= 0 or self._eof:
                    break
                self._cond.wait(left)
        why = "CLI exited" if self._eof else f"timed out after {timeout}s"
        raise CliTimeout(f"{why} waiting for a message; {self.describe()}")

    def result(self, start: int = 0, timeout: float = 25) -> Message:
        return self.wait_for(is_type("result"), timeout, start)

    def index(self, message: Message) -> int:
        """Position of a message (by identity) in ``messages``."""
        with self._cond:
            return next(i for i, m in enumerate(self.messages) if m is message)

    def find(self, pred: Predicate, start: int = 0) -> list[Message]:
        with self._cond:
            return [m for m in self.messages[start:] if pred(m)]

    def describe(self, tail: int = 12) -> str:
        with self._cond:
            recent = [json.dumps(m)[:300] for m in self.messages[-tail:]]
        return (f"rc={self.proc.poll()} argv={self.argv[1:]}\nlast messages:\n  "
                + "\n  ".join(recent) + "\nstderr:\n  " + "\n  ".join(self.stderr_lines[-20:]))

    # -- shutdown ---------------------------------------------------------------
    def close(self, grace: float = 3.0) -> int | None:
        """Close stdin, give the CLI a moment, then end its whole process group."""
        try:
            if self.proc.stdin and not self.proc.stdin.closed:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if not group_alive(self.proc.pid):
                break
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + 2
            while group_alive(self.proc.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        for t in self._threads:
            t.join(timeout=2)
        return self.proc.returncode

    def __enter__(self) -> RawCli:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) pids whose process group is pgid (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            out.append(int(entry))
    return out


def group_alive(pgid: int) -> bool:
    return bool(group_members(pgid))
