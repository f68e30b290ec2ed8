"""Past sessions: list, filter, full-text search, preview; resume or fork one.

First paint comes from the index alone (:meth:`SessionIndex.sessions`, no
transcript reads). A thread worker then revalidates the index against the disk
and re-lists, then counts messages and builds the full-text index in the
background (progress in the status line); a timer repeats the revalidation so
sessions appearing or growing while the browser is open show up. Workers only
post the messages nested below; every result carries the generation (scope),
query or preview sequence number it was computed for, and stale ones are dropped.

Keys: Enter resume · f fork · a this project / all projects · s sort ·
typing filters titles (fuzzy, in memory) · / full-text search (Esc leaves it) ·
r rename (our own name store) · Esc / q close. The result is a
:class:`BrowserChoice`, or None when closed.
"""

from __future__ import annotations

import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Input, Static
from textual.worker import Worker, get_current_worker

from claude_tui.history.index import SessionIndex, SessionRow
from claude_tui.history.names import NameStore
from claude_tui.history.paths import config_root as default_config_root
from claude_tui.history.search import SearchHit
from claude_tui.session.conversation import Conversation
from claude_tui.ui.screens.session_browser_listing import SORTS, empty_message, filtered, searched, status_line
from claude_tui.ui.screens.session_browser_preview import (
    Preview,
    RenameScreen,
    SessionPreview,
    conversation_from_file,
    load_preview,
)
from claude_tui.protocol.sanitize import one_line
from claude_tui.ui.screens.session_browser_table import SessionTable

PREVIEW_DELAY = 0.15
SEARCH_DELAY = 0.12
POLL_SECONDS = 5.0
WIDE = 120
"""From this width on the preview sits right of the table; below it, underneath."""


@dataclass(frozen=True, slots=True)
class BrowserChoice:
    """The session to resume (``fork``: with ``--fork-session``). ``cwd`` is the session's own."""

    session_id: str
    path: Path
    cwd: Path | None
    fork: bool = False


def conversation_for(choice: BrowserChoice) -> Conversation:
    """The chosen session's history as a conversation (reads the transcript: call from a thread)."""
    return conversation_from_file(choice.path)


