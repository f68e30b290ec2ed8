"""The review tray: the comments waiting to go to Claude (stale ones marked); `s` sends them all."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from claude_tui.protocol.sanitize import one_line, printable
from claude_tui.store.review import ReviewComment, ReviewTray

SEND = "send"


class ReviewTrayScreen(ModalScreen[str | None]):
    """Dismisses with ``"send"`` (`s`), or None (Esc). `d` deletes the highlighted comment."""

    DEFAULT_CSS = """
    ReviewTrayScreen {
        align: center middle;
    }
    ReviewTrayScreen > Vertical {
        width: 100;
        max-width: 95%;
        height: auto;
        max-height: 80%;
        padding: 1 2;
        border: round $primary;
        background: $surface;
    }
    ReviewTrayScreen OptionList {
        height: auto;
        max-height: 20;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Close"),
        Binding("s", "send", "Send review"),
        Binding("d", "delete", "Delete comment"),
    ]

    def __init__(self, tray: ReviewTray, stale: Callable[[ReviewComment], bool]) -> None:
        super().__init__()
        self.tray = tray
        self.stale = stale

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="tray-title", markup=False)
            yield OptionList(id="tray-list")
            yield Static(Content.assemble(("s", "bold"), " Send to Claude as one prompt    ", ("d", "bold"),
                                          " Delete    ", ("Esc", "bold"), " Close"), markup=False)

    def on_mount(self) -> None:
        self._fill()

    def _fill(self) -> None:
        comments = self.tray.comments
        self.query_one("#tray-title", Static).update(
            Content.styled(f"Review tray · {len(comments)} comment" + ("" if len(comments) == 1 else "s"), "bold"))
        options = self.query_one("#tray-list", OptionList)
        options.clear_options()
        for comment in comments:
            stale = self.stale(comment)
            options.add_option(Option(Content.assemble(
                (printable(comment.where), "bold"),
                ("  stale: its lines changed" if stale else "", "$text-warning"),
                "  ", one_line(comment.words)), id=comment.id))
        options.focus()

    def action_delete(self) -> None:
        options = self.query_one("#tray-list", OptionList)
        highlighted = options.highlighted
        if highlighted is None:
            return
        option_id = options.get_option_at_index(highlighted).id
        if option_id is not None:
            self.tray.remove(option_id)
            self._fill()

    def action_send(self) -> None:
        if self.tray.comments:
            self.dismiss(SEND)

    def action_cancel(self) -> None:
        self.dismiss(None)
