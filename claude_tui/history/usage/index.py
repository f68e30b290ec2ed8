"""Every API call the transcripts record, kept in the session index's database for `claude-tui usage`.

Tables beside the index's own: `usage_files` (each session transcript and subagent transcript with
its (mtime, size), how far it was read, its directory and its last `cost-state`), `usage_calls` (one
row per call a file records, and whether it is the row that counts for that call) and `usage_sums`
(the counted calls of each file summed per local day and model). :meth:`UsageIndex.refresh`
revalidates them the way the index revalidates its rows: an unchanged file is not opened, a grown
one is read from where the last scan stopped (the head signature of the index), a rewritten one from
the start; only the calls those files share ids with are looked at again. A warm report then sums a
few rows per file and reads no transcript.

Which row counts for a call follows ccusage (so the two count the same calls): records with the same
message id and request id are one call, the one with the most tokens standing for it (a main-thread
record before a sidechain's); a sidechain's replay of a main-thread reply (the same message id with
a new request id, as a side question's log holds) is no call; a record with no message id is one.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_tui.protocol.pricing import CACHE_READ, CACHE_WRITE_1H, CACHE_WRITE_5M, PER_TOKENS, model_prices

from ..index import SessionIndex
from ..index_docs import head_sig
from ..paths import is_session_file_name, list_project_dirs
from . import pool
from .rows import K, UsageScan

USAGE_VERSION = "5"
PERIODS = ("day", "week", "month", "project", "model", "session")
_CALL_INDEXES = (("usage_calls_file", "file_id"), ("usage_calls_k", "k"))
# The rows of one message (whatever their request): its k's run from `msg\0` to before `msg\1`, so the
# index on k finds them, and no index of its own is built for the message id.
_SAME_MESSAGE = "{o}.k >= {s}.msg_id || char(0) AND {o}.k < {s}.msg_id || char(1)"


@dataclass(slots=True)
class CallGroup:
    """Counted calls of one (day, key, model, session), summed."""

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
    """All the calls one session's transcripts record of one model (counted there or, as a fork's copy
    of its parent's, elsewhere), summed over all its days: checked against its cost-state."""

    session_id: str
    model: str
    tokens: tuple[int, int, int, int]  # input, output, cache read, cache write
    list_cost: float


def _zone() -> str:
    """What local days depend on: when it changes (TZ), every call's day is worked out again."""
    return f"{time.tzname}:{time.timezone}:{time.altzone}:{time.daylight}"


