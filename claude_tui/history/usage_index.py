"""Every API call the transcripts record, kept in the session index's database for `claude-tui usage`.

Two tables beside the index's own: `usage_files` (each session transcript and subagent transcript
with its (mtime, size), how far it was read and its last `cost-state`) and `usage_calls` (one row
per record with a usage). :meth:`UsageIndex.refresh` revalidates them the way the index revalidates
its rows: an unchanged file is not opened, a grown one is read from where the last scan stopped, a
rewritten one again from the start. :meth:`UsageIndex.groups` then sums the calls in SQL, each call
once (see :func:`groups`), so a warm report reads no transcript at all.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .index import SessionIndex, _head_sig
from .usage_scan import UsageEntry, scan_usage

USAGE_VERSION = "1"
PERIODS = ("day", "week", "month", "project", "model", "session")


@dataclass(slots=True)
class CallGroup:
    """Deduplicated calls of one (day, key, model, session), summed."""

    day: str
    key: str
    model: str
    session_id: str
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    list_cost: float  # at list prices (or the records' own costUSD)
    unpriced: int  # calls in the group no price was found for


@dataclass(slots=True)
class SessionModel:
    """One session's calls of one model, summed over all its days: checked against its cost-state."""

    session_id: str
    model: str
    tokens: tuple[int, int, int, int]  # input, output, cache read, cache write
    list_cost: float


