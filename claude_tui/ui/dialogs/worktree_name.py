"""Name the worktree of a new session (empty: a generated name), or Esc to start none."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from claude_tui.git.worktree import BRANCH_PREFIX, validate_name
from claude_tui.ui.kit.safe_input import SafeInput


class WorktreeNameScreen(ModalScreen[str | None]):
    """Dismisses with the name ("" for a generated one), or None when cancelled."""

    CSS_PATH = "worktree_name.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="worktree-name-box"):
            yield Static(Content.styled("New session in a git worktree", "bold"))
            yield Static(Content(f"Name (branch {BRANCH_PREFIX}NAME); leave empty for a generated one."),
                         id="worktree-name-help")
            yield SafeInput(placeholder="e.g. fix-login", id="worktree-name", max_length=64)
            yield Static("", id="worktree-name-problem", markup=False)
            yield Static(Content.assemble(("Enter", "bold"), " Start    ", ("Esc", "bold"), " Cancel"),
                         id="worktree-name-keys")

    @on(Input.Changed, "#worktree-name")
    def _check(self, event: Input.Changed) -> None:
        name = event.value.strip()
        self.query_one("#worktree-name-problem", Static).update((validate_name(name) or "") if name else "")

    @on(Input.Submitted, "#worktree-name")
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        name = event.value.strip()
        if name and validate_name(name):
            return  # the problem is shown under the field
        self.dismiss(name)

    def action_cancel(self) -> None:
        self.dismiss(None)
