"""Rename a tab (the palette's "Rename tab"): Enter keeps the name, empty goes back to the automatic one."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from claude_tui.ui.kit.safe_input import SafeInput


class TabNameScreen(ModalScreen[str | None]):
    """Dismisses with the new name ("" for the automatic one), or None when cancelled."""

    DEFAULT_CSS = """
    TabNameScreen {
        align: center middle;
    }
    TabNameScreen > Vertical {
        width: 60;
        height: auto;
        padding: 1 2;
        border: round $primary;
        background: $surface;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: str) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.styled("Rename tab", "bold"))
            yield SafeInput(value=self.current, placeholder="empty: named after the session", id="tab-name",
                            max_length=40)
            yield Static(Content.assemble(("Enter", "bold"), " Rename    ", ("Esc", "bold"), " Cancel"))

    @on(Input.Submitted, "#tab-name")
    def _submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)