class UsageIndex:
    """Calls per transcript, on the connection of a :class:`SessionIndex` (same thread rules)."""

    def __init__(self, index: SessionIndex) -> None:
        self.index = index
        self.con = index.con
        self._ensure_tables()

    def _ensure_tables(self) -> None:
        got = self.con.execute("SELECT name FROM sqlite_master WHERE name='usage_info'").fetchone()
        if got is not None:
            row = self.con.execute("SELECT value FROM usage_info WHERE key='version'").fetchone()
            if row is not None and row[0] == USAGE_VERSION:
                return
        with self.con:
            for table in ("usage_calls", "usage_files", "usage_info"):
                self.con.execute(f"DROP TABLE IF EXISTS {table}")
            self.con.execute(
                "CREATE TABLE usage_files (id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, project TEXT,"
                " project_path TEXT, session_id TEXT, subagent INT, mtime_ns INT, size INT, offset INT,"
                " head_sig BLOB, cost_state TEXT)")
            self.con.execute("CREATE INDEX usage_files_project ON usage_files(project)")
            self.con.execute(
                "CREATE TABLE usage_calls (file_id INT NOT NULL, msg_id TEXT, req_id TEXT, ts REAL, model TEXT,"
                " inp INT, out INT, cread INT, cwrite INT, cost REAL, side INT)")
            self.con.execute("CREATE INDEX usage_calls_file ON usage_calls(file_id)")
            self.con.execute("CREATE INDEX usage_calls_msg ON usage_calls(msg_id)")
            self.con.execute("CREATE TABLE usage_info (key TEXT PRIMARY KEY, value TEXT)")
            self.con.execute("INSERT INTO usage_info VALUES ('version', ?)", (USAGE_VERSION,))

    # -- revalidation ---------------------------------------------------------
    def refresh(self, project_dirs: Iterable[Path] | None = None) -> int:
        """Bring the calls of ``project_dirs`` (default: all) up to date; returns the files read."""
        dirs = list(project_dirs) if project_dirs is not None else self.index.project_dirs(all_projects=True)
        self.index.refresh(dirs)
        names = [d.name for d in dirs]
        wanted = list(self._transcripts(names))
        known: dict[str, tuple[int, int, int, int, bytes]] = {}
        for chunk in _chunks(names, 500):
            marks = ",".join("?" * len(chunk))
            for fid, path, mtime_ns, size, offset, sig in self.con.execute(
                    f"SELECT id, path, mtime_ns, size, offset, head_sig FROM usage_files WHERE project IN ({marks})",
                    chunk):
                known[path] = (fid, mtime_ns, size, offset, sig)
        read = 0
        seen: set[str] = set()
        with self.con:
            for path, project, project_path, session_id, subagent in wanted:
                seen.add(path)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                old = known.get(path)
                if old is not None and old[1] == st.st_mtime_ns and old[2] == st.st_size:
                    continue
                read += 1
                self._read(path, st, old, (project, project_path, session_id, subagent))
            gone = [v[0] for p, v in known.items() if p not in seen]
            for chunk in _chunks(gone, 500):
                marks = ",".join("?" * len(chunk))
                self.con.execute(f"DELETE FROM usage_calls WHERE file_id IN ({marks})", chunk)
                self.con.execute(f"DELETE FROM usage_files WHERE id IN ({marks})", chunk)
        return read

    def _transcripts(self, projects: list[str]) -> Iterator[tuple[str, str, str, str, int]]:
        """(path, project, project path, session id, subagent?) of each session and its subagents."""
        for chunk in _chunks(projects, 500):
            marks = ",".join("?" * len(chunk))
            for path, project, cwd, session_id in self.con.execute(
                    f"SELECT path, project, cwd, session_id FROM files WHERE project IN ({marks})", chunk):
                project_path = cwd or project
                yield path, project, project_path, session_id, 0
                for agent in _subagent_paths(path):
                    yield agent, project, project_path, session_id, 1

    def _read(self, path: str, st: os.stat_result, old: tuple[int, int, int, int, bytes] | None,
              where: tuple[str, str, str, int]) -> None:
        offset = 0
        if old is not None:
            fid = old[0]
            if old[3] and st.st_size >= old[3] and old[4] == _head_sig(path, old[3]):
                offset = old[3]
            else:
                self.con.execute("DELETE FROM usage_calls WHERE file_id=?", (fid,))
        scan = scan_usage(path, offset)
        state = json.dumps(scan.cost_state) if scan.cost_state is not None else None
        sig = _head_sig(path, scan.offset)
        if old is None:
            cur = self.con.execute(
                "INSERT INTO usage_files (path, project, project_path, session_id, subagent, mtime_ns, size,"
                " offset, head_sig, cost_state) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (path, *where, st.st_mtime_ns, st.st_size, scan.offset, sig, state))
            fid = int(cur.lastrowid or 0)
        else:
            self.con.execute(
                "UPDATE usage_files SET project=?, project_path=?, session_id=?, subagent=?, mtime_ns=?, size=?,"
                " offset=?, head_sig=?, cost_state=COALESCE(?, CASE WHEN ? > 0 THEN cost_state END) WHERE id=?",
                (*where, st.st_mtime_ns, st.st_size, scan.offset, sig, state, offset, fid))
        self.con.executemany(
            "INSERT INTO usage_calls (file_id, msg_id, req_id, ts, model, inp, out, cread, cwrite, cost, side)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?)", [_call_row(fid, e) for e in scan.entries])

    # -- reading ------------------------------------------------------------------
    def cost_states(self, project_dirs: Iterable[Path] | None = None) -> dict[str, dict[str, Any]]:
        """session id → the `modelUsage` of its transcript's last cost-state."""
        out: dict[str, dict[str, Any]] = {}
        sql, args = _scoped("SELECT session_id, cost_state FROM usage_files WHERE subagent=0"
                            " AND cost_state IS NOT NULL", project_dirs, "AND")
        for session_id, text in self.con.execute(sql, args):
            try:
                value = json.loads(text)
            except ValueError:
                continue
            if isinstance(value, dict):
                out[session_id] = value
        return out

    def groups(self, by: str, project_dirs: Iterable[Path] | None = None,
               since: str | None = None, until: str | None = None) -> tuple[list[CallGroup], list[SessionModel]]:
        """The deduplicated calls summed per (day, ``by`` key, model, session) within [since, until]
        (local days, YYYY-MM-DD), and per (session, model) over all days (for the cost-state check)."""
        scope, args = _scoped("", project_dirs, "WHERE")
        day = "date(ts, 'unixepoch', 'localtime')"
        key = {"day": day, "week": f"date(ts, 'unixepoch', 'localtime', 'weekday 0', '-6 days')",
               "month": "strftime('%Y-%m', ts, 'unixepoch', 'localtime')", "project": "project_path",
               "model": "model", "session": "session_id"}[by]
        # One row per call, as ccusage keeps them: the same message id and request id is one call (the
        # record with the most tokens stands for it, a main-thread record before a sidechain's); a
        # sidechain's replay of a main-thread reply (same message id, new request id) is not a call.
        kept = (
            "WITH c AS (SELECT u.rowid AS rid, u.*, f.session_id, f.project_path,"
            " COALESCE(u.msg_id || char(0) || COALESCE(u.req_id, ''), 'r' || u.rowid) AS k"
            f" FROM usage_calls u JOIN usage_files f ON f.id = u.file_id {scope.replace('project', 'f.project')}),"
            " r AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY side, inp + out + cread + cwrite DESC, rid)"
            " AS n FROM c),"
            " kept AS (SELECT * FROM r WHERE n = 1 AND NOT (side = 1 AND msg_id IS NOT NULL AND EXISTS ("
            "SELECT 1 FROM c AS o WHERE o.msg_id = r.msg_id AND o.side = 0 AND o.k <> r.k)))")
        window = ""
        window_args: list[Any] = []
        if since:
            window += f" AND {day} >= ?"
            window_args.append(since)
        if until:
            window += f" AND {day} <= ?"
            window_args.append(until)
        group_sql = (kept + f" SELECT {day}, {key}, model, session_id, SUM(inp), SUM(out), SUM(cread), SUM(cwrite),"
                     " TOTAL(cost), SUM(cost IS NULL AND model <> '' AND inp + out + cread + cwrite > 0)"
                     f" FROM kept WHERE 1{window} GROUP BY 1, 2, 3, 4")
        groups = [CallGroup(*row) for row in self.con.execute(group_sql, [*args, *window_args])]
        session_sql = (kept + " SELECT session_id, model, SUM(inp), SUM(out), SUM(cread), SUM(cwrite), TOTAL(cost)"
                       " FROM kept GROUP BY 1, 2")
        sessions = [SessionModel(s, m, (i, o, r, w), c)
                    for s, m, i, o, r, w, c in self.con.execute(session_sql, args)]
        return groups, sessions


def _call_row(fid: int, e: UsageEntry) -> tuple[Any, ...]:
    return (fid, e.message_id, e.request_id, e.timestamp, e.model, e.input_tokens, e.output_tokens,
            e.cache_read_tokens, e.cache_write_tokens, e.list_cost, int(e.sidechain))


def _scoped(sql: str, project_dirs: Iterable[Path] | None, joiner: str) -> tuple[str, list[Any]]:
    if project_dirs is None:
        return sql, []
    names = [d.name for d in project_dirs]
    marks = ",".join("?" * len(names)) or "NULL"
    return f"{sql} {joiner} project IN ({marks})", names


def _subagent_paths(session_path: str) -> list[str]:
    """``<session>/subagents/**/agent-*.jsonl`` beside a session transcript (none: one failed stat)."""
    base = session_path[: -len(".jsonl")] + "/subagents"
    found: list[str] = []
    stack = [base]
    while stack:
        try:
            with os.scandir(stack.pop()) as it:
                for entry in it:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.name.startswith("agent-") and entry.name.endswith(".jsonl"):
                        found.append(entry.path)
        except OSError:
            continue
    return sorted(found)


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i: i + size]


def open_usage(root: Path | None = None, db_path: Path | None = None) -> tuple[SessionIndex, UsageIndex]:
    index = SessionIndex(db_path, root=root)
    return index, UsageIndex(index)

