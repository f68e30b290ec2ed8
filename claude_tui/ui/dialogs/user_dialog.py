"""The dialog for Claude Code's own `request_user_dialog` (`protocol/user_dialogs.py`): a question and
numbered answers. A `GuardedModal` in a `DialogFrame`: it opens waiting (typing goes on into the prompt, Tab moves here,
the guard swallows a key on the heels of that Tab), a number answers, and appearing while the user is
not typing, its first number may answer at once (`ONE_KEY`), as a question's does. Esc answers
"cancelled": the CLI then does what the dialog does by default. Every text of the payload is inert.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from claude_tui.protocol.sanitize import one_line, printable, printable_name
from claude_tui.protocol.user_dialogs import UserDialog, cancelled, completed
from claude_tui.session.permissions import PermissionDecision, PermissionRequest
from claude_tui.ui.dialogs.base import DEFAULT_GUARD_MS, ENTER_ANSWERS_NOTHING, Attention, GuardedModal
from claude_tui.ui.dialogs.frame import DialogFrame
from claude_tui.ui.dialogs.parts import Hint

__all__ = ["UserDialogScreen"]


class UserDialogScreen(GuardedModal[PermissionDecision]):
    AUTO_FOCUS: ClassVar[str | None] = "#body"
    BINDINGS: ClassVar[list[BindingType]] = [
        ENTER_ANSWERS_NOTHING,
        Binding("escape", "dismiss_dialog", "Dismiss", show=False),
        *[Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)],
    ]
    ONE_KEY = frozenset(str(n) for n in range(1, 10))
    MARK_PAUSED = False  # "keys paused…" shows for as long as the guard is up

    def __init__(self, request: PermissionRequest, *, guard_ms: int = DEFAULT_GUARD_MS, bell: bool = True,
                 desktop: bool = True, **modal: Any) -> None:
        """`modal`: GuardedModal's options (position, total, name, id, classes)."""
        super().__init__(guard_ms=guard_ms, answers_cli=True,
                         attention=Attention("Claude Code asks you to choose", bell, desktop), **modal)
        self.request = request
        dialog = request.user_dialog
        assert dialog is not None, "a user dialog needs its dialog"
        self.dialog: UserDialog = dialog

    def compose(self) -> ComposeResult:
        yield DialogFrame(Content(printable_name(self.dialog.title)[:80]), self.hints(), head=self.compose_head(),
                          body=self.compose_body(), waiting=self.waiting, position=self.position, total=self.total,
                          classes="-user-dialog")

    def compose_head(self) -> ComposeResult:
        yield Static(Content(printable(self.dialog.question)), classes="section-label")

    def compose_body(self) -> ComposeResult:
        for line in self.dialog.details:
            yield Static(Content(printable(line)), classes="section-body")
        for number, (_value, label) in enumerate(self.dialog.options[:9], start=1):
            yield Static(Content(f"{number}. {one_line(label)[:200]}"), classes="dialog-option")

    def hints(self) -> list[Hint]:
        count = min(len(self.dialog.options), 9)
        return [Hint("1" if count == 1 else f"1–{count}", "Choose", "pick(0)", "allow"),
                Hint("esc", "Dismiss", "dismiss_dialog", "deny")]

    def action_pick(self, index: int) -> None:
        if not self.keys_open() or not 0 <= index < min(len(self.dialog.options), 9):
            return
        value, label = self.dialog.options[index]
        self.finish(PermissionDecision(request_id=self.request.request_id, allow=True, response=completed(value),
                                       words=f"Chose: {one_line(label)[:120]}"))

    def action_dismiss_dialog(self) -> None:
        if not self.keys_open():
            return
        self.finish(PermissionDecision(request_id=self.request.request_id, allow=False, response=cancelled(),
                                       words="Dismissed (Claude Code does its default)"))
