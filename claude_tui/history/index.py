"""A SQLite cache of session metadata and searchable text.

The database lives in ``platformdirs.user_cache_path("claude-tui")/sessions.sqlite``
(directory 0700; pass ``db_path`` to override). Rows are revalidated by
``(path, mtime_ns, size)``: :meth:`SessionIndex.refresh` stats every transcript
in scope and re-reads (head and tail only) the new and changed ones, and
removes rows of deleted files. :meth:`SessionIndex.index_content` then brings
the full-text index and message counts up to date, reading only the appended
bytes of files that grew (:mod:`.index_docs`). The tables: :mod:`.index_schema`.

Threads: a :class:`SessionIndex` owns one ``sqlite3`` connection, which may only
be used by the thread that created it. Open one per thread (in a Textual
``@work(thread=True)`` worker, construct the index inside the worker, use it,
then ``close()`` it, or use it as a context manager). The database is in WAL mode,
so a UI thread can read while a worker writes; writers wait on each other
(busy timeout 5 s). Nothing here writes under the CLI's config dir.

A cache that cannot be written (no directory, read-only, full disk, damaged file) never raises
here: the index moves into memory, keeps listing and counting, turns search off and says why
(:attr:`SessionIndex.unavailable`, :attr:`SessionIndex.search_note`; see :mod:`.index_db`).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .fork_tree import direct_parents, read_bytes
from .index_db import connect_in_memory, connect_on_disk, is_storage_fault, off_note, reason_of
from .index_docs import index_file, lags, stale_files
from .index_schema import META_COLS, ensure_schema
from .lineage import fork_parents
from .meta import SessionMeta, read_meta
from .names import NameStore
from .paths import default_index_path, iter_session_files, list_project_dirs, project_dir_for
from .search import SearchHit, search

FTS_NOTE = "SQLite FTS5 is not available in this Python's sqlite3: search falls back to a slower LIKE scan."
_COMMIT_EVERY_S = 0.5
_T = TypeVar("_T")


@dataclass(slots=True)
class SessionRow(SessionMeta):
    """A listing row: the metadata plus our own name and the (lazy) message count."""

    name: str | None = None
    message_count: int | None = None  # None until the content worker has scanned the file
    file_id: int = 0
    forked_from: str | None = None  # the parent's session id when this session is a fork of it

    @property
    def display_title(self) -> str:
        return self.name or self.title or "(no prompt)"


@dataclass(slots=True)
class RefreshStats:
    scanned: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)


def fts5_available() -> bool:
    try:
        con = sqlite3.connect(":memory:")
        try:
            con.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
        finally:
            con.close()
    except sqlite3.OperationalError:
        return False
    return True


class SessionIndex:
    """Session metadata + full-text index. One instance per thread (see module doc)."""

    def __init__(self, db_path: Path | None = None, *, root: Path | None = None,
                 names: NameStore | None = None) -> None:
        self.db_path = Path(db_path) if db_path is not None else default_index_path(root)
        self.root = root  # CLI config root; None = $CLAUDE_CONFIG_DIR or ~/.claude
        self.names = names if names is not None else NameStore()
        self.fts = fts5_available()
        self.unavailable: str | None = None
        """Why the index lives in memory (the cache could not be written); None while it is on disk."""
        self._scope: list[Path] | None = None  # what the last refresh covered: refilled after a fault
        try:
            self.con = connect_on_disk(self.db_path)
            self._ensure_schema()
        except (OSError, sqlite3.Error) as error:
            if not is_storage_fault(error):
                raise
            self._to_memory(error)

    @property
    def search_note(self) -> str | None:
        """Why search is off or slow, in words; None when it is neither."""
        if self.unavailable is not None:
            return off_note(self.db_path, self.unavailable)
        return None if self.fts else FTS_NOTE

    def _to_memory(self, error: BaseException) -> None:
        con = getattr(self, "con", None)
        if con is not None:
            try:
                con.close()
            except sqlite3.Error:
                pass
        self.unavailable = reason_of(error)
        self.con = connect_in_memory()
        self._ensure_schema()

    def _guarded(self, run: Callable[[], _T], *, refill: bool = True) -> _T:
        """``run()``; after a storage fault, again on an index in memory (refilled with the last
        refresh's scope first unless ``run`` is that refresh)."""
        try:
            return run()
        except sqlite3.Error as error:
            if self.unavailable is not None or not is_storage_fault(error):
                raise
            self._to_memory(error)
            if refill and self._scope is not None:
                self._refresh(self._scope)
            return run()

    # -- lifecycle ---------------------------------------------------------
    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> SessionIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ensure_schema(self) -> None:
        ensure_schema(self.con, self.fts)

    # -- scope ---------------------------------------------------------------
    def project_dirs(self, cwd: str | os.PathLike[str] | None = None, all_projects: bool = False) -> list[Path]:
        """The project dirs in scope: every project, or just ``cwd``'s (maybe none)."""
        if all_projects or cwd is None:
            return list_project_dirs(self.root)
        pdir = project_dir_for(cwd, self.root)
        return [pdir] if pdir is not None else []

    # -- metadata ------------------------------------------------------------
    def refresh(self, project_dirs: Iterable[Path] | None = None) -> RefreshStats:
        """Revalidate the rows of ``project_dirs`` (default: all) against the disk."""
        dirs = list(project_dirs) if project_dirs is not None else list_project_dirs(self.root)
        self._scope = dirs
        return self._guarded(lambda: self._refresh(dirs), refill=False)

    def _refresh(self, dirs: list[Path]) -> RefreshStats:
        started = time.perf_counter()
        stats = RefreshStats()
        names = [d.name for d in dirs]
        known: dict[str, tuple[int, int, int]] = {}
        for chunk in _chunks(names, 500):
            marks = ",".join("?" * len(chunk))
            for fid, path, mtime_ns, size in self.con.execute(
                f"SELECT id, path, mtime_ns, size FROM files WHERE project IN ({marks})", chunk
            ):
                known[path] = (fid, mtime_ns, size)
        upserts: list[SessionMeta] = []
        seen: set[str] = set()
        for pdir in dirs:
            for entry in iter_session_files(pdir):
                stats.scanned += 1
                seen.add(entry.path)
                try:
                    st = entry.stat()
                except OSError:
                    continue
                old = known.get(entry.path)
                if old is not None and old[1] == st.st_mtime_ns and old[2] == st.st_size:
                    stats.unchanged += 1
                    continue
                meta = _read_meta_safely(entry.path, pdir.name)
                if meta is None:  # empty, vanished or unreadable: not listed (the others still are)
                    continue
                upserts.append(meta)
                if old is None:
                    stats.added += 1
                else:
                    stats.updated += 1
        gone = [v[0] for p, v in known.items() if p not in seen]
        stats.removed = len(gone)
        with self.con:
            if upserts:
                cols = ", ".join(META_COLS)
                marks = ", ".join("?" * len(META_COLS))
                updates = ", ".join(f"{c}=excluded.{c}" for c in META_COLS if c != "path")
                self.con.executemany(
                    f"INSERT INTO files ({cols}) VALUES ({marks}) ON CONFLICT(path) DO UPDATE SET {updates}",
                    [tuple(getattr(m, c) for c in META_COLS) for m in upserts],
                )
            if gone:
                self._delete_files(gone)
        stats.seconds = time.perf_counter() - started
        return stats

    def _delete_files(self, file_ids: Sequence[int]) -> None:
        for chunk in _chunks(list(file_ids), 500):
            marks = ",".join("?" * len(chunk))
            if self.fts:
                self.con.execute(
                    f"DELETE FROM fts WHERE rowid IN (SELECT id FROM docs WHERE file_id IN ({marks}))", chunk
                )
            self.con.execute(f"DELETE FROM docs WHERE file_id IN ({marks})", chunk)
            self.con.execute(f"DELETE FROM files WHERE id IN ({marks})", chunk)

    def sessions(
        self,
        project_dirs: Iterable[Path] | None = None,
        *,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[SessionRow]:
        """Rows from the index (no disk access), newest activity first."""
        dirs = None if project_dirs is None else list(project_dirs)
        return self._guarded(lambda: self._sessions(dirs, limit, offset))

    def _sessions(self, project_dirs: list[Path] | None, limit: int | None, offset: int) -> list[SessionRow]:
        sql = "SELECT * FROM files"
        args: list[Any] = []
        if project_dirs is not None:
            names = [d.name for d in project_dirs]
            if not names:
                return []
            sql += f" WHERE project IN ({','.join('?' * len(names))})"
            args += names
        sql += " ORDER BY last_active DESC, session_id"
        if limit is not None and limit > 0:
            sql += " LIMIT ? OFFSET ?"
            args += [limit, offset]
        cur = self.con.execute(sql, args)
        cols = [d[0] for d in cur.description]
        user_names = self.names.all()
        rows: list[SessionRow] = []
        for values in cur:
            rec = dict(zip(cols, values))
            row = SessionRow(**{c: rec[c] for c in META_COLS})
            row.file_id = rec["id"]
            row.name = user_names.get(row.session_id)
            row.message_count = rec["c_messages"]
            rows.append(row)
        self._mark_forks(rows)
        return rows

    def _mark_forks(self, rows: list[SessionRow]) -> None:
        """Set ``forked_from`` on the rows that are forks (their parents may be outside ``rows``)."""
        roots = sorted({row.root_uuid for row in rows if row.root_uuid})
        members: list[tuple[str, str | None, float | None, str]] = []
        for chunk in _chunks(roots, 500):
            members += self.con.execute(
                "SELECT session_id, root_uuid, created, path FROM files "
                f"WHERE root_uuid IN ({','.join('?' * len(chunk))})", chunk).fetchall()
        parents = fork_parents((m[0], m[1], m[2]) for m in members)
        # Two forks or more of one lineage: which is whose is read from the transcripts (a fork of a
        # fork under its real parent); a lone fork's parent is the original, no reading needed.
        lineages: dict[str, list[tuple[str, float, str]]] = {}
        for session_id, root, created, path in members:
            if root and created is not None and (session_id in parents or session_id in parents.values()):
                lineages.setdefault(root, []).append((session_id, created, path))
        for group in lineages.values():
            forks = [m for m in group if m[0] in parents]
            if len(forks) > 1:
                parents.update(direct_parents(group, parents[forks[0][0]], read_bytes))
        for row in rows:
            row.forked_from = parents.get(row.session_id)

    def list_sessions(
        self, cwd: str | os.PathLike[str] | None = None, *, all_projects: bool = False, limit: int | None = None
    ) -> list[SessionRow]:
        """Revalidate the scope, then list it (what ``claude-tui sessions`` does)."""
        dirs = self.project_dirs(cwd, all_projects)
        self.refresh(dirs)
        return self.sessions(dirs, limit=limit)

    # -- content (full-text + message counts) --------------------------------
    def stale_content(self, project_dirs: Iterable[Path] | None = None) -> list[tuple[int, str]]:
        """(file id, path) of rows whose text index lags their (mtime, size)."""
        dirs = None if project_dirs is None else list(project_dirs)
        return self._guarded(lambda: self._stale_content(dirs))

    def _stale_content(self, project_dirs: list[Path] | None) -> list[tuple[int, str]]:
        return stale_files(self.con, project_dirs)

    def index_content(
        self,
        project_dirs: Iterable[Path] | None = None,
        *,
        should_stop: Callable[[], bool] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> int:
        """Bring search docs and message counts up to date; returns files (re)scanned.

        Appended files are scanned from where the last scan stopped; rewritten
        ones (head changed or shrunk) are rescanned. Commits every half second,
        so ``should_stop`` can cancel without losing finished work. An index in memory counts
        messages but keeps no text (search is off there).
        """
        dirs = None if project_dirs is None else list(project_dirs)
        return self._guarded(lambda: self._index_content(dirs, should_stop, progress))

    def _index_content(self, project_dirs: list[Path] | None, should_stop: Callable[[], bool] | None,
                       progress: Callable[[int, int], None] | None) -> int:
        todo = self._stale_content(project_dirs)
        done = 0
        last_commit = time.perf_counter()
        try:
            for fid, path in todo:
                if should_stop is not None and should_stop():
                    break
                self._index_one(fid, path)
                done += 1
                if progress is not None:
                    progress(done, len(todo))
                if time.perf_counter() - last_commit > _COMMIT_EVERY_S:
                    self.con.commit()
                    last_commit = time.perf_counter()
        finally:
            self.con.commit()
        return done

    def _index_one(self, fid: int, path: str) -> None:
        index_file(self.con, fid, path, fts=self.fts, keep_text=self.unavailable is None)

    def message_count(self, row: SessionRow) -> int:
        """The message count of one row, scanning its file now if the index lags."""
        return self._guarded(lambda: self._message_count(row))

    def _message_count(self, row: SessionRow) -> int:
        # By path: an index that moved into memory gave the row another id.
        found = self.con.execute("SELECT id FROM files WHERE path=?", (row.path,)).fetchone()
        if found is None:
            return row.message_count or 0
        row.file_id = found[0]
        if row.message_count is None or self.stale_content_for(row.file_id):
            self._index_one(row.file_id, row.path)
            self.con.commit()
            got = self.con.execute("SELECT c_messages FROM files WHERE id=?", (row.file_id,)).fetchone()
            row.message_count = got[0] if got else 0
        return row.message_count or 0

    def stale_content_for(self, fid: int) -> bool:
        return lags(self.con, fid)

    # -- search ----------------------------------------------------------------
    def search(self, query: str, project_dirs: Iterable[Path] | None = None, *, limit: int = 50,
               per_session: int = 3) -> list[SearchHit]:
        """Full-text search; see :func:`claude_tui.history.search.search`. Nothing while the index is
        in memory (:attr:`search_note` says why)."""
        if self.unavailable is not None:
            return []
        dirs = None if project_dirs is None else list(project_dirs)
        hits = self._guarded(lambda: self._search(query, dirs, limit, per_session), refill=False)
        return [] if self.unavailable is not None else hits

    def _search(self, query: str, project_dirs: list[Path] | None, limit: int, per_session: int) -> list[SearchHit]:
        return search(self.con, query, project_dirs, fts=self.fts, names=self.names.all(), limit=limit,
                      per_session=per_session)


def _read_meta_safely(path: str, project: str) -> SessionMeta | None:
    """:func:`read_meta`, or None for a transcript it cannot make sense of or that SQLite cannot store:
    one bad file must never keep the others from being listed."""
    try:
        meta = read_meta(path, project)
        if meta is not None:
            meta.path.encode("utf-8")  # a non-UTF-8 file name (surrogate-escaped) cannot be a key
    except (ValueError, RecursionError, UnicodeError):
        return None
    return meta


def _chunks(items: list[Any], size: int) -> Iterable[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]

