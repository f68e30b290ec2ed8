"""File primitives the stores share: the per-project file name, an exclusive lock, one appended line."""

from __future__ import annotations

import fcntl
import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def project_key(cwd: Path) -> str:
    resolved = str(cwd.resolve())
    # surrogateescape: a directory name that is not UTF-8 must not stop the app from starting.
    digest = hashlib.sha1(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    tail = "".join(ch if ch.isalnum() else "-" for ch in cwd.name)[:40]
    return f"{tail}-{digest}"


def open_lock(path: Path) -> int:
    """A descriptor of the lock file `path` (made 0600 in a 0700 directory), to `flock`."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold the lock file `path` (every instance's writers take the same one). Raises OSError."""
    fd = open_lock(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # held for one append or one compaction: moments
        yield
    finally:
        os.close(fd)  # closing drops the lock


def try_hold(path: Path) -> int | None:
    """The lock file `path` held by this descriptor, or None when someone else (another process, or
    another tab of this one: flock locks belong to the open file) holds it. Raises OSError."""
    fd = open_lock(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError:
        os.close(fd)
        raise
    return fd


def append_line(path: Path, line: str) -> None:
    """`line` (no newline of its own) and a newline, in one write to the end of `path`."""
    data = (line + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        written = os.write(fd, data)
        while written < len(data):  # a short write (a full disk gives an error instead)
            written += os.write(fd, data[written:])
    finally:
        os.close(fd)
