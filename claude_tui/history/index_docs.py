"""The session index's text (`index.py`): each transcript's search documents and message count, kept
up to date by reading only what was appended since the last scan.

A file whose first bytes changed, or that shrank, was rewritten: its documents are dropped and it is
scanned from the start. Functions over the index's connection; the index commits.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from functools import partial
from pathlib import Path
from typing import Any

from .scan import ScanState, scan_file

HEAD_SIG_BYTES = 4096


def head_sig(path: str, length: int) -> bytes:
    """A digest of the file's first bytes (up to where the last scan stopped): unchanged if it only grew."""
    try:
        with open(path, "rb") as fh:
            return head_digest(fh.read(min(length, HEAD_SIG_BYTES)))
    except OSError:
        return b""


def head_digest(head: bytes) -> bytes:
    """The signature of a file's first ``min(length, HEAD_SIG_BYTES)`` bytes, as :func:`head_sig` takes
    it (a scan that has read them already signs them without opening the file again)."""
    return hashlib.blake2b(head, digest_size=16).digest()


def stale_files(con: sqlite3.Connection, project_dirs: list[Path] | None) -> list[tuple[int, str]]:
    """(file id, path) of rows whose text lags their (mtime, size), oldest first."""
    sql = "SELECT id, path FROM files WHERE c_mtime_ns IS NOT mtime_ns OR c_size IS NOT size"
    args: list[Any] = []
    if project_dirs is not None:
        names = [d.name for d in project_dirs]
        if not names:
            return []
        sql += f" AND project IN ({','.join('?' * len(names))})"
        args = names
    # Oldest first: the newest get the highest rowids.
    return list(con.execute(sql + " ORDER BY last_active", args))


def lags(con: sqlite3.Connection, fid: int) -> bool:
    """File ``fid``'s text lags its (mtime, size)."""
    got = con.execute(
        "SELECT c_mtime_ns IS NOT mtime_ns OR c_size IS NOT size FROM files WHERE id=?", (fid,)
    ).fetchone()
    return bool(got and got[0])


def index_file(con: sqlite3.Connection, fid: int, path: str, *, fts: bool, keep_text: bool) -> None:
    """Scan file ``fid`` from where its last scan stopped (or from the start when it was rewritten);
    ``keep_text``: store its documents (an index in memory only counts messages)."""
    row = con.execute(
        "SELECT c_offset, c_turns, c_messages, c_last_msg_id, c_head_sig FROM files WHERE id=?", (fid,)
    ).fetchone()
    if row is None:
        return
    try:
        st = os.stat(path)
    except OSError:
        return  # gone: the next refresh removes the row
    offset, turns, messages, last_id, sig = row
    state = ScanState()
    if offset and st.st_size >= offset and sig == head_sig(path, offset):
        state = ScanState(offset=offset, turns=turns or 0, messages=messages or 0, last_msg_id=last_id or "")
    else:
        delete_docs(con, fid, fts=fts)
    state.earlier = partial(prompts_up_to, con, fid)
    state = scan_file(path, state)
    if state.docs and keep_text:
        cur = con.execute("SELECT COALESCE(MAX(id), 0) FROM docs")
        base = cur.fetchone()[0] + 1
        con.executemany(
            "INSERT INTO docs (id, file_id, uuid, kind, tool, turn, text) VALUES (?,?,?,?,?,?,?)",
            [
                (base + i, fid, d.uuid, d.kind, d.tool, d.turn, None if fts else d.text)
                for i, d in enumerate(state.docs)
            ],
        )
        if fts:
            con.executemany(
                "INSERT INTO fts (rowid, text) VALUES (?, ?)",
                [(base + i, d.text) for i, d in enumerate(state.docs)],
            )
    con.execute(
        "UPDATE files SET c_mtime_ns=?, c_size=?, c_offset=?, c_turns=?, c_messages=?, c_last_msg_id=?,"
        " c_head_sig=? WHERE id=?",
        (
            st.st_mtime_ns, st.st_size, state.offset, state.turns, state.messages, state.last_msg_id,
            head_sig(path, state.offset), fid,
        ),
    )


def prompts_up_to(con: sqlite3.Connection, fid: int, uuid: str) -> int | None:
    """The prompts on the branch up to record ``uuid`` of file ``fid``, from its indexed doc (a
    scan that starts where the last one stopped meets records that one read)."""
    row = con.execute("SELECT turn, kind FROM docs WHERE file_id=? AND uuid=? LIMIT 1", (fid, uuid)).fetchone()
    if row is None:
        return None
    turn, kind = row
    return int(turn) + 1  # a prompt opens its turn; any other record belongs to the turn open


def delete_docs(con: sqlite3.Connection, fid: int, *, fts: bool) -> None:
    if fts:
        con.execute("DELETE FROM fts WHERE rowid IN (SELECT id FROM docs WHERE file_id=?)", (fid,))
    con.execute("DELETE FROM docs WHERE file_id=?", (fid,))
