"""Events the transport adds to the protocol's message stream.

`ClaudeClient.events()` yields protocol ``Message`` objects plus these two
transport-level dataclasses. They have a ``type`` like protocol messages so a
consumer can dispatch on ``item.type`` uniformly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ProcessExited:
    """The CLI process is gone. Always the last item `events()` yields.

    ``returncode`` is the exit status (negative = killed by that signal, None
    if it could not be determined); ``stderr_tail`` the last ~64 KiB of what
    the CLI wrote to stderr (decoded, lossy). ``stdout_closed_early`` is True
    when stdout hit EOF while the process was still running and the client
    had to shut it down.
    """

    returncode: int | None
    stderr_tail: str
    stdout_closed_early: bool = False
    type: str = field(default="process_exited", init=False)

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def describe(self) -> str:
        """A one-paragraph human summary for an error banner."""
        if self.returncode is None:
            head = "Claude Code stopped (exit status unknown)"
        elif self.returncode < 0:
            head = f"Claude Code was killed by signal {-self.returncode}"
        else:
            head = f"Claude Code exited with status {self.returncode}"
        if self.stdout_closed_early:
            head += " after closing its output"
        tail = self.stderr_tail.strip()
        if tail:
            last = "\n".join(tail.splitlines()[-5:])
            return f"{head}:\n{last}"
        return head + "."


@dataclass(frozen=True)
class AutoAnswered:
    """A control_request from the CLI that the client already answered.

    The CLI blocks until every control_request gets a response, so requests we
    do not support (``hook_callback``, anything unknown) are answered with an
    error immediately; this event tells the UI it happened (log it, do not
    show a dialog). ``request`` is the protocol ``ControlRequest``.
    """

    request: Any
    error: str
    type: str = field(default="auto_answered", init=False)

    @property
    def request_id(self) -> str:
        return str(getattr(self.request, "request_id", ""))

    @property
    def subtype(self) -> str:
        inner = getattr(self.request, "request", None)
        return str(getattr(inner, "subtype", "") or "")
