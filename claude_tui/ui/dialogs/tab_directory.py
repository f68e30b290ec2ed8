"""The directory of a new tab (the palette's "New tab in another directory…")."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.kit.safe_input import SafeInput


def directory_problem(text: str, base: Path) -> str:
    """Why `text` (relative to `base`, `~` expanded) is not a directory to start in; "" when it is."""
    if not text.strip():
        return "Type a directory."
    path = (base / Path(text.strip()).expanduser()).resolve()
    if not path.is_dir():
        return f"Not a directory: {printable_name(str(path))}"
    return ""


class TabDirectoryScreen(ModalScreen[Path | None]):
    """Dismisses with the directory (resolved), or None when cancelled."""

    DEFAULT_CSS = """
    TabDirectoryScreen {
        align: center middle;
    }
    TabDirectoryScreen > Vertical {
        width: 70;
        height: auto;
        padding: 1 2;
        border: round $primary;
        background: $surface;
    }
    TabDirectoryScreen #tab-directory-problem {
        color: $text-error;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, base: Path) -> None:
        super().__init__()
        self.base = base

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.styled("New tab in another directory", "bold"))
            yield SafeInput(value=str(self.base.parent), placeholder="a directory", id="tab-directory")
            yield Static("", id="tab-directory-problem", markup=False)
            yield Static(Content.assemble(("Enter", "bold"), " Open    ", ("Esc", "bold"), " Cancel"))

    @on(Input.Submitted, "#tab-directory")
    def _submit(self, event: Input.Submitted) -> None:
        problem = directory_problem(event.value, self.base)
        if problem:
            self.query_one("#tab-directory-problem", Static).update(problem)
            return
        self.dismiss((self.base / Path(event.value.strip()).expanduser()).resolve())

    def action_cancel(self) -> None:
        self.dismiss(None)
