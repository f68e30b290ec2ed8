"""The session browser's background work: listing and indexing, full-text search, previews, renames.

First paint comes from the index alone (:meth:`SessionIndex.sessions`, no
transcript reads). A thread worker then revalidates the index against the disk
and re-lists, then counts messages and builds the full-text index in the
background (progress in the status line); a timer repeats the revalidation so
sessions appearing or growing while the browser is open show up. Workers only
post the messages nested below; every result carries the generation (scope),
query or preview sequence number it was computed for, and stale ones are dropped.

:class:`SessionBrowserWorkers` is the base of
:class:`~claude_tui.ui.browser.screen.SessionBrowserScreen`: it owns
the rows in scope and the state of every worker, and hands results to the
screen's ``_populate`` / ``_show_status``. The layout, key bindings and commands
live in the screen. It is a Screen (not a plain mixin) so its ``@on`` handlers
are collected.
"""

from __future__ import annotations

import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from textual import on, work
from textual.message import Message
from textual.screen import Screen, ScreenResultType
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import Worker, get_current_worker

from claude_tui.history.index import SessionIndex, SessionRow
from claude_tui.history.names import NameStore
from claude_tui.history.search import SearchHit
from claude_tui.protocol.sanitize import one_line
from claude_tui.ui.browser.listing import LiveSession, apply_live
from claude_tui.ui.browser.preview import (
    Preview,
    SessionPreview,
    load_session_preview,
)
from claude_tui.ui.browser.table import SessionTable

PREVIEW_DELAY = 0.15
SEARCH_DELAY = 0.12
POLL_SECONDS = 5.0
PREVIEW_CACHE = 16


