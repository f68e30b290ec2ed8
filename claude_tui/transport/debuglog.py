"""`--debug-log FILE`: every raw line both ways, timestamped, with direction.

Format, one record per line::

    2025-01-01T12:00:00.123456 >> {"type":"user",...}      (to the CLI's stdin)
    2025-01-01T12:00:00.234567 << {"type":"assistant",...} (from the CLI's stdout)
    2025-01-01T12:00:00.345678 !! some stderr text         (the CLI's stderr)
    2025-01-01T12:00:00.456789 -- spawned pid 1234 ...     (transport notes)

Writes are synchronous and unbuffered-ish (line buffering): a debug log is for
post-mortems, so losing the last lines in a crash would defeat it.
"""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path
from typing import IO

TO_CLI = ">>"
FROM_CLI = "<<"
STDERR = "!!"
NOTE = "--"


class DebugLog:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # The log holds whole conversations and tool output: readable by the user only.
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self._fh: IO[str] | None = os.fdopen(fd, "a", encoding="utf-8", errors="replace", buffering=1)

    def write(self, direction: str, data: bytes | str) -> None:
        if self._fh is None:
            return
        text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
        stamp = _dt.datetime.now().isoformat(timespec="microseconds")
        # One record per physical line so the log stays greppable.
        text = text.rstrip("\n").replace("\r", "\\r").replace("\n", "\n" + " " * (len(stamp) + 4))
        try:
            self._fh.write(f"{stamp} {direction} {text}\n")
        except (OSError, ValueError):
            self._fh = None  # disk full / closed: stop logging, never break the app

    def note(self, text: str) -> None:
        self.write(NOTE, text)

    def close(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()
            finally:
                self._fh = None


def open_debug_log(target: str | Path | DebugLog | None) -> DebugLog | None:
    """Accept a path, an existing DebugLog, or None."""
    if target is None or isinstance(target, DebugLog):
        return target
    return DebugLog(target)
