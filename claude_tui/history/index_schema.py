"""The tables of the session index (`index.py`): one row per transcript (its metadata and how far its
text was indexed), its search documents, and the FTS5 table over them when SQLite has FTS5.

A database of another schema version, or built for the other search mode, is dropped and rebuilt:
it is a cache, refilled from the transcripts.
"""

from __future__ import annotations

import sqlite3
from dataclasses import fields

from .meta import SessionMeta

# 7: last active is the last record's time, not the mtime, and a doc's turn is counted along its
# own branch (a rewind); 6: prompts queued mid-turn are prompts,
# task notifications are not; 5: outputs' own turn
SCHEMA_VERSION = 7
META_COLS = [f.name for f in fields(SessionMeta)]
"""The metadata columns of ``files``, in `SessionMeta`'s order."""


def ensure_schema(con: sqlite3.Connection, fts: bool) -> None:
    """The tables of this version and search mode (``fts``: FTS5, else a LIKE scan over ``docs``)."""
    (version,) = con.execute("PRAGMA user_version").fetchone()
    mode = "fts" if fts else "like"
    if version == SCHEMA_VERSION:
        row = con.execute("SELECT value FROM info WHERE key='mode'").fetchone()
        if row and row[0] == mode:
            return
    with con:
        for table in ("files", "docs", "fts", "info"):
            con.execute(f"DROP TABLE IF EXISTS {table}")
        meta_cols = ", ".join(c for c in META_COLS if c != "path")
        con.execute(
            f"CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, {meta_cols},"
            " c_mtime_ns INT, c_size INT, c_offset INT DEFAULT 0, c_turns INT DEFAULT 0,"
            " c_messages INT, c_last_msg_id TEXT DEFAULT '', c_head_sig BLOB)"
        )
        con.execute("CREATE INDEX files_project ON files(project, last_active)")
        con.execute("CREATE INDEX files_active ON files(last_active)")
        con.execute("CREATE INDEX files_session ON files(session_id)")
        con.execute("CREATE INDEX files_root ON files(root_uuid)")
        con.execute(
            "CREATE TABLE docs (id INTEGER PRIMARY KEY, file_id INT NOT NULL, uuid TEXT,"
            " kind TEXT, tool TEXT, turn INT, text TEXT)"
        )
        con.execute("CREATE INDEX docs_file ON docs(file_id)")
        if fts:
            con.execute("CREATE VIRTUAL TABLE fts USING fts5(text, tokenize='unicode61 remove_diacritics 2')")
        con.execute("CREATE TABLE info (key TEXT PRIMARY KEY, value TEXT)")
        con.execute("INSERT INTO info VALUES ('mode', ?)", (mode,))
        con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