class SessionBrowserScreen(Screen["BrowserChoice | None"]):
    # Typing filters from the first key; Tab moves to the table, where the single
    # letters (f fork, a scope, s sort, r rename, q close) are commands.
    AUTO_FOCUS = "#browser-filter"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "resume", "Resume", priority=True),
        Binding("f", "fork", "Fork"),
        Binding("a", "scope(True)", "All projects"),
        Binding("a", "scope(False)", "This project"),
        Binding("s", "cycle_sort", "Sort"),
        Binding("slash", "search", "Search", priority=True),  # also from the filter box
        Binding("r", "rename", "Rename"),
        Binding("escape", "leave_search", "Leave search"),
        Binding("escape", "clear_filter", "Clear filter"),
        Binding("escape", "close", "Close"),
        Binding("q", "close_from_table", "Close", show=False),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("pageup", "move(-10)", show=False),
    ]

    class Listed(Message):
        def __init__(self, generation: int, rows: list[SessionRow]) -> None:
            super().__init__()
            self.generation, self.rows = generation, rows

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

    def __init__(self, cwd: Path, config_root: Path | None = None, index_path: Path | None = None,
                 now: Callable[[], float] | None = None, all_projects: bool = False, *,
                 names_path: Path | None = None, poll_seconds: float | None = POLL_SECONDS) -> None:
        super().__init__(classes="session-browser")
        self.cwd = Path(cwd)
        self.config_root = config_root
        self.index_path = index_path
        self.names_path = names_path
        self.now = now or time.time
        self.all_projects = all_projects
        self.poll_seconds = poll_seconds
        self.sort = SORTS[0]
        self.searching = False
        self.indexing: tuple[int, int] | None = None
        self.indexed = False
        self.search_note: str | None = None
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

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Filter titles — type to narrow, / searches every message", id="browser-filter",
                    select_on_focus=False)
        yield Static(id="browser-status", markup=False)
        with Container(id="browser-body"):
            yield SessionTable(self.now, id="browser-table")
            yield SessionPreview(id="browser-preview")
        yield Static(id="browser-empty", markup=False)
        yield Footer()

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

    def _root(self) -> Path:
        return self.config_root if self.config_root is not None else default_config_root()

    # -- lifecycle -----------------------------------------------------------------------
    def on_mount(self) -> None:
        self.set_class(self.size.width >= WIDE, "-wide")
        try:  # first paint: the index only (WAL: a reader never waits for the worker)
            with self._open_index() as index:
                self._rows = index.sessions(index.project_dirs(self.cwd, self.all_projects))
        except sqlite3.Error:
            self._rows = []
        self._populate()
        self.reload()
        if self.poll_seconds:
            self.set_interval(self.poll_seconds, self._poll)
        self.set_interval(30, self.table.refresh_times)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= WIDE, "-wide")

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
            index.refresh(dirs)
            if stop():
                return
            self.post_message(self.Listed(generation, index.sessions(dirs)))
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

    # -- worker results ------------------------------------------------------------------
    @on(Listed)
    def _listed_rows(self, message: Listed) -> None:
        if message.generation != self._generation:
            return
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
            self._populate(self.table.current_path)

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
        self.table.set_counts(message.counts)
        if message.finished:
            self.indexing = None
            was_indexed, self.indexed = self.indexed, True
            if self.searching and self._search_query and not was_indexed:
                self._start_search()  # the first search may have run on a partial index
        self._show_status()

    # -- listing -------------------------------------------------------------------------
    def _populate(self, keep: str | None = None) -> None:
        query = self.filter_input.value
        listing = (searched(self._rows, self._hits, self.all_projects) if self.searching else
                   filtered(self._rows, self.sort, query, self.all_projects))
        self.table.show(listing, keep)
        self._show_status()
        message = "" if listing.rows else empty_message(
            searching=self.searching, query=query, listed=self._listed, all_projects=self.all_projects,
            cwd=self.cwd, root=self._root())
        empty = self.query_one("#browser-empty", Static)
        empty.update(Text(message, justify="center"))
        empty.display = bool(message)
        self.query_one("#browser-body").display = not message
        if not self._rows and not query and not self.searching and self.focused is self.filter_input:
            # Nothing here to filter: leave the box so "a" (all projects) reaches the bindings;
            # any other letter still starts the filter (on_key).
            self.set_focus(None)
        self._schedule_preview()
        self.refresh_bindings()

    def _show_status(self) -> None:
        self.query_one("#browser-status", Static).update(status_line(
            self.table.listing, total=len(self._rows), searching=self.searching, query=self._search_query,
            order=self.sort, all_projects=self.all_projects, cwd=self.cwd, indexing=self.indexing,
            indexed=self.indexed, note=self.search_note))

    # -- preview -------------------------------------------------------------------------
    @on(DataTable.RowHighlighted, "#browser-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._schedule_preview()

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
            preview = load_preview(path, lambda: worker.is_cancelled or seq != self._preview_seq)
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
            while len(self._previews) > 16:
                self._previews.popitem(last=False)
        if message.seq != self._preview_seq:
            return
        await self.query_one(SessionPreview).show_preview(message.preview, one_line(message.error))

    # -- filter and search -----------------------------------------------------------------
    @on(Input.Changed, "#browser-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        if not self.searching:
            self._populate()  # the best match on top gets the cursor, so Enter opens it
            return
        if self._search_timer is not None:
            self._search_timer.stop()
        self._search_timer = self.set_timer(SEARCH_DELAY, self._start_search)

    def _start_search(self) -> None:
        query = self.filter_input.value.strip()
        self._search_seq += 1
        self._search_query = query
        if not query:
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

    def on_key(self, event: events.Key) -> None:
        """Typing while the table has focus starts the title filter."""
        if event.key in self.active_bindings:
            return  # a command key: the bindings get it once the event reaches the app
        if self.focused in (self.table, None) and event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            self.filter_input.focus()
            self.filter_input.insert_text_at_cursor(event.character)

    # -- actions ---------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scope":
            return parameters[0] != self.all_projects
        if action == "leave_search":
            return self.searching
        if action == "close_from_table":
            return self.focused is self.table
        if action == "clear_filter":
            return not self.searching and self.focused is self.filter_input and bool(self.filter_input.value)
        if action == "close":
            # Esc clears a filter first, then closes; q closes from the table only (in the box it is typed).
            return not self.searching and (self.focused is not self.filter_input or not self.filter_input.value)
        if action == "search":
            return not (self.searching and self.focused is self.filter_input)
        if action in ("fork", "rename", "scope", "cycle_sort") and self.focused is self.filter_input:
            return False  # in the filter box these letters are typed, never run
        if action in ("resume", "fork", "rename"):
            return True if self.table.current_row is not None else None
        return True

    def action_move(self, delta: int) -> None:
        table = self.table
        if table.row_count:
            table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + delta)))

    def _choose(self, fork: bool) -> None:
        row = self.table.current_row
        if row is None:
            return
        self.dismiss(BrowserChoice(row.session_id, Path(row.path), Path(row.cwd) if row.cwd else None, fork))

    def action_resume(self) -> None:
        self._choose(False)

    def action_fork(self) -> None:
        self._choose(True)

    def action_scope(self, all_projects: bool) -> None:
        self.all_projects = all_projects
        self._generation += 1
        self._listed = False
        self.indexed = False
        self.indexing = None
        try:
            with self._open_index() as index:
                self._rows = index.sessions(index.project_dirs(self.cwd, all_projects))
        except sqlite3.Error:
            self._rows = []
        self._populate(self.table.current_path)
        if self.searching:
            self._start_search()
        self.refresh_bindings()
        self.reload()

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        if not self.searching:
            self._populate(self.table.current_path)

    def action_close_from_table(self) -> None:
        self.action_close()

    def action_search(self) -> None:
        if not self.searching:
            self.searching = True
            self.add_class("-searching")
            self.filter_input.placeholder = "Search every prompt, answer, tool and file path — Esc leaves search"
            self.filter_input.value = ""
            self._search_query = ""
            self._hits = []
            self._populate()
        self.filter_input.focus()
        self.refresh_bindings()

    def action_leave_search(self) -> None:
        self.searching = False
        self._search_seq += 1
        self.remove_class("-searching")
        self.filter_input.placeholder = "Filter titles — type to narrow, / searches every message"
        with self.filter_input.prevent(Input.Changed):
            self.filter_input.value = ""
        self._hits = []
        self._populate()
        self.table.focus()
        self.refresh_bindings()

    def action_clear_filter(self) -> None:
        keep = self.table.current_path
        with self.filter_input.prevent(Input.Changed):
            self.filter_input.value = ""
        self._populate(keep)
        self.table.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_rename(self) -> None:
        row = self.table.current_row
        if row is None:
            return

        def renamed(name: str | None) -> None:
            if name is not None:
                self._save_name(row.session_id, name or None)

        self.app.push_screen(RenameScreen(row.name or "", row.title or row.display_title), renamed)

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


__all__ = ["BrowserChoice", "SessionBrowserScreen", "conversation_for"]
