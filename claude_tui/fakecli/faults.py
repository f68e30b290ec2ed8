"""Fault injection for reliability tests: ``FAKE_CLAUDE_FAULT=a,b``.

  exit1-at-start      print "Invalid API key · Please run /login" to stderr, exit 1
  kill-mid-stream     SIGKILL itself after FAKE_CLAUDE_FAULT_AFTER stdout lines (default 8)
  garbage             a non-JSON line after every stdout line
  huge-line           the first turn starts with one assistant line of
                      FAKE_CLAUDE_HUGE_BYTES of text (default 64 MiB)
  stderr-flood        FAKE_CLAUDE_STDERR_BYTES (default 10 MiB) to stderr at start,
                      synchronously: a reader that does not drain stderr never
                      gets the initialize response
  silent-permission   the first user message (whatever it says) gets a Bash
                      can_use_tool, then the process ignores everything, even EOF
  close-stdout        at the first user message fd 1 is closed; the process
                      keeps running until stdin EOF
  initialize-error    ``initialize`` gets an error response; everything else works
"""

from __future__ import annotations

import copy
import itertools
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from claude_tui.fakecli import recordings as rec

GARBAGE = [
    b"this is not JSON",
    b'{"type":"assistant","message":',
    b"\x1b[31m\x1b]0;pwned\x07not json either\x1b[0m",
    b"Warning: something printed to stdout by accident",
]


def _int_env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


@dataclass
class Faults:
    names: set[str] = field(default_factory=set)
    kill_after: int = 8
    huge_bytes: int = 64 * 1024 * 1024
    stderr_bytes: int = 10 * 1024 * 1024
    huge_line: bool = False
    silent_after_permission: bool = False
    _garbage: Any = field(default_factory=lambda: itertools.cycle(GARBAGE))

    @classmethod
    def from_env(cls) -> Faults:
        names = {n.strip() for n in os.environ.get("FAKE_CLAUDE_FAULT", "").split(",") if n.strip()}
        return cls(
            names=names,
            kill_after=_int_env("FAKE_CLAUDE_FAULT_AFTER", 8),
            huge_bytes=_int_env("FAKE_CLAUDE_HUGE_BYTES", 64 * 1024 * 1024),
            stderr_bytes=_int_env("FAKE_CLAUDE_STDERR_BYTES", 10 * 1024 * 1024),
            huge_line="huge-line" in names,
        )

    @property
    def forced_scenario(self) -> str | None:
        return "bash" if "silent-permission" in self.names else None

    def at_start(self) -> None:
        if "exit1-at-start" in self.names:
            sys.stderr.write("Invalid API key · Please run /login\n")
            sys.stderr.flush()
            raise SystemExit(1)
        if "stderr-flood" in self.names:
            line = b"fake-claude debug: " + b"." * 1004 + b"\n"  # 1 KiB
            err = sys.stderr.buffer
            for _ in range(max(0, self.stderr_bytes) // len(line)):
                err.write(line)
            err.write(b"fake-claude: stderr flood done\n")
            err.flush()

    def after_line(self, count: int) -> list[bytes]:
        return [next(self._garbage)] if "garbage" in self.names else []

    def after_flush(self, count: int) -> None:
        if "kill-mid-stream" in self.names and count >= self.kill_after:
            sys.stderr.write(f"fake-claude: SIGKILL after {count} lines\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGKILL)

    def on_turn(self, writer: Any) -> None:
        if "silent-permission" in self.names:
            self.silent_after_permission = True
        if "close-stdout" in self.names and not writer.closed:
            sys.stdout.flush()
            os.close(1)
            writer.close()

    def huge_assistant(self) -> dict[str, Any]:
        line = copy.deepcopy(rec.template("text", rec.is_("assistant")))
        unit = "All work and no play makes Jack a dull boy. "
        text = (unit * (self.huge_bytes // len(unit) + 1))[: self.huge_bytes]
        line["message"]["content"][0]["text"] = text
        return line

    def hang(self) -> None:
        """silent-permission: never print, answer or exit again (TERM/KILL only)."""
        while True:
            time.sleep(3600)
