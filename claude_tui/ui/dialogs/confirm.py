"""A yes/no question as a small modal.

Its `y` does things that cannot be taken back (quit and stop a running turn, open a link),
and it appears in the middle of typing (Ctrl+Q, Ctrl+C, a click): so its keys wait for the
typeahead guard (:class:`GuardedModal`), like the permission dialogs'.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from claude_tui.protocol.sanitize import printable
from claude_tui.ui.dialogs.base import DIALOG_CSS, GuardedModal, waiting_notice


class ConfirmScreen(GuardedModal[bool]):
    CSS_PATH = [DIALOG_CSS, "confirm.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    # One key answers when the question comes while the user is not typing (Ctrl+Q's "quit?" right
    # after Ctrl+Q): the same rule as the permission dialogs' (`guard.py`).
    ONE_KEY = frozenset({"y", "n"})

    def __init__(self, question: str, yes: str = "Yes", no: str = "No", *, detail: str = "",
                 guard_ms: int | None = None) -> None:
        """`detail`: plain text under the question (e.g. the URL a link leads to), never markup, made inert.
        ``guard_ms=None``: the app's typeahead guard."""
        super().__init__(guard_ms=guard_ms, classes="confirm-screen")
        self.question = question
        self.detail = detail
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Content.styled(self.question, "bold"), id="confirm-question")
            if self.detail:
                yield Static(Content(printable(self.detail)), id="confirm-detail")
            yield waiting_notice(self.waiting)
            with Horizontal(id="confirm-keys"):
                yield Static(Content.assemble(("y", "bold"), f" {self.yes}    ", ("n", "bold"), f"/Esc {self.no}"))
                yield Static("keys paused…", classes="guard-notice", markup=False)

    def action_answer(self, answer: bool) -> None:
        if self.keys_open():
            self.finish(answer)
