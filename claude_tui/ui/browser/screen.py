"""Past sessions: list, filter, full-text search, preview; resume or fork one.

This module is the screen: layout, key bindings, the listing it draws, the commands,
and the thread workers that keep the rows current (revalidating, counting, indexing,
searching, previewing, saving names). Workers only post the messages nested in the
screen. The rows in scope and where each piece of work stands are a plain object,
:class:`~claude_tui.ui.browser.state.BrowserState`, which also does the index work the
threads run and drops stale results.

Keys: Enter resume · f fork · a this project / all projects · s sort ·
typing filters titles (fuzzy, in memory) · / full-text search (Esc leaves it) ·
r rename (our own name store) · Esc / q close. The result is a
:class:`BrowserChoice`, or None when closed.

The filter has the focus at first, so the single-letter keys are typed there; the
footer then offers Tab, and the filter's bottom edge names the keys Tab leads to.
The cursor starts on the current session when it is listed, else on the newest
row, and stays there as the listing refreshes until the user moves it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.content import Content
from textual.dom import DOMNode
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Input, Static
from textual.worker import Worker, get_current_worker

from claude_tui.history.index import SessionRow
from claude_tui.history.search import SearchHit
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.conversation import Conversation
from claude_tui.ui.browser.listing import (
    SORTS,
    LiveSession,
    apply_live,
    empty_message,
    filtered,
    live_session,
    searched,
    status_line,
)
from claude_tui.ui.browser.preview import (
    Preview,
    SessionPreview,
    conversation_from_file,
    load_session_preview,
    rename_prompt,
)
from claude_tui.ui.browser.state import POLL_SECONDS, PREVIEW_DELAY, SEARCH_DELAY, BrowserState
from claude_tui.ui.browser.table import SessionTable
from claude_tui.ui.chat.app_host import app_host
from claude_tui.ui.kit.safe_input import SafeInput

WIDE = 120
"""From this width on the preview sits right of the table; below it, underneath."""
TABLE_KEYS = (("f", "fork"), ("a", "{scope}"), ("s", "sort"), ("r", "rename"))
"""Named under the filter while it has the focus (there these letters are typed, not run)."""
_CURSOR_KEYS = frozenset({"up", "down", "pageup", "pagedown"})
_TABLE_CURSOR_KEYS = _CURSOR_KEYS | {"home", "end"}


@dataclass(frozen=True, slots=True)
class BrowserChoice:
    """The session to resume (``fork``: with ``--fork-session``). ``cwd`` is the session's own.

    Chosen from search results, ``query`` and ``turn`` say where the first match is, so the
    resumed session can open its find bar on it.
    """

    session_id: str
    path: Path
    cwd: Path | None
    fork: bool = False
    query: str = ""
    turn: int | None = None


def conversation_for(choice: BrowserChoice) -> Conversation:
    """The chosen session's history as a conversation (reads the transcript: call from a thread).

    A transcript deleted since the listing raises: resuming it would only fail in the CLI.
    """
    if not Path(choice.path).is_file():
        raise FileNotFoundError(f"its transcript is gone ({choice.path})")
    return conversation_from_file(choice.path)


class SessionBrowserScreen(Screen["BrowserChoice | None"]):
    # Typing filters from the first key; Tab moves to the table, where the single
    # letters (f fork, a scope, s sort, r rename, q close) are commands.
    CSS_PATH = "screen.tcss"
    AUTO_FOCUS = "#browser-filter"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "resume", "Resume", priority=True),
        Binding("tab", "focus_table", "Table keys", priority=True),  # shown (and taken) in the filter only
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
        # F1 still opens the help; hidden here so the browser's own keys fit the footer at 80 columns.
        Binding("f1", "app.help", "Help", show=False),
    ]

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

    def __init__(self, cwd: Path, config_root: Path | None = None, index_path: Path | None = None,
                 now: Callable[[], float] | None = None, all_projects: bool = False, *,
                 names_path: Path | None = None, poll_seconds: float | None = POLL_SECONDS,
                 current_session_id: str | None = None) -> None:
        super().__init__(classes="session-browser")
        self.state = BrowserState(Path(cwd), config_root=config_root, index_path=index_path, names_path=names_path,
                                  now=now or time.time, all_projects=all_projects, poll_seconds=poll_seconds)
        self.sort = SORTS[0]
        self.current_session_id = current_session_id
        """The session open in the app (the cursor starts on it); None: found from the app's chat screen."""
        self._auto_cursor = True
        """True until the user moves the cursor: until then a refresh puts it back on the default row."""
        self._auto_path: str | None = None
        self._preview_timer: Timer | None = None
        self._search_timer: Timer | None = None
        self._refresh_worker: Worker[None] | None = None

    @property
    def table(self) -> SessionTable:
        return self.query_one("#browser-table", SessionTable)

    @property
    def filter_input(self) -> Input:
        return self.query_one("#browser-filter", Input)

    def compose(self) -> ComposeResult:
        yield SafeInput(placeholder="Filter titles — type to narrow, / searches every message", id="browser-filter",
                    select_on_focus=False)
        yield Static(id="browser-status", markup=False)
        with Container(id="browser-body"):
            yield SessionTable(self.state.now, id="browser-table")
            yield SessionPreview(id="browser-preview")
        yield Static(id="browser-empty", markup=False)
        yield Footer(compact=True, show_command_palette=False)  # Ctrl+P still opens the palette

    # -- lifecycle -----------------------------------------------------------------------
    def on_mount(self) -> None:
        self.set_class(self.size.width >= WIDE, "-wide")
        if self.current_session_id is None:
            self.current_session_id = _open_session_id(self)
        state = self.state
        state.rows = state.rows_from_index()  # first paint: the index only
        self._populate(self._cursor_target())
        self.reload()
        if state.poll_seconds:
            self.set_interval(state.poll_seconds, self._poll)
        self.set_interval(30, self.table.refresh_times)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= WIDE, "-wide")

    # -- listing -------------------------------------------------------------------------
    def _populate(self, keep: str | None = None) -> None:
        """Show the rows (filtered or searched) in the table, keeping ``keep`` selected if it is there."""
        state = self.state
        self._apply_live()
        query = self.filter_input.value
        listing = (searched(state.rows, state.hits, state.all_projects) if state.searching else
                   filtered(state.rows, self.sort, query, state.all_projects))
        self.table.show(listing, keep)
        if self._auto_cursor:
            self._auto_path = self.table.current_path
        self._show_status()
        message = "" if listing.rows else empty_message(
            searching=state.searching, query=query, listed=state.listed, all_projects=state.all_projects,
            cwd=state.cwd, root=state.root, search_off=state.search_off, reading=state.reading)
        empty = self.query_one("#browser-empty", Static)
        empty.update(Text(message, justify="center"))
        empty.display = bool(message)
        self.query_one("#browser-body").display = not message
        if not state.rows and not query and not state.searching and self.focused is self.filter_input:
            # Nothing here to filter: leave the box so "a" (all projects) reaches the bindings;
            # any other letter still starts the filter (on_key).
            self.set_focus(None)
        self._schedule_preview()
        self._show_key_hint()
        self.refresh_bindings()

    def _show_status(self) -> None:
        state = self.state
        self.query_one("#browser-status", Static).update(status_line(
            self.table.listing, total=len(state.rows), searching=state.searching, query=state.search_query,
            order=self.sort, all_projects=state.all_projects, cwd=state.cwd, indexing=state.indexing,
            indexed=state.indexed or state.search_off is not None, note=state.search_note))

    def _cursor_target(self) -> str | None:
        """Where a refresh puts the cursor: where the user left it, else the current session or the top row."""
        if not self._auto_cursor:
            return self.table.current_path
        if self.state.searching or self.filter_input.value.strip() or not self.current_session_id:
            return None  # the top row: the newest session, or the best match
        return next((row.path for row in self.state.rows if row.session_id == self.current_session_id), None)

    def _live(self) -> LiveSession | None:
        """The app's open session as it is now; None: nothing open."""
        conversation = _open_conversation(self)
        if conversation is None or not self.current_session_id:
            return None
        return live_session(conversation)

    def _apply_live(self) -> SessionRow | None:
        """The open session's row shows its live title, count and cost, not the transcript's lagging ones."""
        return apply_live(self.state.rows, self._live())

    @on(DataTable.RowHighlighted, "#browser-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self._auto_cursor and self.table.current_path != self._auto_path:
            self._auto_cursor = False  # the user moved it (a click, or keys on the table)
        self._schedule_preview()

    # -- key hints -------------------------------------------------------------------------
    def _show_key_hint(self) -> None:
        """Name the table's letter keys on the filter's edge while the filter has the focus."""
        box = self.filter_input
        if self.focused is box and self.table.row_count:
            scope = "this project" if self.state.all_projects else "all projects"
            parts: list[str | tuple[str, str]] = [("Tab", "bold"), ", then:"]
            for index, (key, words) in enumerate(TABLE_KEYS):
                parts += [" · " if index else " ", (key, "bold"), " " + words.format(scope=scope)]
            box.border_subtitle = Content.assemble(*parts)
        else:
            box.border_subtitle = None

    @on(events.DescendantFocus)
    @on(events.DescendantBlur)
    def _focus_moved(self) -> None:
        self._show_key_hint()

    # -- filter and search -----------------------------------------------------------------
    @on(Input.Changed, "#browser-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._auto_cursor = True  # the best match again, until the user picks another row
        if not self.state.searching:
            self._populate()  # the best match on top gets the cursor, so Enter opens it
            return
        self._schedule_search()

    def on_key(self, event: events.Key) -> None:
        """Typing while the table has focus starts the title filter."""
        if event.key in (_TABLE_CURSOR_KEYS if self.focused is self.table else _CURSOR_KEYS):
            self._auto_cursor = False  # the user moves the cursor: refreshes keep it where they put it
        if event.key in self.active_bindings:
            return  # a command key: the bindings get it once the event reaches the app
        if self.focused in (self.table, None) and event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            self.filter_input.focus()
            self.filter_input.insert_text_at_cursor(event.character)

    # -- actions ---------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        searching = self.state.searching
        if action == "scope":
            return parameters[0] != self.state.all_projects
        if action == "focus_table":
            return self.focused is self.filter_input and self.table.row_count > 0
        if action == "leave_search":
            return searching
        if action == "close_from_table":
            return self.focused is self.table
        if action == "clear_filter":
            return not searching and self.focused is self.filter_input and bool(self.filter_input.value)
        if action == "close":
            # Esc clears a filter first, then closes; q closes from the table only (in the box it is typed).
            return not searching and (self.focused is not self.filter_input or not self.filter_input.value)
        if action == "search":
            return not (searching and self.focused is self.filter_input)
        if action in ("fork", "rename", "scope", "cycle_sort") and self.focused is self.filter_input:
            return False  # in the filter box these letters are typed, never run
        if action in ("resume", "fork", "rename"):
            return True if self.table.current_row is not None else None
        return True

    def action_focus_table(self) -> None:
        self.table.focus()

    def action_move(self, delta: int) -> None:
        table = self.table
        if table.row_count:
            table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + delta)))

    def _choose(self, fork: bool) -> None:
        row = self.table.current_row
        if row is None:
            return
        hits = (self.table.listing.hits or {}).get(row.path) if self.state.searching else None
        query, turn = (self.state.search_query, hits[0].turn) if hits else ("", None)
        self.dismiss(BrowserChoice(row.session_id, Path(row.path), Path(row.cwd) if row.cwd else None, fork,
                                   query, turn))

    def action_resume(self) -> None:
        self._choose(False)

    def action_fork(self) -> None:
        self._choose(True)

    def action_scope(self, all_projects: bool) -> None:
        self.state.new_scope(all_projects)
        self._populate(self.table.current_path)
        if self.state.searching:
            self._start_search()
        self.refresh_bindings()
        self.reload()

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        if not self.state.searching:
            self._populate(self.table.current_path)

    def action_close_from_table(self) -> None:
        self.action_close()

    def action_search(self) -> None:
        state = self.state
        if not state.searching:
            state.searching = True
            self.add_class("-searching")
            self.filter_input.placeholder = (
                "Search prompts, answers, thinking, tool calls and output — Esc leaves search")
            self.filter_input.value = ""
            state.search_query = ""
            state.hits = []
            self._populate()
        self.filter_input.focus()
        self.refresh_bindings()

    def action_leave_search(self) -> None:
        state = self.state
        state.searching = False
        state.search_seq += 1
        self.remove_class("-searching")
        self.filter_input.placeholder = "Filter titles — type to narrow, / searches every message"
        with self.filter_input.prevent(Input.Changed):
            self.filter_input.value = ""
        state.hits = []
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

        self.app.push_screen(rename_prompt(row.name or "", row.title or row.display_title), renamed)


    # -- listing, counting, indexing (thread workers post; the state drops what is stale) --------
    def reload(self) -> None:
        """Revalidate the scope against the disk, re-list, then count and index in the background."""
        self._refresh_worker = self._refresh(self.state.generation, self.state.all_projects)

    def _poll(self) -> None:
        if self._refresh_worker is None or self._refresh_worker.is_finished:
            self.reload()

    @work(thread=True, exclusive=True, group="browser-refresh", exit_on_error=False)
    def _refresh(self, generation: int, all_projects: bool) -> None:
        worker = get_current_worker()
        post = self.post_message
        self.state.refresh(
            generation, all_projects, lambda: worker.is_cancelled or generation != self.state.generation,
            listed=lambda rows, error, off: post(self.Listed(generation, rows, error, off)),
            progress=lambda done, total: post(self.Progress(generation, done, total)),
            counted=lambda counts, finished: post(self.Counted(generation, counts, finished)))

    @on(Listed)
    def _listed_rows(self, message: Listed) -> None:
        changed = self.state.take_listing(message.generation, message.rows, message.search_off)
        if changed is None:
            return
        if message.error:
            self.notify(one_line(f"Could not refresh the session list: {message.error}"), severity="warning")
        if not changed or self.state.searching:  # unchanged: keep the row objects the table and preview hold
            self._show_status()
        else:
            self._populate(self._cursor_target())

    @on(Progress)
    def _progress(self, message: Progress) -> None:
        if self.state.take_progress(message.generation, message.done, message.total):
            self._show_status()

    @on(Counted)
    def _counted(self, message: Counted) -> None:
        state = self.state
        if not state.take_counts(message.generation, message.counts, message.finished):
            return
        live = self._apply_live()
        counts = message.counts if live is None else {**message.counts, live.path: live.message_count}
        self.table.set_counts(counts)
        current = self.table.current_row
        if current is not None and current.path in counts:  # its header said no count until now
            self.query_one(SessionPreview).refresh_header(current, state.now())
        if message.finished and state.indexing_done() and state.searching and state.search_query:
            self._start_search()  # the first search may have run on a partial index
        self._show_status()

    # -- preview -------------------------------------------------------------------------
    def _schedule_preview(self) -> None:
        if self._preview_timer is not None:
            self._preview_timer.stop()
        state = self.state
        row = self.table.current_row
        preview = self.query_one(SessionPreview)
        hits = (self.table.listing.hits or {}).get(row.path) if row is not None else None
        preview.show_row(row, state.now(), hits)
        state.preview_seq += 1
        if row is None:
            self.call_later(preview.show_nothing)
            return
        cached = state.cached_preview(row.path, row.mtime_ns)
        if cached is not None:
            self.post_message(self.PreviewLoaded(state.preview_seq, row.path, row.mtime_ns, cached))
            return
        self._preview_timer = self.set_timer(PREVIEW_DELAY, self._start_preview)

    def _start_preview(self) -> None:
        row = self.table.current_row
        if row is not None:
            self._load_preview(self.state.preview_seq, row.path, row.mtime_ns)

    @work(thread=True, exclusive=True, group="browser-preview", exit_on_error=False)
    def _load_preview(self, seq: int, path: str, mtime_ns: int) -> None:
        worker = get_current_worker()
        try:
            preview = load_session_preview(path, lambda: worker.is_cancelled or seq != self.state.preview_seq)
        except (OSError, ValueError) as error:
            self.post_message(self.PreviewLoaded(seq, path, mtime_ns, None, f"Cannot read the transcript: {error}"))
            return
        if preview is not None and not worker.is_cancelled:
            self.post_message(self.PreviewLoaded(seq, path, mtime_ns, preview))

    @on(PreviewLoaded)
    async def _preview_loaded(self, message: PreviewLoaded) -> None:
        if message.preview is not None:
            self.state.remember_preview(message.path, message.mtime_ns, message.preview)
        if message.seq != self.state.preview_seq:
            return
        await self.query_one(SessionPreview).show_preview(message.preview, one_line(message.error))

    # -- full-text search ------------------------------------------------------------------
    def _schedule_search(self) -> None:
        if self._search_timer is not None:
            self._search_timer.stop()
        self._search_timer = self.set_timer(SEARCH_DELAY, self._start_search)

    def _start_search(self) -> None:
        state = self.state
        query = self.filter_input.value.strip()
        seq = state.start_search(query)
        if not query or state.search_off:
            state.hits = []
            self._populate()
            return
        self._search(seq, query, state.all_projects)

    @work(thread=True, exclusive=True, group="browser-search", exit_on_error=False)
    def _search(self, seq: int, query: str, all_projects: bool) -> None:
        hits, note = self.state.search(query, all_projects)
        if seq == self.state.search_seq:
            self.post_message(self.Found(seq, query, hits, note))

    @on(Found)
    def _found(self, message: Found) -> None:
        if self.state.take_hits(message.seq, message.hits, message.note):
            self._populate()

    # -- rename ----------------------------------------------------------------------------
    @work(thread=True, group="browser-rename", exit_on_error=False)
    def _save_name(self, session_id: str, name: str | None) -> None:
        try:
            self.post_message(self.Renamed(session_id, self.state.save_name(session_id, name)))
        except OSError as error:
            self.post_message(self.Renamed(session_id, None, f"Could not save the name: {error.strerror}"))

    @on(Renamed)
    def _renamed(self, message: Renamed) -> None:
        if message.error:
            self.notify(one_line(message.error), severity="error")
            return
        self.state.renamed(message.session_id, message.name)
        for row in self.table.listing.rows:  # search rows may be stand-ins
            if row.session_id == message.session_id:
                row.name = message.name
                self.table.redraw_session(row)
        self._schedule_preview()

    def on_screen_suspend(self) -> None:
        for timer in (self._preview_timer, self._search_timer):
            if timer is not None:
                timer.stop()


def _open_session_id(node: DOMNode) -> str | None:
    """The id of the session the app's chat screen has open, if any (the browser can open before one)."""
    conversation = _open_conversation(node)
    return conversation.status.session_id or None if conversation is not None else None


def _open_conversation(node: DOMNode) -> Conversation | None:
    """The active tab's conversation (None before a tab, or under an app that is no `AppHost`)."""
    host = app_host(node)
    chat = host.chat if host is not None else None
    return chat.session.conversation if chat is not None else None


__all__ = ["BrowserChoice", "SessionBrowserScreen", "conversation_for"]
