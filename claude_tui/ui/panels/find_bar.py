"""Ctrl+F: find text in the whole conversation, docked above the prompt.

Matches are numbered from the newest: "1 of 7" is the match nearest the
bottom, and Enter/F3 walk upwards through older ones (Shift goes back down).

The bar searches the session items (all of them, mounted or not) and asks
its screen to reveal and highlight the current match; it never touches the
log's widgets itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Static

from claude_tui.ui.kit.safe_input import SafeInput


class FindBar(Horizontal):
    """An input, a "2 of 7" counter and the keys; Enter/F3 next, Shift+Enter/Shift+F3 previous, Esc closes."""

    DEFAULT_CSS = """
    /* Mounted above the prompt by its owner. */
    FindBar {
        height: 1;
        padding: 0 1;
        background: $panel;

        #find-label {
            width: auto;
            margin-right: 1;
            color: $accent;
        }
        #find-input {
            width: 1fr;
            max-width: 60;
            height: 1;
            border: none;
            padding: 0;
            background: $boost;
        }
        #find-input:focus {
            background: $primary 20%;
        }
        #find-count {
            width: auto;
            min-width: 12;
            margin: 0 1;
            color: $text;
            text-style: bold;
        }
        &.-none #find-count {
            color: $error;
        }
        #find-keys {
            width: auto;
            color: $text-muted;
        }
    }
    """

    BINDINGS = [
        Binding("f3", "next", "Next match", id="find.next"),
        Binding("shift+f3,shift+enter", "previous", "Previous match", id="find.previous"),
        Binding("escape", "close", "Close find", id="find.close"),
    ]

    class Moved(Message):
        """The current match changed (`item_id` None: no match)."""

        def __init__(self, bar: FindBar, item_id: str | None) -> None:
            super().__init__()
            self.bar = bar
            self.item_id = item_id

    class Narrowed(Message):
        """The query changed and `item_id` is still the current match: show its matching line."""

        def __init__(self, bar: FindBar, item_id: str) -> None:
            super().__init__()
            self.bar = bar
            self.item_id = item_id

    class Closed(Message):
        def __init__(self, bar: FindBar) -> None:
            super().__init__()
            self.bar = bar

    def __init__(self, search: Callable[[str], Iterable[str]], id: str | None = "find-bar") -> None:
        super().__init__(id=id)
        self.matches: list[str] = []
        self.index = -1
        self.search = search
        """The owner's search: text -> the ids of the items showing it."""
        self._input = SafeInput(placeholder="Find in conversation", id="find-input")
        self._count = Static("", id="find-count")

    def compose(self) -> ComposeResult:
        yield Static(Text("Find", style="bold"), id="find-label")
        yield self._input
        yield self._count
        yield Static(Text("⏎/F3 next · ⇧⏎/⇧F3 previous · Esc close", style="dim"), id="find-keys")

    @property
    def find_text(self) -> str:
        """What is searched for (not `query`: that is Textual's DOM query method)."""
        return self._input.value

    def open(self, text: str | None = None) -> None:
        self.display = True
        if text is not None:
            self._input.value = text
        self._input.focus()
        self._input.select_all()
        self.run_search()

    @property
    def counter(self) -> str:
        if not self.find_text:
            return ""
        if not self.matches:
            return "no matches"
        return f"{self.index + 1} of {len(self.matches)}"

    def _show_count(self) -> None:
        self._count.update(Text(self.counter))
        self.set_class(bool(self.find_text) and not self.matches, "-none")

    def run_search(self, keep: str | None = None, *, always_move: bool = True) -> None:
        """Search again; stay on `keep` (an item id) if it still matches, else go to the newest match.

        Without `always_move` the screen is told only if the current match changed: typing on
        while the same item matches needs no new reveal and highlight (a relayout of the log).
        """
        before = self.current
        self.matches = list(reversed(list(self.search(self.find_text)))) if self.find_text else []
        if keep in self.matches:
            self.index = self.matches.index(keep)
        else:
            self.index = 0 if self.matches else -1
        self._show_count()
        if always_move or self.current != before:
            self.post_message(self.Moved(self, self.current))
        elif self.current is not None:
            # Typing on within a long answer: the match's line may be screens below the last one.
            self.post_message(self.Narrowed(self, self.current))

    @property
    def current(self) -> str | None:
        return self.matches[self.index] if 0 <= self.index < len(self.matches) else None

    def _step(self, delta: int) -> None:
        if not self.matches:
            self.run_search()
            return
        self.index = (self.index + delta) % len(self.matches)
        self._show_count()
        self.post_message(self.Moved(self, self.current))

    @on(Input.Changed, "#find-input")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.run_search(keep=self.current, always_move=False)

    @on(Input.Submitted, "#find-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_next()

    def action_next(self) -> None:
        self._step(1)

    def action_previous(self) -> None:
        self._step(-1)

    def action_close(self) -> None:
        self.display = False
        self.post_message(self.Closed(self))
