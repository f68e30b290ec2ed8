"""Past sessions: list, filter, full-text search, preview; resume or fork one.

This module is the screen itself: layout, key bindings, the listing it draws,
and the commands. The rows in scope and the background work that keeps them
current (revalidating, counting, indexing, searching, previewing, saving names)
live in its base class, :mod:`~claude_tui.ui.browser.workers`.

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
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.content import Content
from textual.dom import DOMNode
from textual.widgets import DataTable, Footer, Input, Static

from claude_tui.history.paths import config_root as default_config_root
from claude_tui.session.conversation import Conversation
from claude_tui.ui.browser.listing import (
    SORTS,
    LiveSession,
    empty_message,
    filtered,
    live_session,
    searched,
    status_line,
)
from claude_tui.ui.browser.preview import (
    SessionPreview,
    conversation_from_file,
    rename_prompt,
)
from claude_tui.ui.browser.table import SessionTable
from claude_tui.ui.browser.workers import (
    POLL_SECONDS,
    SessionBrowserWorkers,
)
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


class SessionBrowserScreen(SessionBrowserWorkers["BrowserChoice | None"]):
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

    def __init__(self, cwd: Path, config_root: Path | None = None, index_path: Path | None = None,
                 now: Callable[[], float] | None = None, all_projects: bool = False, *,
                 names_path: Path | None = None, poll_seconds: float | None = POLL_SECONDS,
                 current_session_id: str | None = None) -> None:
        super().__init__(Path(cwd), config_root=config_root, index_path=index_path, names_path=names_path,
                         now=now or time.time, all_projects=all_projects, poll_seconds=poll_seconds,
                         classes="session-browser")
        self.sort = SORTS[0]
        self.current_session_id = current_session_id
        """The session open in the app (the cursor starts on it); None: found from the app's chat screen."""
        self._auto_cursor = True
        """True until the user moves the cursor: until then a refresh puts it back on the default row."""
        self._auto_path: str | None = None
        self.reading = ""
        """Said while the table is empty because the store is still being read ("reading the
        sessions on HOST…"), or why it could not be; "" once it is read."""

    def compose(self) -> ComposeResult:
        yield SafeInput(placeholder="Filter titles — type to narrow, / searches every message", id="browser-filter",
                    select_on_focus=False)
        yield Static(id="browser-status", markup=False)
        with Container(id="browser-body"):
            yield SessionTable(self.now, id="browser-table")
            yield SessionPreview(id="browser-preview")
        yield Static(id="browser-empty", markup=False)
        yield Footer(compact=True, show_command_palette=False)  # Ctrl+P still opens the palette

    def _root(self) -> Path:
        return self.config_root if self.config_root is not None else default_config_root()

    # -- lifecycle -----------------------------------------------------------------------
    def on_mount(self) -> None:
        self.set_class(self.size.width >= WIDE, "-wide")
        if self.current_session_id is None:
            self.current_session_id = _open_session_id(self)
        self._rows = self._rows_from_index()  # first paint: the index only
        self._populate(self._cursor_target())
        self.reload()
        if self.poll_seconds:
            self.set_interval(self.poll_seconds, self._poll)
        self.set_interval(30, self.table.refresh_times)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= WIDE, "-wide")

    # -- listing -------------------------------------------------------------------------
    def _populate(self, keep: str | None = None) -> None:
        self._apply_live()
        query = self.filter_input.value
        listing = (searched(self._rows, self._hits, self.all_projects) if self.searching else
                   filtered(self._rows, self.sort, query, self.all_projects))
        self.table.show(listing, keep)
        if self._auto_cursor:
            self._auto_path = self.table.current_path
        self._show_status()
        message = "" if listing.rows else empty_message(
            searching=self.searching, query=query, listed=self._listed, all_projects=self.all_projects,
            cwd=self.cwd, root=self._root(), search_off=self.search_off, reading=self.reading)
        empty = self.query_one("#browser-empty", Static)
        empty.update(Text(message, justify="center"))
        empty.display = bool(message)
        self.query_one("#browser-body").display = not message
        if not self._rows and not query and not self.searching and self.focused is self.filter_input:
            # Nothing here to filter: leave the box so "a" (all projects) reaches the bindings;
            # any other letter still starts the filter (on_key).
            self.set_focus(None)
        self._schedule_preview()
        self._show_key_hint()
        self.refresh_bindings()

    def _show_status(self) -> None:
        self.query_one("#browser-status", Static).update(status_line(
            self.table.listing, total=len(self._rows), searching=self.searching, query=self._search_query,
            order=self.sort, all_projects=self.all_projects, cwd=self.cwd, indexing=self.indexing,
            indexed=self.indexed or self.search_off is not None, note=self.search_note))

    def _cursor_target(self) -> str | None:
        """Where a refresh puts the cursor: where the user left it, else the current session or the top row."""
        if not self._auto_cursor:
            return self.table.current_path
        if self.searching or self.filter_input.value.strip() or not self.current_session_id:
            return None  # the top row: the newest session, or the best match
        return next((row.path for row in self._rows if row.session_id == self.current_session_id), None)

    def _live(self) -> LiveSession | None:
        conversation = _open_conversation(self)
        if conversation is None or not self.current_session_id:
            return None
        return live_session(conversation)

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
            scope = "this project" if self.all_projects else "all projects"
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
        if not self.searching:
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
        if action == "scope":
            return parameters[0] != self.all_projects
        if action == "focus_table":
            return self.focused is self.filter_input and self.table.row_count > 0
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
        hits = (self.table.listing.hits or {}).get(row.path) if self.searching else None
        query, turn = (self._search_query, hits[0].turn) if hits else ("", None)
        self.dismiss(BrowserChoice(row.session_id, Path(row.path), Path(row.cwd) if row.cwd else None, fork,
                                   query, turn))

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
        self._rows = self._rows_from_index()
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
            self.filter_input.placeholder = (
                "Search prompts, answers, thinking, tool calls and output — Esc leaves search")
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

        self.app.push_screen(rename_prompt(row.name or "", row.title or row.display_title), renamed)


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