class UsageIndex:
    """Calls per transcript, on the connection of a :class:`SessionIndex` (same thread rules)."""

    def __init__(self, index: SessionIndex) -> None:
        self.index = index
        self.con = index.con
        self._dirty: set[str] = set()  # calls whose rows changed in this refresh: who counts is decided again
        self._touched: set[int] = set()  # files whose sums are worked out again
        self._ensure_tables()

    def _ensure_tables(self) -> None:
        got = self.con.execute("SELECT name FROM sqlite_master WHERE name='usage_info'").fetchone()
        if got is not None:
            row = self.con.execute("SELECT value FROM usage_info WHERE key='version'").fetchone()
            if row is not None and row[0] == USAGE_VERSION:
                self._check_zone()
                return
        with self.con:
            for table in ("usage_sums", "usage_calls", "usage_files", "usage_info"):
                self.con.execute(f"DROP TABLE IF EXISTS {table}")
            self.con.execute(
                "CREATE TABLE usage_files (id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, project TEXT,"
                " project_path TEXT, session_id TEXT, subagent INT, mtime_ns INT, size INT, offset INT,"
                " head_sig BLOB, cost_state TEXT, started REAL)")
            self.con.execute("CREATE INDEX usage_files_project ON usage_files(project)")
            self.con.execute(
                "CREATE TABLE usage_calls (file_id INT NOT NULL, k TEXT, msg_id TEXT, ts REAL, day TEXT, model TEXT,"
                " inp INT, out INT, cread INT, cw5m INT, cw1h INT, own REAL, side INT, kept INT)")
            self._index_calls()
            self.con.execute(
                "CREATE TABLE usage_sums (file_id INT NOT NULL, day TEXT, model TEXT, calls INT, inp INT, out INT,"
                " cread INT, cwrite INT, cost REAL, unpriced INT, a_inp INT, a_out INT, a_cread INT, a_cwrite INT,"
                " a_cost REAL)")
            self.con.execute("CREATE INDEX usage_sums_file ON usage_sums(file_id)")
            self.con.execute("CREATE TABLE usage_info (key TEXT PRIMARY KEY, value TEXT)")
            self.con.execute("INSERT INTO usage_info VALUES ('version', ?)", (USAGE_VERSION,))
            self.con.execute("INSERT INTO usage_info VALUES ('zone', ?)", (_zone(),))

    def _index_calls(self) -> None:
        for name, column in _CALL_INDEXES:
            self.con.execute(f"CREATE INDEX IF NOT EXISTS {name} ON usage_calls({column})")

    def _check_zone(self) -> None:
        row = self.con.execute("SELECT value FROM usage_info WHERE key='zone'").fetchone()
        if row is not None and row[0] == _zone():
            return
        with self.con:
            self.con.execute("UPDATE usage_calls SET day = date(ts, 'unixepoch', 'localtime')")
            self.con.execute("DELETE FROM usage_sums")
            self._sum_files(None)
            self.con.execute("INSERT OR REPLACE INTO usage_info VALUES ('zone', ?)", (_zone(),))

    # -- revalidation ---------------------------------------------------------
    def refresh(self, project_dirs: Iterable[Path] | None = None) -> int:
        """Bring the calls of ``project_dirs`` (default: all) up to date; returns the files read."""
        dirs = list(project_dirs) if project_dirs is not None else list_project_dirs(self.index.root)
        names = [d.name for d in dirs]
        known: dict[str, tuple[int, int, int, int, bytes]] = {}
        for chunk in _chunks(names, 500):
            marks = ",".join("?" * len(chunk))
            for fid, path, mtime_ns, size, offset, sig in self.con.execute(
                    f"SELECT id, path, mtime_ns, size, offset, head_sig FROM usage_files WHERE project IN ({marks})",
                    chunk):
                known[path] = (fid, mtime_ns, size, offset, sig)
        read: list[int] = []
        seen: set[str] = set()
        self._dirty.clear()
        self._touched.clear()
        with self.con:
            todo: list[tuple[str, os.stat_result, tuple[int, int, int, int, bytes] | None, tuple[str, str, int]]] = []
            for path, st, project, session_id, subagent in _transcripts(dirs):
                seen.add(path)
                old = known.get(path)
                if old is not None and old[1] == st.st_mtime_ns and old[2] == st.st_size:
                    continue
                todo.append((path, st, old, (project, session_id, subagent)))
            offsets = [self._start(path, st, old) for path, st, old, _ in todo]
            # A first run inserts every call: the indexes are built once after it, not kept up row by row.
            empty = self.con.execute("SELECT 1 FROM usage_calls LIMIT 1").fetchone() is None
            bulk = len(todo) >= pool.MIN_FILES and empty
            if bulk:
                for name, _ in _CALL_INDEXES:
                    self.con.execute(f"DROP INDEX IF EXISTS {name}")
            jobs = [(path, offset, bulk) for (path, *_), offset in zip(todo, offsets)]
            sizes = [st.st_size - offset for (_, st, *_), offset in zip(todo, offsets)]
            for (path, st, old, where), offset, scan in zip(todo, offsets, pool.scans(jobs, sizes)):
                read.append(self._store(path, st, old, where, offset, scan, bulk))
            if bulk:
                self._index_calls()
                self._contested()
            gone = [v[0] for p, v in known.items() if p not in seen]
            for chunk in _chunks(gone, 500):
                marks = ",".join("?" * len(chunk))
                self._dirty.update(k for (k,) in self.con.execute(
                    f"SELECT k FROM usage_calls WHERE file_id IN ({marks}) AND k IS NOT NULL", chunk))
                for table, column in (("usage_calls", "file_id"), ("usage_sums", "file_id"), ("usage_files", "id")):
                    self.con.execute(f"DELETE FROM {table} WHERE {column} IN ({marks})", chunk)
            if read or gone:
                self._elect(first=bulk)
        return len(read)

    def _start(self, path: str, st: os.stat_result, old: tuple[int, int, int, int, bytes] | None) -> int:
        """Where the scan of ``path`` starts: where the last one stopped if the file only grew, else at 0,
        its old calls deleted."""
        if old is None:
            return 0
        if old[3] and st.st_size >= old[3] and old[4] == head_sig(path, old[3]):
            return old[3]
        self._dirty.update(k for (k,) in self.con.execute(
            "SELECT k FROM usage_calls WHERE file_id=? AND k IS NOT NULL", (old[0],)))
        self.con.execute("DELETE FROM usage_calls WHERE file_id=?", (old[0],))
        return 0

    def _store(self, path: str, st: os.stat_result, old: tuple[int, int, int, int, bytes] | None,
               where: tuple[str, str, int], offset: int, scan: UsageScan, bulk: bool = False) -> int:
        state = json.dumps(scan.cost_state) if scan.cost_state is not None else None
        sig = scan.head_sig
        if old is None:
            cur = self.con.execute(
                "INSERT INTO usage_files (path, project, session_id, subagent, project_path, mtime_ns, size,"
                " offset, head_sig, cost_state, started) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (path, *where, scan.cwd, st.st_mtime_ns, st.st_size, scan.offset, sig, state, scan.started))
            fid = int(cur.lastrowid or 0)
        else:
            fid = old[0]
            self.con.execute(
                "UPDATE usage_files SET project=?, session_id=?, subagent=?, project_path=COALESCE(?, project_path),"
                " mtime_ns=?, size=?, offset=?, head_sig=?,"
                " cost_state=COALESCE(?, CASE WHEN ? > 0 THEN cost_state END),"
                " started=COALESCE(?, started) WHERE id=?",
                (*where, scan.cwd, st.st_mtime_ns, st.st_size, scan.offset, sig, state, offset, scan.started, fid))
        # In a first run every row goes in counted; `_contested` then names the calls to elect.
        rows = [(fid, *fields[:-1], 1) if bulk else (fid, *fields) for fields in scan.rows]
        self.con.executemany(
            "INSERT INTO usage_calls (file_id, msg_id, ts, model, inp, out, cread, cw5m, cw1h, own, side, k,"
            " day, kept) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        if bulk:  # the scan's sums, every call counted: `_elect` takes out the ones it sets aside
            if old is not None:
                self.con.execute("DELETE FROM usage_sums WHERE file_id=?", (fid,))
            self.con.executemany("INSERT INTO usage_sums VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                                 [(fid, *row) for row in scan.sums])
        else:
            self._dirty.update(row[K + 1] for row in rows if row[K + 1] is not None)
            self._touched.add(fid)
        return fid

    def _contested(self) -> None:
        """After a first run's rows went in counted: the calls the election must look at are those with
        more than one row, and a sidechain's rows that replay a main-thread reply (which are no call)."""
        con = self.con
        self._dirty = {k for (k,) in con.execute(
            "SELECT k FROM usage_calls WHERE k IS NOT NULL GROUP BY k HAVING COUNT(*) > 1")}
        self._dirty.update(k for (k,) in con.execute(
            "SELECT k FROM usage_calls AS s WHERE side = 1 AND k IS NOT NULL AND EXISTS"
            f" (SELECT 1 FROM usage_calls AS o WHERE {_SAME_MESSAGE.format(o='o', s='s')} AND o.side = 0)"))

    def _elect(self, first: bool = False) -> None:
        """Which row counts for each call whose rows changed, then the sums of every file holding one
        (after a ``first`` run's, whose sums counted every call: those sums less the calls set aside)."""
        con = self.con
        (rows,) = con.execute("SELECT COUNT(*) FROM usage_calls").fetchone()
        if len(self._dirty) * 2 < rows:
            con.execute("CREATE TEMP TABLE IF NOT EXISTS usage_dirty (k TEXT PRIMARY KEY)")
            con.executemany("INSERT OR IGNORE INTO usage_dirty VALUES (?)", ((k,) for k in self._dirty))
            which = " WHERE k IN (SELECT k FROM usage_dirty)"
            u_which = " WHERE u.k IN (SELECT k FROM usage_dirty)"
            if not first:  # (a first run's sums are not summed again: `_take_out_set_aside`)
                self._touched.update(fid for (fid,) in con.execute(
                    f"SELECT DISTINCT file_id FROM usage_calls{which}"))
            msgs = f"SELECT DISTINCT msg_id FROM usage_calls{which}"
        else:  # most calls are new (a first run): all of them at once
            which = " WHERE k IS NOT NULL"
            u_which = " WHERE u.k IS NOT NULL"
            self._touched = set()
            msgs = None
        con.execute(f"UPDATE usage_calls SET kept = 0{which} AND kept = 1")  # a new row is 0: rewrite only the others
        # Ties go to the file that started first: a fork's copy of its parent's calls is the parent's.
        con.execute(
            "UPDATE usage_calls SET kept = 1 WHERE rowid IN (SELECT rid FROM (SELECT u.rowid AS rid, ROW_NUMBER() OVER"
            " (PARTITION BY u.k ORDER BY u.side, u.inp + u.out + u.cread + u.cw5m + u.cw1h DESC, f.started, u.rowid)"
            f" AS n FROM usage_calls u JOIN usage_files f ON f.id = u.file_id{u_which}) WHERE n = 1)")
        # A sidechain's replay of a main-thread reply is no call: looked at again wherever a message changed.
        candidates = "usage_calls AS s" if msgs is None else (
            f"({msgs}) AS d JOIN usage_calls AS s ON {_SAME_MESSAGE.format(o='s', s='d')}")
        con.execute(
            "UPDATE usage_calls SET kept = 0 WHERE rowid IN (SELECT s.rowid FROM"
            f" {candidates} WHERE s.kept = 1 AND s.side = 1 AND s.msg_id IS NOT NULL AND EXISTS"
            f" (SELECT 1 FROM usage_calls AS o WHERE {_SAME_MESSAGE.format(o='o', s='s')} AND o.side = 0"
            " AND o.k <> s.k))")
        if first:
            self._take_out_set_aside(which)
        elif self._touched:
            con.execute("CREATE TEMP TABLE IF NOT EXISTS usage_touched (file_id INTEGER PRIMARY KEY)")
            con.executemany("INSERT OR IGNORE INTO usage_touched VALUES (?)", ((f,) for f in self._touched))
            self._sum_files("SELECT file_id FROM usage_touched")
            con.execute("DELETE FROM usage_touched")
        else:
            self._sum_files(None)
        con.execute("DROP TABLE IF EXISTS temp.usage_dirty")

    def _take_out_set_aside(self, which: str) -> None:
        """A first run's sums counted every call (the scans summed them): take out the rows the election
        set aside (every row went in counted, so those are the rows of the calls elected, ``which``,
        now uncounted)."""
        scope = f" AND {which.removeprefix(' WHERE ')} AND kept = 0"
        self._price_models(scope)
        set_aside = self.con.execute(
            f"SELECT COUNT(*), SUM(inp), SUM(out), SUM(cread), SUM(cw5m + cw1h), TOTAL({_COST}),"
            f" SUM({_UNPRICED}), file_id, day, u.model FROM usage_calls AS u"
            f" LEFT JOIN temp.usage_prices AS p ON p.model = u.model WHERE 1{scope}"
            " GROUP BY file_id, day, u.model", _FACTORS).fetchall()
        self.con.executemany(
            "UPDATE usage_sums SET calls = calls - ?, inp = inp - ?, out = out - ?, cread = cread - ?,"
            " cwrite = cwrite - ?, cost = cost - ?, unpriced = unpriced - ?"
            " WHERE file_id = ? AND day = ? AND model = ?",
            set_aside)

    def _sum_files(self, which: str | None) -> None:
        scope = f" AND file_id IN ({which})" if which else ""
        self.con.execute(f"DELETE FROM usage_sums WHERE 1{scope}")
        self._price_models(scope)
        cost, unpriced = _COST, _UNPRICED
        # The counted calls (kept), and all the file's calls (a_*): a session's cost-state covers every
        # call in its transcript, the ones it shares with a fork's parent too.
        self.con.execute(
            "INSERT INTO usage_sums SELECT file_id, day, u.model, SUM(kept), SUM(inp * kept), SUM(out * kept),"
            f" SUM(cread * kept), SUM((cw5m + cw1h) * kept), TOTAL(kept * {cost}), SUM(kept AND {unpriced}),"
            f" SUM(inp), SUM(out), SUM(cread), SUM(cw5m + cw1h), TOTAL({cost})"
            " FROM usage_calls AS u LEFT JOIN temp.usage_prices AS p ON p.model = u.model"
            f" WHERE 1{scope} GROUP BY file_id, day, u.model", _FACTORS)

    def _price_models(self, scope: str) -> None:
        """The list prices of the models the calls in ``scope`` name, in a table the sums join (a
        model no price covers has no row: its calls are counted unpriced)."""
        con = self.con
        con.execute("CREATE TEMP TABLE IF NOT EXISTS usage_prices (model TEXT PRIMARY KEY, pin REAL, pout REAL)")
        known = {m for (m,) in con.execute("SELECT model FROM temp.usage_prices")}
        models = {m for (m,) in con.execute(f"SELECT DISTINCT model FROM usage_calls WHERE 1{scope}")}
        priced = [(m, *p) for m in models - known if m and (p := model_prices(m)) is not None]
        con.executemany("INSERT OR IGNORE INTO temp.usage_prices VALUES (?,?,?)", priced)

    # -- reading ------------------------------------------------------------------
    def cost_states(self, project_dirs: Iterable[Path] | None = None) -> dict[str, dict[str, Any]]:
        """session id → the `modelUsage` of its transcript's last cost-state."""
        out: dict[str, dict[str, Any]] = {}
        sql, args = _scoped("SELECT session_id, cost_state FROM usage_files WHERE subagent=0"
                            " AND cost_state IS NOT NULL", project_dirs)
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
        """The counted calls summed per (day, ``by`` key, model, session) within [since, until] (local
        days, YYYY-MM-DD), and per (session, model) over all days (for the cost-state check)."""
        key = {"day": "day", "week": "date(day, 'weekday 0', '-6 days')", "month": "substr(day, 1, 7)",
               "project": "COALESCE(f.project_path, f.project)", "model": "model", "session": "f.session_id"}[by]
        base, args = _scoped("FROM usage_sums s JOIN usage_files f ON f.id = s.file_id WHERE 1", project_dirs)
        window = ""
        window_args: list[Any] = []
        if since:
            window += " AND day >= ?"
            window_args.append(since)
        if until:
            window += " AND day <= ?"
            window_args.append(until)
        groups = [CallGroup(*row) for row in self.con.execute(
            f"SELECT day, {key}, model, f.session_id, SUM(inp), SUM(out), SUM(cread), SUM(cwrite), TOTAL(cost),"
            f" SUM(unpriced) {base}{window} GROUP BY 1, 2, 3, 4 HAVING SUM(calls) > 0", [*args, *window_args])]
        sessions = [SessionModel(s, m, (i, o, r, w), c) for s, m, i, o, r, w, c in self.con.execute(
            f"SELECT f.session_id, model, SUM(a_inp), SUM(a_out), SUM(a_cread), SUM(a_cwrite), TOTAL(a_cost) {base}"
            " GROUP BY 1, 2", args)]
        return groups, sessions


# A call's cost: its record's own, else its tokens at list price (`pricing.counts_cost`, which
# `message_cost` and `sums.file_sums` call: the same arithmetic, so the same figure to the last bit);
# a call nobody prices.
_COST = ("COALESCE(own, (inp * p.pin + cw5m * p.pin * :w5 + cw1h * p.pin * :w1 + cread * p.pin * :r"
         " + out * p.pout) / :per)")
_UNPRICED = "(own IS NULL AND p.pin IS NULL AND u.model <> '' AND inp + out + cread + cw5m + cw1h > 0)"
_FACTORS = {"w5": CACHE_WRITE_5M, "w1": CACHE_WRITE_1H, "r": CACHE_READ, "per": PER_TOKENS}


def _scoped(sql: str, project_dirs: Iterable[Path] | None) -> tuple[str, list[Any]]:
    if project_dirs is None:
        return sql, []
    names = [d.name for d in project_dirs]
    marks = ",".join("?" * len(names)) or "NULL"
    return f"{sql} AND project IN ({marks})", names


def _transcripts(dirs: list[Path]) -> Iterator[tuple[str, os.stat_result, str, str, int]]:
    """(path, stat, project, session id, subagent?) of each session transcript in ``dirs`` and of each
    subagent transcript beside one (``<session>/subagents/**/agent-*.jsonl``): one listing per project."""
    for pdir in dirs:
        try:
            with os.scandir(pdir) as it:
                entries = list(it)
        except OSError:
            continue
        sessions = {e.name[:-len(".jsonl")] for e in entries if is_session_file_name(e.name)}
        for entry in entries:
            try:
                if is_session_file_name(entry.name) and entry.is_file(follow_symlinks=False):
                    yield entry.path, entry.stat(follow_symlinks=False), pdir.name, entry.name[:-len(".jsonl")], 0
                elif entry.name in sessions and entry.is_dir(follow_symlinks=False):
                    for path in _subagent_paths(os.path.join(entry.path, "subagents")):
                        yield path, os.stat(path), pdir.name, entry.name, 1
            except OSError:
                continue


def _subagent_paths(base: str) -> list[str]:
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
