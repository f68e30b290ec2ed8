"""``claude-tui sessions``, ``search`` and ``export``: plain text or JSON on ``out``.

Tables are plain aligned text with no markup; every cell is sanitised.
Exit codes: 0 ok, 1 nothing found / bad input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import TextIO

from .export import to_json, to_markdown
from .index import SessionIndex, SessionRow
from .meta import read_meta
from .names import NameStore
from .resolve import resolve_session
from .text import clean
from .transcript import load_transcript

TITLE_WIDTH = 60
SNIPPET_WIDTH = 80


def _when(ts: float | None) -> str:
    if not ts:
        return "-"
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned columns separated by two spaces; the last column is not padded."""
    cells = [[clean(str(c)) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    lines = []
    for row in [list(headers), *cells]:
        parts = [c.ljust(widths[i]) if i < len(row) - 1 else c for i, c in enumerate(row)]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines) + "\n"


def _row_json(row: SessionRow) -> dict[str, object]:
    data = asdict(row)
    data.pop("file_id", None)
    data["display_title"] = row.display_title
    return data


def _open_index(index: SessionIndex | None, root: Path | None,
                names: NameStore | None = None) -> tuple[SessionIndex, bool]:
    if index is not None:
        return index, False
    return SessionIndex(root=root, names=names), True


def sessions_command(
    all_projects: bool, limit: int, as_json: bool, cwd: Path, out: TextIO,
    *, index: SessionIndex | None = None, root: Path | None = None,
) -> int:
    """List sessions of ``cwd``'s project (or all), newest first."""
    idx, owned = _open_index(index, root)
    try:
        rows = idx.list_sessions(cwd, all_projects=all_projects, limit=limit if limit > 0 else None)
        for row in rows:  # counts for just the rows shown (a full scan of each, if not indexed yet)
            idx.message_count(row)
    finally:
        if owned:
            idx.close()
    if as_json:
        out.write(json.dumps([_row_json(r) for r in rows], ensure_ascii=False, indent=1) + "\n")
        return 0
    if not rows:
        scope = "any project" if all_projects else str(cwd)
        out.write(f"No sessions found for {clean(scope)}.\n")
        return 0
    headers = ["SESSION", "LAST ACTIVE", "MSGS", "COST", "BRANCH", "PROJECT", "TITLE"] if all_projects else \
        ["SESSION", "LAST ACTIVE", "MSGS", "COST", "BRANCH", "TITLE"]
    table = []
    for r in rows:
        cells = [
            r.session_id, _when(r.last_active), "-" if r.message_count is None else str(r.message_count),
            "-" if r.cost_usd is None else f"${r.cost_usd:.2f}", clean(r.git_branch or "-", 24),
        ]
        if all_projects:
            cells.append(clean(r.cwd or r.project, 40))
        fork = f"(fork of {r.forked_from[:8]}) " if r.forked_from else ""
        cells.append(fork + clean(r.display_title, TITLE_WIDTH))
        table.append(cells)
    out.write(format_table(headers, table))
    return 0


def search_command(
    query: str, all_projects: bool, as_json: bool, cwd: Path, out: TextIO,
    *, index: SessionIndex | None = None, root: Path | None = None, limit: int = 50,
) -> int:
    """Full-text search of the current project's sessions (or all)."""
    idx, owned = _open_index(index, root)
    try:
        dirs = idx.project_dirs(cwd, all_projects)
        idx.refresh(dirs)
        idx.index_content(dirs)
        hits = idx.search(query, dirs, limit=limit)
        note, off = idx.search_note, idx.unavailable is not None
    finally:
        if owned:
            idx.close()
    if off:  # "no matches" would be a lie: nothing was searched
        print(f"claude-tui: {note}", file=sys.stderr)
        return 1
    if note:
        print(f"note: {note}", file=sys.stderr)
    if as_json:
        out.write(json.dumps([{**asdict(h), "where": h.where} for h in hits], ensure_ascii=False, indent=1) + "\n")
        return 0 if hits else 1
    if not hits:
        out.write(f"No matches for {clean(query, 80)!r}.\n")
        return 1
    table = [
        [h.session_id, str(h.turn + 1), h.where, _when(h.last_active), clean(h.title, 40),
         clean(h.snippet, SNIPPET_WIDTH)]
        for h in hits
    ]
    out.write(format_table(["SESSION", "TURN", "WHERE", "LAST ACTIVE", "TITLE", "MATCH"], table))
    return 0


def export_command(
    name: str, fmt: str, out: TextIO, *, root: Path | None = None, names: NameStore | None = None,
    cwd: Path | None = None, index: SessionIndex | None = None, list_command: str = "claude-tui sessions --all",
) -> int:
    """Print a session as Markdown (``markdown``/``md``) or JSON (``json``).

    ``name`` is anything the session is shown by (see :mod:`.resolve`): an id, an id
    prefix, a name or a title; an ambiguous one lists the sessions it fits.
    """
    if fmt not in ("json", "markdown", "md"):
        print(f"claude-tui: unknown export format {clean(fmt, 20)!r} (markdown or json)", file=sys.stderr)
        return 1
    idx, owned = _open_index(index, root, names)
    try:
        found = resolve_session(name, idx, cwd)
        title = None
        if found.found:
            title = idx.names.get(found.session_id or "")
    finally:
        if owned:
            idx.close()
    if not found.found or found.path is None:
        print(f"claude-tui: {found.problem(list_command)}", file=sys.stderr)
        return 1
    transcript = load_transcript(found.path)
    if title is None:
        meta = read_meta(found.path)
        title = meta.title if meta else None
    if fmt == "json":
        out.write(to_json(transcript, title=title) + "\n")
    else:
        out.write(to_markdown(transcript, title=title))
    return 0
