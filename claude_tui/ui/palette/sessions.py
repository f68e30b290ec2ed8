"""The palette finds past sessions by any name they are shown by (Ctrl+P, then type).

An id prefix of 4+ characters, a name, a custom title or the first prompt: each
matching session is offered as "Resume <title> · <id>" (forks say whose). Rows come
from the session index only (no transcript is read on a keystroke), in a thread.
"""

from __future__ import annotations

import asyncio
import sqlite3
from functools import partial
from pathlib import Path

from textual.command import Hit, Hits, Provider

from claude_tui.history.index import SessionIndex, SessionRow
from claude_tui.history.paths import cli_config_root
from claude_tui.history.resolve import MIN_PREFIX
from claude_tui.protocol.sanitize import one_line
from claude_tui.ui.chat.app_host import app_host
from claude_tui.ui.palette.commands import escape, highlighted

MAX_HITS = 12


def _rows(cwd: Path, root: Path) -> list[SessionRow]:
    try:
        with SessionIndex(root=root) as index:
            return index.sessions(index.project_dirs(cwd, all_projects=True))
    except sqlite3.Error:
        return []


def session_text(row: SessionRow) -> str:
    fork = f" (fork of {row.forked_from[:8]})" if row.forked_from else ""
    return f"Resume {one_line(row.display_title)[:80]} · {row.session_id[:8]}{fork}"


class SessionCommands(Provider):
    """"Resume …" hits for the sessions a query names."""

    async def search(self, query: str) -> Hits:
        app = app_host(self.screen)
        wanted = query.strip().lower()
        if app is None or len(wanted) < 3:
            return
        rows = await asyncio.to_thread(_rows, Path(app.options.cwd or ".").resolve(), cli_config_root(app.options.env))
        matcher = self.matcher(query)
        scored: list[tuple[float, SessionRow]] = []
        for row in rows:
            if len(wanted) >= MIN_PREFIX and row.session_id.startswith(wanted):
                scored.append((1.0, row))
                continue
            score = max(matcher.match(one_line(text)) for text in
                        (row.display_title, row.first_prompt or "", row.custom_title or ""))
            if score > 0:
                scored.append((score, row))
        scored.sort(key=lambda pair: -pair[0])
        for score, row in scored[:MAX_HITS]:
            text = session_text(row)
            yield Hit(score, highlighted(matcher, text), partial(app.resume_row, row), text=text,
                      help=escape(one_line(row.cwd or row.project)))
