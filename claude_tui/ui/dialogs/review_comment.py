"""A review comment's words (`c` on a diff): Enter keeps it in the review tray, Esc drops it."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from claude_tui.protocol.sanitize import printable
from claude_tui.ui.kit.safe_input import SafeInput


class ReviewCommentScreen(ModalScreen[str | None]):
    """Dismisses with the comment's words, or None when cancelled (or left empty)."""

    DEFAULT_CSS = """
    ReviewCommentScreen {
        align: center middle;
    }
    ReviewCommentScreen > Vertical {
        width: 80;
        max-width: 95%;
        height: auto;
        padding: 1 2;
        border: round $primary;
        background: $surface;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, where: str, hunk_header: str) -> None:
        super().__init__()
        self.where = where
        self.hunk_header = hunk_header

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.assemble(("Comment on ", "bold"), (printable(self.where), "bold"),
                                          ("  " + printable(self.hunk_header), "dim")), markup=False)
            yield SafeInput(placeholder="what should Claude change here?", id="review-words")
            yield Static(Content.assemble(("Enter", "bold"), " Keep in the review tray    ", ("Esc", "bold"),
                                          " Cancel"), markup=False)

    @on(Input.Submitted, "#review-words")
    def _submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
