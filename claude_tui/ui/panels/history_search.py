"""Ctrl+R: reverse incremental search through the prompt history, as in Claude Code and readline.

The bar under the prompt takes the typing; the prompt shows the match as it is found. Ctrl+R
again goes to an older match, Enter or Tab keeps the match in the prompt to edit, Esc or Ctrl+C
puts the draft back as it was. The search itself is `store/history_search.py`.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Static

from claude_tui.protocol.sanitize import printable_name
from claude_tui.store.history_search import HistorySearch
from claude_tui.ui.kit.safe_input import SafeInput

LABEL = "search history:"


class SearchField(SafeInput):
    # The field's own Ctrl+C (copy) and the app's Tab (next field) give way to the search's.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,tab", "finish(True)", "Use it", show=False),
        Binding("escape,ctrl+c", "finish(False)", "Cancel", show=False),
    ]

    def action_finish(self, accept: bool) -> None:
        self.post_message(HistorySearchBar.Finished(accept))


class HistorySearchBar(Horizontal):
    DEFAULT_CSS = """
    HistorySearchBar {
        height: 1;
        display: none;
        padding: 0 1;

        #history-search-label {
            width: auto;
            color: $text-muted;
        }
        #history-search-field {
            width: 1fr;
            height: 1;
            border: none;
            padding: 0 1;
            background: transparent;
        }
        #history-search-state {
            width: auto;
            color: $text-muted;
        }
    }
    """

    class Found(Message):
        """The prompt should show `text` (a match, or the draft again when nothing matches)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Finished(Message):
        """Enter/Tab (`accept`): the match stays in the prompt; Esc/Ctrl+C: the draft comes back."""

        def __init__(self, accept: bool) -> None:
            super().__init__()
            self.accept = accept

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.search: HistorySearch | None = None
        self.draft = ""

    def compose(self) -> ComposeResult:
        yield Static(LABEL, id="history-search-label")
        yield SearchField(id="history-search-field")
        yield Static("", id="history-search-state")

    @property
    def active(self) -> bool:
        return self.search is not None

    @property
    def field(self) -> SearchField:
        return self.query_one(SearchField)

    def start(self, entries: list[str], draft: str) -> None:
        self.search = HistorySearch(entries)
        self.draft = draft
        self.display = True
        field = self.field
        with field.prevent(Input.Changed):
            field.value = ""
        self._say("type to search" if entries else "no history yet")
        field.focus()

    def older(self) -> None:
        search = self.search
        if search is None:
            return
        if search.older() is None:
            self._say("no older match")
            return
        self._show(search)

    def stop(self) -> None:
        self.search = None
        self.display = False

    @on(Input.Changed, "#history-search-field")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        search = self.search
        if search is None:
            return
        search.search(event.value)
        self._show(search)

    @on(Input.Submitted, "#history-search-field")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()  # Enter is the field's binding (finish); never the prompt's send

    def _show(self, search: HistorySearch) -> None:
        match = search.match
        if match is None:
            self._say("no match")
            self.post_message(self.Found(self.draft))
            return
        newer = {e for e in search.entries[(search.index or 0) + 1:] if search.query.casefold() in e.casefold()}
        position = 1 + len(newer - {match})
        self._say(f"match {position} · Ctrl+R older · Enter use · Esc cancel")
        self.post_message(self.Found(match))

    def _say(self, state: str) -> None:
        self.query_one("#history-search-state", Static).update(Text(printable_name(state)))
