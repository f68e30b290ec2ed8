"""The session browser's state, and the work its threads do on the index: no Textual here.

First paint comes from the index alone (:meth:`SessionIndex.sessions`, no transcript reads). A
thread worker of the screen then revalidates the index against the disk and re-lists
(:meth:`BrowserState.refresh`), counts messages and builds the full-text index (progress in the
status line); a timer repeats it so sessions appearing or growing while the browser is open show
up. Every result carries the generation (scope), query or preview sequence number it was computed
for: the `take_*` methods drop a stale one (False) before the screen draws anything.
"""

from __future__ import annotations

import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from claude_tui.history.index import SessionIndex, SessionRow
from claude_tui.history.names import NameStore
from claude_tui.history.paths import config_root as default_config_root
from claude_tui.history.search import SearchHit

if TYPE_CHECKING:
    from claude_tui.ui.browser.preview import Preview

PREVIEW_DELAY = 0.15
SEARCH_DELAY = 0.12
POLL_SECONDS = 5.0
PREVIEW_CACHE = 16


class BrowserState:
    """The rows in scope and where every piece of background work stands."""

    def __init__(self, cwd: Path, *, config_root: Path | None, index_path: Path | None, names_path: Path | None,
                 now: Callable[[], float], all_projects: bool, poll_seconds: float | None) -> None:
        self.cwd = cwd
        self.config_root = config_root
        self.index_path = index_path
        self.names_path = names_path
        self.now = now
        self.all_projects = all_projects
        self.poll_seconds = poll_seconds
        self.rows: list[SessionRow] = []
        """Every session in scope (unfiltered)."""
        self.generation = 0
        """The scope's: a listing or count computed for an older one is dropped."""
        self.listed = False
        """The first listing after a scope change has come (until then: "Looking for sessions…")."""
        self.indexing: tuple[int, int] | None = None
        self.indexed = False
        self.searching = False
        self.search_seq = 0
        self.search_query = ""
        self.hits: list[SearchHit] = []
        self.search_note: str | None = None
        self.search_off: str | None = None
        """Why search is off (the index could not be written: it lists from the transcripts)."""
        self.preview_seq = 0
        self.previews: OrderedDict[str, tuple[int, Preview]] = OrderedDict()
        self.reading = ""
        """Said while the table is empty because the store is still being read ("reading the
        sessions on HOST…"), or why it could not be; "" once it is read."""

    @property
    def root(self) -> Path:
        return self.config_root if self.config_root is not None else default_config_root()

    def open_index(self) -> SessionIndex:
        return SessionIndex(self.index_path, root=self.config_root, names=NameStore(self.names_path))

    def rows_from_index(self) -> list[SessionRow]:
        """The scope's sessions as the index has them now (WAL: a reader never waits for the worker)."""
        try:
            with self.open_index() as index:
                return index.sessions(index.project_dirs(self.cwd, self.all_projects))
        except sqlite3.Error:
            return []

    def new_scope(self, all_projects: bool) -> None:
        """This project or all: what was listed, counted or indexed was for the other scope."""
        self.all_projects = all_projects
        self.generation += 1
        self.listed = False
        self.indexed = False
        self.indexing = None
        self.rows = self.rows_from_index()

    # -- the work (in the screen's threads) --------------------------------------------------
    def refresh(self, generation: int, all_projects: bool, stop: Callable[[], bool], *,
                listed: Callable[[list[SessionRow], str, str | None], object],
                progress: Callable[[int, int], object],
                counted: Callable[[dict[str, int | None], bool], object]) -> None:
        """Revalidate, re-list (`listed(rows, error, search_off)`), then count and index, saying how far
        it got (`progress`, at most 4×/s) and the counts so far (`counted`, each second and at the end)."""
        with self.open_index() as index:
            dirs = index.project_dirs(self.cwd, all_projects)
            try:
                index.refresh(dirs)
            except (sqlite3.Error, OSError, ValueError) as error:
                # Whatever went wrong, list what the index has: "Looking for sessions…" must end.
                listed(_safe_sessions(index, dirs), str(error), None)
                return
            if stop():
                return
            listed(index.sessions(dirs), "", index.search_note if index.unavailable else None)
            last = last_counts = time.monotonic()

            def said(done: int, total: int) -> None:
                nonlocal last, last_counts
                now = time.monotonic()
                if now - last >= 0.25 or done == total:
                    last = now
                    progress(done, total)
                if now - last_counts >= 1.0:  # fill the messages column as the counts come in
                    last_counts = now
                    counted({row.path: row.message_count for row in index.sessions(dirs)}, False)

            stale = len(index.stale_content(dirs))
            if stale:
                progress(0, stale)
                index.index_content(dirs, should_stop=stop, progress=said)
            if not stop():
                counted({row.path: row.message_count for row in index.sessions(dirs)}, True)

    def search(self, query: str, all_projects: bool) -> tuple[list[SearchHit], str | None]:
        with self.open_index() as index:
            return index.search(query, index.project_dirs(self.cwd, all_projects)), index.search_note

    def save_name(self, session_id: str, name: str | None) -> str | None:
        """Our own name for a session (None: the automatic one again); what the store now says. Raises OSError."""
        store = NameStore(self.names_path)
        store.set(session_id, name)
        return store.get(session_id)

    # -- results taken (False: stale, dropped) ---------------------------------------------------
    def take_listing(self, generation: int, rows: list[SessionRow], search_off: str | None) -> bool | None:
        """None: stale. Else whether the rows changed (unchanged: the table keeps the row objects it holds)."""
        if generation != self.generation:
            return None
        if search_off and not self.search_off:
            self.search_off = self.search_note = search_off  # said in the status line while searching

        def signature(rows: list[SessionRow]) -> list[tuple[str, int, str | None, int | None]]:
            return [(r.path, r.mtime_ns, r.name, r.message_count) for r in rows]

        changed = signature(rows) != signature(self.rows) or not self.listed
        self.listed = True
        if changed:
            self.rows = rows
        return changed

    def take_progress(self, generation: int, done: int, total: int) -> bool:
        if generation != self.generation:
            return False
        self.indexing = (done, total) if done < total else None
        return True

    def take_counts(self, generation: int, counts: dict[str, int | None], finished: bool) -> bool:
        if generation != self.generation:
            return False
        for row in self.rows:
            if row.path in counts:
                row.message_count = counts[row.path]
        return True

    def indexing_done(self) -> bool:
        """The index is complete; True when it was not before (a search may have run on part of it)."""
        self.indexing = None
        was_indexed, self.indexed = self.indexed, True
        return not was_indexed

    def start_search(self, query: str) -> int:
        self.search_seq += 1
        self.search_query = query
        return self.search_seq

    def take_hits(self, seq: int, hits: list[SearchHit], note: str | None) -> bool:
        if seq != self.search_seq or not self.searching:
            return False
        self.hits = hits
        self.search_note = note
        return True

    def cached_preview(self, path: str, mtime_ns: int) -> Preview | None:
        cached = self.previews.get(path)
        return cached[1] if cached is not None and cached[0] == mtime_ns else None

    def remember_preview(self, path: str, mtime_ns: int, preview: Preview) -> None:
        self.previews[path] = (mtime_ns, preview)
        self.previews.move_to_end(path)
        while len(self.previews) > PREVIEW_CACHE:
            self.previews.popitem(last=False)

    def renamed(self, session_id: str, name: str | None) -> None:
        for row in self.rows:
            if row.session_id == session_id:
                row.name = name


def _safe_sessions(index: SessionIndex, dirs: list[Path]) -> list[SessionRow]:
    try:
        return index.sessions(dirs)
    except sqlite3.Error:
        return []