class SessionBrowserWorkers(Screen[ScreenResultType]):
    """Rows in scope, and the workers that list, count, index, search, preview and rename them."""

    class Listed(Message):
        def __init__(self, generation: int, rows: list[SessionRow], error: str = "",
                     search_off: str | None = None) -> None:
            super().__init__()
            self.generation, self.rows, self.error, self.search_off = generation, rows, error, search_off

    class Progress(Message):
        def __init__(self, generation: int, done: int, total: int) -> None:
            super().__init__()
            self.generation, self.done, self.total = generation, done, total

    class Counted(Message):
        def __init__(self, generation: int, counts: dict[str, int | None], finished: bool) -> None:
            super().__init__()
            self.generation, self.counts, self.finished = generation, counts, finished

    class Found(Message):
        def __init__(self, seq: int, query: str, hits: list[SearchHit], note: str | None) -> None:
            super().__init__()
            self.seq, self.query, self.hits, self.note = seq, query, hits, note

    class PreviewLoaded(Message):
        def __init__(self, seq: int, path: str, mtime_ns: int, preview: Preview | None, error: str = "") -> None:
            super().__init__()
            self.seq, self.path, self.mtime_ns, self.preview, self.error = seq, path, mtime_ns, preview, error

    class Renamed(Message):
        def __init__(self, session_id: str, name: str | None, error: str = "") -> None:
            super().__init__()
            self.session_id, self.name, self.error = session_id, name, error

    def __init__(self, cwd: Path, *, config_root: Path | None, index_path: Path | None, names_path: Path | None,
                 now: Callable[[], float], all_projects: bool, poll_seconds: float | None,
                 classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.cwd = cwd
        self.config_root = config_root
        self.index_path = index_path
        self.names_path = names_path
        self.now = now
        self.all_projects = all_projects
        self.poll_seconds = poll_seconds
        self.searching = False
        self.indexing: tuple[int, int] | None = None
        self.indexed = False
        self.search_note: str | None = None
        self.search_off: str | None = None
        """Why search is off (the index could not be written: it lists from the transcripts)."""
        self._rows: list[SessionRow] = []
        self._generation = 0
        self._listed = False
        self._search_seq = 0
        self._search_query = ""
        self._hits: list[SearchHit] = []
        self._preview_seq = 0
        self._preview_timer: Timer | None = None
        self._search_timer: Timer | None = None
        self._previews: OrderedDict[str, tuple[int, Preview]] = OrderedDict()
        self._refresh_worker: Worker[None] | None = None

    # -- helpers -----------------------------------------------------------------------
    @property
    def table(self) -> SessionTable:
        return self.query_one("#browser-table", SessionTable)

    @property
    def filter_input(self) -> Input:
        return self.query_one("#browser-filter", Input)

    @property
    def rows(self) -> list[SessionRow]:
        """Every session in scope (unfiltered)."""
        return self._rows

    def _open_index(self) -> SessionIndex:
        return SessionIndex(self.index_path, root=self.config_root, names=NameStore(self.names_path))

    def _rows_from_index(self) -> list[SessionRow]:
        """The scope's sessions as the index has them now (WAL: a reader never waits for the worker)."""
        try:
            with self._open_index() as index:
                return index.sessions(index.project_dirs(self.cwd, self.all_projects))
        except sqlite3.Error:
            return []

    # -- drawn by the screen -------------------------------------------------------------
    def _populate(self, keep: str | None = None) -> None:
        """Show the rows (filtered or searched) in the table, keeping ``keep`` selected if it is there."""
        raise NotImplementedError

    def _show_status(self) -> None:
        raise NotImplementedError

    def _cursor_target(self) -> str | None:
        """The row (path) to keep the cursor on when the rows are re-listed."""
        return self.table.current_path

    def _live(self) -> LiveSession | None:
        """The app's open session as it is now (the screen knows the app); None: nothing open."""
        return None

    def _apply_live(self) -> SessionRow | None:
        """The open session's row shows its live title, count and cost, not the transcript's lagging ones."""
        return apply_live(self._rows, self._live())

    # -- listing, counting, indexing -------------------------------------------------------
    def reload(self) -> None:
        """Revalidate the scope against the disk, re-list, then count and index in the background."""
        self._refresh_worker = self._refresh(self._generation, self.all_projects)

    def _poll(self) -> None:
        if self._refresh_worker is None or self._refresh_worker.is_finished:
            self.reload()

    @work(thread=True, exclusive=True, group="browser-refresh", exit_on_error=False)
    def _refresh(self, generation: int, all_projects: bool) -> None:
        worker = get_current_worker()

        def stop() -> bool:
            return worker.is_cancelled or generation != self._generation

        with self._open_index() as index:
            dirs = index.project_dirs(self.cwd, all_projects)
            try:
                index.refresh(dirs)
            except (sqlite3.Error, OSError, ValueError) as error:
                # Whatever went wrong, list what the index has: "Looking for sessions…" must end.
                self.post_message(self.Listed(generation, self._safe_sessions(index, dirs), str(error)))
                return
            if stop():
                return
            rows = index.sessions(dirs)
            off = index.search_note if index.unavailable else None
            self.post_message(self.Listed(generation, rows, search_off=off))
            last = last_counts = time.monotonic()

            def progress(done: int, total: int) -> None:
                nonlocal last, last_counts
                now = time.monotonic()
                if now - last >= 0.25 or done == total:
                    last = now
                    self.post_message(self.Progress(generation, done, total))
                if now - last_counts >= 1.0:  # fill the messages column as the counts come in
                    last_counts = now
                    counts = {row.path: row.message_count for row in index.sessions(dirs)}
                    self.post_message(self.Counted(generation, counts, False))

            stale = len(index.stale_content(dirs))
            if stale:
                self.post_message(self.Progress(generation, 0, stale))
                index.index_content(dirs, should_stop=stop, progress=progress)
            if not stop():
                counts = {row.path: row.message_count for row in index.sessions(dirs)}
                self.post_message(self.Counted(generation, counts, True))

    @staticmethod
    def _safe_sessions(index: SessionIndex, dirs: list[Path]) -> list[SessionRow]:
        try:
            return index.sessions(dirs)
        except sqlite3.Error:
            return []

    @on(Listed)
    def _listed_rows(self, message: Listed) -> None:
        if message.generation != self._generation:
            return
        if message.error:
            self.notify(one_line(f"Could not refresh the session list: {message.error}"), severity="warning")
        if message.search_off and not self.search_off:
            self.search_off = self.search_note = message.search_off  # said in the status line while searching
        def signature(rows: list[SessionRow]) -> list[tuple[str, int, str | None, int | None]]:
            return [(r.path, r.mtime_ns, r.name, r.message_count) for r in rows]
        changed = signature(message.rows) != signature(self._rows) or not self._listed
        self._listed = True
        if not changed:  # keep the row objects the table and preview already hold
            self._show_status()
            return
        self._rows = message.rows
        if self.searching:
            self._show_status()
        else:
            self._populate(self._cursor_target())

    @on(Progress)
    def _progress(self, message: Progress) -> None:
        if message.generation == self._generation:
            self.indexing = (message.done, message.total) if message.done < message.total else None
            self._show_status()

    @on(Counted)
    def _counted(self, message: Counted) -> None:
        if message.generation != self._generation:
            return
        for row in self._rows:
            if row.path in message.counts:
                row.message_count = message.counts[row.path]
        live = self._apply_live()
        counts = message.counts if live is None else {**message.counts, live.path: live.message_count}
        self.table.set_counts(counts)
        current = self.table.current_row
        if current is not None and current.path in counts:  # its header said no count until now
            self.query_one(SessionPreview).refresh_header(current, self.now())
        if message.finished:
            self.indexing = None
            was_indexed, self.indexed = self.indexed, True
            if self.searching and self._search_query and not was_indexed:
                self._start_search()  # the first search may have run on a partial index
        self._show_status()

    # -- preview -------------------------------------------------------------------------
    def _schedule_preview(self) -> None:
        if self._preview_timer is not None:
            self._preview_timer.stop()
        row = self.table.current_row
        preview = self.query_one(SessionPreview)
        hits = (self.table.listing.hits or {}).get(row.path) if row is not None else None
        preview.show_row(row, self.now(), hits)
        self._preview_seq += 1
        if row is None:
            self.call_later(preview.show_nothing)
            return
        cached = self._previews.get(row.path)
        if cached is not None and cached[0] == row.mtime_ns:
            self.post_message(self.PreviewLoaded(self._preview_seq, row.path, row.mtime_ns, cached[1]))
            return
        self._preview_timer = self.set_timer(PREVIEW_DELAY, self._start_preview)

    def _start_preview(self) -> None:
        row = self.table.current_row
        if row is not None:
            self._load_preview(self._preview_seq, row.path, row.mtime_ns)

    @work(thread=True, exclusive=True, group="browser-preview", exit_on_error=False)
    def _load_preview(self, seq: int, path: str, mtime_ns: int) -> None:
        worker = get_current_worker()
        try:
            preview = load_session_preview(path, lambda: worker.is_cancelled or seq != self._preview_seq)
        except (OSError, ValueError) as error:
            self.post_message(self.PreviewLoaded(seq, path, mtime_ns, None, f"Cannot read the transcript: {error}"))
            return
        if preview is not None and not worker.is_cancelled:
            self.post_message(self.PreviewLoaded(seq, path, mtime_ns, preview))

    @on(PreviewLoaded)
    async def _preview_loaded(self, message: PreviewLoaded) -> None:
        if message.preview is not None:
            self._previews[message.path] = (message.mtime_ns, message.preview)
            self._previews.move_to_end(message.path)
            while len(self._previews) > PREVIEW_CACHE:
                self._previews.popitem(last=False)
        if message.seq != self._preview_seq:
            return
        await self.query_one(SessionPreview).show_preview(message.preview, one_line(message.error))

    # -- full-text search ------------------------------------------------------------------
    def _schedule_search(self) -> None:
        if self._search_timer is not None:
            self._search_timer.stop()
        self._search_timer = self.set_timer(SEARCH_DELAY, self._start_search)

    def _start_search(self) -> None:
        query = self.filter_input.value.strip()
        self._search_seq += 1
        self._search_query = query
        if not query or self.search_off:
            self._hits = []
            self._populate()
            return
        self._search(self._search_seq, query, self.all_projects)

    @work(thread=True, exclusive=True, group="browser-search", exit_on_error=False)
    def _search(self, seq: int, query: str, all_projects: bool) -> None:
        with self._open_index() as index:
            hits = index.search(query, index.project_dirs(self.cwd, all_projects))
            note = index.search_note
        if seq == self._search_seq:
            self.post_message(self.Found(seq, query, hits, note))

    @on(Found)
    def _found(self, message: Found) -> None:
        if message.seq != self._search_seq or not self.searching:
            return
        self._hits = message.hits
        self.search_note = message.note
        self._populate()

    # -- rename ----------------------------------------------------------------------------
    @work(thread=True, group="browser-rename", exit_on_error=False)
    def _save_name(self, session_id: str, name: str | None) -> None:
        try:
            store = NameStore(self.names_path)
            store.set(session_id, name)
            self.post_message(self.Renamed(session_id, store.get(session_id)))
        except OSError as error:
            self.post_message(self.Renamed(session_id, None, f"Could not save the name: {error.strerror}"))

    @on(Renamed)
    def _renamed(self, message: Renamed) -> None:
        if message.error:
            self.notify(one_line(message.error), severity="error")
            return
        for row in self._rows:
            if row.session_id == message.session_id:
                row.name = message.name
        for row in self.table.listing.rows:  # search rows may be stand-ins
            if row.session_id == message.session_id:
                row.name = message.name
                self.table.redraw_session(row)
        self._schedule_preview()

    def on_screen_suspend(self) -> None:
        for timer in (self._preview_timer, self._search_timer):
            if timer is not None:
                timer.stop()


__all__ = ["POLL_SECONDS", "PREVIEW_DELAY", "SEARCH_DELAY", "SessionBrowserWorkers"]
