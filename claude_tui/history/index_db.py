"""The index's database, and what happens when the cache cannot hold it.

The index is only a cache of what the transcripts say: a cache directory that cannot be created,
a read-only one, a full disk or a damaged file must never keep a session from being listed. Then
the index lives in memory for the rest of its life (metadata and message counts only: a full-text
copy of every transcript in memory would cost what the disk could not give), search is off, and
:func:`off_note` says why in words, once, wherever search is asked for.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from claude_tui import paths as app_paths
from claude_tui.protocol.sanitize import printable


class IndexUnavailable(Exception):
    """The on-disk index cannot be opened or written (its ``reason`` is a short phrase)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def is_storage_fault(error: BaseException) -> bool:
    """A fault of the disk under the cache (full, read-only, gone, damaged), not a bug of ours.

    ``OperationalError`` covers "database or disk is full", "attempt to write a readonly database",
    "unable to open database file", "disk I/O error" and a lock held past the busy timeout; a bare
    ``DatabaseError`` is a file that is not (or no longer) a database. Programming and integrity
    errors are bugs and stay loud."""
    return isinstance(error, OSError) or type(error) in (sqlite3.OperationalError, sqlite3.DatabaseError)


def reason_of(error: BaseException) -> str:
    if isinstance(error, OSError):
        return printable(error.strerror or str(error))
    return printable(str(error))


def connect_on_disk(db_path: Path) -> sqlite3.Connection:
    """The database at ``db_path`` (directory 0700, file 0600, WAL); raises on any storage fault."""
    app_paths.private_dir(db_path.parent)
    _private_file(db_path)
    con = sqlite3.connect(db_path, timeout=5.0)
    try:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        con.close()
        raise
    return con


def connect_in_memory() -> sqlite3.Connection:
    return sqlite3.connect(":memory:")


def off_note(db_path: Path, reason: str) -> str:
    """What search says instead of searching when the index could not be written."""
    return (f"Search is off: the session index cannot be written in {printable(str(db_path.parent))} "
            f"({reason}); sessions are listed from the transcripts.")


def _private_file(db_path: Path) -> None:
    """The index holds a full-text copy of every transcript: create it 0600.

    SQLite gives its -wal/-shm files the database file's permissions.
    """
    try:
        fd = os.open(db_path, os.O_CREAT | os.O_RDWR, 0o600)
        os.close(fd)
        os.chmod(db_path, 0o600)
    except OSError:
        pass  # sqlite's own open says what is wrong
