"""Full-text search over the index: prompts, answers, thinking, tool calls (name and input), tool output.

A query over the index's tables (``files``, ``docs`` and, when SQLite has FTS5, ``fts``):
it takes the connection, not the :class:`~claude_tui.history.index.SessionIndex`, so the
index (which offers it as ``SessionIndex.search``) sits on top of it.

Hits point to the matching record (``uuid``) and turn, and carry a one-line
snippet with highlight ranges ``(start, end)``. Snippets are cut from the
sanitised indexed text (no control characters) in Python; no markup involved.

Ranking: when a query matches at most ``RANK_CAP`` documents they are ordered
by FTS5's bm25 rank; broader queries (where bm25 over every match would cost
hundreds of milliseconds) are ordered newest first (rowids grow with indexing
order, and the content worker indexes the least recently active files first).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

_Candidate = tuple[int, int, str | None, str | None, int | None, str | None]
"""A matching doc: (docs.id, file_id, uuid, kind, turn, tool)."""

_TOKEN_RE = re.compile(r"\w+", re.UNICODE)
RANK_CAP = 1000
SNIPPET_CONTEXT = 40  # characters either side of the first match


@dataclass(slots=True)
class SearchHit:
    session_id: str
    path: str
    project: str
    title: str  # our name if any, else the session's title
    uuid: str  # the matching record
    turn: int  # 0-based user turn the record belongs to
    kind: str  # prompt | answer | thinking | tool (a call: name and input) | output (a call's output)
    snippet: str
    highlights: list[tuple[int, int]] = field(default_factory=list)  # ranges in snippet
    last_active: float = 0.0
    tool: str = ""  # the tool's name for tool and output hits

    @property
    def where(self) -> str:
        """Where the match is, in the user's words: ``prompt``, ``answer``, ``Bash call``, ``Bash output`` …"""
        if self.kind == "tool":
            return f"{self.tool or 'tool'} call"
        if self.kind == "output":
            return f"{self.tool or 'tool'} output"
        return self.kind


def fts_query(text: str) -> str | None:
    """User text → a safe FTS5 query: every word must match, the last as a prefix."""
    tokens = _TOKEN_RE.findall(text)
    if not tokens:
        return None
    parts = [f'"{t}"' for t in tokens]
    parts[-1] += "*"
    return " ".join(parts)


def make_snippet(text: str, tokens: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """A window of ``text`` around the first matching word, and the matching word ranges."""
    wanted = [t.lower() for t in tokens]
    last = wanted[-1] if wanted else ""

    def hit(word: str) -> bool:
        w = word.lower()
        return w in wanted or (bool(last) and w.startswith(last))

    words = [(m.start(), m.end()) for m in _TOKEN_RE.finditer(text) if hit(m.group())]
    first = words[0][0] if words else 0
    begin = max(0, first - SNIPPET_CONTEXT)
    if begin:
        space = text.rfind(" ", begin, first)
        begin = space + 1 if space >= 0 else begin
    end = min(len(text), first + SNIPPET_CONTEXT * 2)
    if end < len(text):
        space = text.find(" ", end)
        end = space if 0 <= space < end + 20 else end
    prefix = "\u2026" if begin else ""
    snippet = prefix + text[begin:end] + ("\u2026" if end < len(text) else "")
    shift = len(prefix) - begin
    ranges = [(a + shift, b + shift) for a, b in words if a >= begin and b <= end]
    return snippet, ranges


def _scope_sql(project_dirs: Iterable[Path] | None) -> tuple[str, list[object]] | None:
    if project_dirs is None:
        return "", []
    names = [d.name for d in project_dirs]
    if not names:
        return None
    return f" AND d.file_id IN (SELECT id FROM files WHERE project IN ({','.join('?' * len(names))}))", list(names)


def _candidates(con: sqlite3.Connection, fts: bool, query: str, scope: str, args: list[object],
                fetch: int) -> list[_Candidate]:
    """The best ``fetch`` matches."""
    cols = "d.id, d.file_id, d.uuid, d.kind, d.turn, d.tool"
    if not fts:
        tokens = _TOKEN_RE.findall(query)
        likes = " AND ".join("d.text LIKE ? ESCAPE '\\'" for _ in tokens)
        pats = ["%" + t.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%" for t in tokens]
        sql = f"SELECT {cols} FROM docs d WHERE {likes}{scope} ORDER BY d.id DESC LIMIT ?"
        return con.execute(sql, [*pats, *args, fetch]).fetchall()
    match = fts_query(query)
    newest = [r for (r,) in con.execute("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ?",
                                        (match, RANK_CAP + 1))]
    if len(newest) > RANK_CAP and not scope:
        # A broad query over everything: the newest matches are already in hand; no second FTS pass.
        wanted = newest[:fetch]
        by_id = {row[0]: row for row in con.execute(
            f"SELECT {cols} FROM docs d WHERE d.id IN ({','.join('?' * len(wanted))})", wanted)}
        return [by_id[i] for i in wanted if i in by_id]
    order = "fts.rank" if len(newest) <= RANK_CAP else "fts.rowid DESC"
    sql = f"SELECT {cols} FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ?{scope} ORDER BY {order} LIMIT ?"
    return con.execute(sql, [match, *args, fetch]).fetchall()


def search(
    con: sqlite3.Connection,
    query: str,
    project_dirs: Iterable[Path] | None = None,
    *,
    fts: bool,
    names: Mapping[str, str],
    limit: int = 50,
    per_session: int = 3,
) -> list[SearchHit]:
    """Best (or, for broad queries, newest) matches; ``per_session`` per session, ``limit`` in all.

    ``fts``: the ``fts`` table exists (else a LIKE scan of ``docs``); ``names``: our session names,
    which win over the sessions' own titles."""
    tokens = _TOKEN_RE.findall(query)
    scoped = _scope_sql(project_dirs)
    if not tokens or scoped is None:
        return []
    scope, args = scoped
    rows = _candidates(con, fts, query, scope, args, max(limit * per_session * 4, 100))
    chosen: list[_Candidate] = []
    per: dict[int, int] = {}
    for row in rows:
        if per.get(row[1], 0) < per_session:
            per[row[1]] = per.get(row[1], 0) + 1
            chosen.append(row)
            if len(chosen) >= limit:
                break
    if not chosen:
        return []
    doc_ids = [r[0] for r in chosen]
    table, col = ("fts", "rowid") if fts else ("docs", "id")
    marks = ",".join("?" * len(doc_ids))
    texts = dict(con.execute(f"SELECT {col}, text FROM {table} WHERE {col} IN ({marks})", doc_ids))
    file_ids = sorted({r[1] for r in chosen})
    files = {
        fid: rest
        for fid, *rest in con.execute(
            "SELECT id, session_id, path, project, title, last_active FROM files"
            f" WHERE id IN ({','.join('?' * len(file_ids))})",
            file_ids,
        )
    }
    hits: list[SearchHit] = []
    for doc_id, fid, uuid, kind, turn, tool in chosen:
        info = files.get(fid)
        if info is None:
            continue
        sid, path, project, title, active = info
        snippet, ranges = make_snippet(texts.get(doc_id) or "", tokens)
        hits.append(SearchHit(sid, path, project, names.get(sid) or title or "", uuid or "", turn or 0, kind or "",
                              snippet, ranges, active or 0.0, tool or ""))
    return hits
