"""Message selection mode (Ctrl+Up / F2): pick a message in the log and copy its raw text.

Up/Down (or k/j) move the selection over all items of the conversation,
mounted or not; y/Enter copies the whole item, c its code blocks (again for
the next one), o a tool's output, r rewinds to before a prompt. The bar
only knows item ids: the screen reveals, highlights, copies and rewinds.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Static


class SelectBar(Horizontal, can_focus=True):
    """Picks a message of the log (Ctrl+Up / F2): copy it, its code or output, or rewind to it."""

    DEFAULT_CSS = """
    /* Mounted above the prompt by its owner. */
    SelectBar {
        height: 1;
        padding: 0 1;
        background: $panel;

        &:focus {
            background: $accent 25%;
        }
        #select-label {
            width: 1fr;
        }
        #select-keys {
            width: auto;
            color: $text-muted;
        }
    }
    """

    BINDINGS = [
        Binding("up,k", "move(-1)", "Previous message", id="select.up"),
        Binding("down,j", "move(1)", "Next message", id="select.down"),
        Binding("home,g", "edge(0)", "First", show=False),
        Binding("end,G", "edge(-1)", "Last", show=False),
        Binding("y,enter", "copy('item')", "Copy message", id="select.copy"),
        Binding("c", "copy('code')", "Copy code block", id="select.copy_code"),
        Binding("o", "copy('output')", "Copy tool output", id="select.copy_output"),
        Binding("r", "rewind", "Rewind to here", id="select.rewind"),
        Binding("escape,q", "close", "Done", id="select.close"),
    ]

    class Moved(Message):
        def __init__(self, bar: SelectBar, item_id: str | None) -> None:
            super().__init__()
            self.bar = bar
            self.item_id = item_id

    class CopyRequested(Message):
        def __init__(self, bar: SelectBar, item_id: str, what: str) -> None:
            super().__init__()
            self.bar = bar
            self.item_id = item_id
            self.what = what

    class RewindRequested(Message):
        """Put the files back as they were before this item (the screen checks it is a prompt)."""

        def __init__(self, bar: SelectBar, item_id: str) -> None:
            super().__init__()
            self.bar = bar
            self.item_id = item_id

    class Closed(Message):
        def __init__(self, bar: SelectBar) -> None:
            super().__init__()
            self.bar = bar

    def __init__(self, describe: Callable[[str], str], id: str | None = "select-bar") -> None:
        super().__init__(id=id)
        self.item_ids: list[str] = []
        self.index = -1
        self.describe = describe
        """The owner's label for an item: item id -> one short line."""
        self._label = Static("", id="select-label")

    def compose(self) -> ComposeResult:
        yield self._label
        yield Static(Text("↑↓ move · y copy · c code block · o tool output · r rewind · Esc done", style="dim"),
                     id="select-keys")

    def open(self, item_ids: list[str]) -> None:
        self.item_ids = item_ids
        self.index = len(item_ids) - 1
        self.display = True
        self.focus()
        self._moved()

    @property
    def current(self) -> str | None:
        return self.item_ids[self.index] if 0 <= self.index < len(self.item_ids) else None

    def _moved(self) -> None:
        current = self.current
        if current is None:
            self._label.update(Text("Nothing to select yet", style="italic"))
        else:
            label = Text.assemble(("Selected ", "bold"), f"{self.index + 1}/{len(self.item_ids)}  ",
                                  self.describe(current))
            label.no_wrap = True
            label.overflow = "ellipsis"
            self._label.update(label)
        self.post_message(self.Moved(self, current))

    def action_move(self, delta: int) -> None:
        if self.item_ids:
            self.index = max(0, min(len(self.item_ids) - 1, self.index + delta))
            self._moved()

    def action_edge(self, end: int) -> None:
        if self.item_ids:
            self.index = 0 if end == 0 else len(self.item_ids) - 1
            self._moved()

    def action_copy(self, what: str) -> None:
        if self.current is not None:
            self.post_message(self.CopyRequested(self, self.current, what))

    def action_rewind(self) -> None:
        if self.current is not None:
            self.post_message(self.RewindRequested(self, self.current))

    def action_close(self) -> None:
        self.display = False
        self.post_message(self.Closed(self))
