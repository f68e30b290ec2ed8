"""A yes/no question as a small modal."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__(classes="confirm-screen")
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text(self.question, style="bold"), id="confirm-question")
            yield Static(Text.assemble(("y", "bold"), f" {self.yes}    ", ("n", "bold"), f"/Esc {self.no}"),
                         id="confirm-keys")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
