"""The "tell Claude what to do instead" sub-mode the permission and plan dialogs share.

``t`` opens a one-line message box and moves focus into it; Enter sends a refusal
that carries the message; Esc goes back to the choices without answering. Esc in
the main mode is the dialog's plain "no" (:meth:`TellDialog.refuse`). Every action
checks :meth:`GuardedDialog.keys_open`, so the typeahead guard applies throughout.

The dialog's ``mode`` reactive only toggles a ``-mode-*`` class; TCSS shows the
matching panel (``GuardedDialog.-mode-tell #tell``) and hides the key bar.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.reactive import reactive

from claude_tui.session.permissions import PermissionDecision, PermissionRequest
from claude_tui.ui.dialogs.base import GuardedDialog
from claude_tui.ui.dialogs.parts import MessageBox


class TellDialog(GuardedDialog):
    """A GuardedDialog with a ``main`` mode of key choices and a ``tell`` mode (a message box).

    Subclasses bind ``t`` to ``tell`` and Esc to ``escape``, put :meth:`compose_tell`
    in their foot, implement :meth:`refuse`, and may add modes (extend
    :meth:`focus_mode` and :meth:`check_action`).
    """

    TELL_PROMPT: ClassVar[str] = ""
    TELL_PLACEHOLDER: ClassVar[str] = ""
    TELL_WORDS: ClassVar[str] = ""
    """How the transcript sums up a told refusal: ``"{TELL_WORDS}: {message}"``."""
    MAIN_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """Actions that only make sense among the main choices (``tell`` is always one)."""

    mode: reactive[str] = reactive("main", init=False)

    def __init__(self, request: PermissionRequest, **dialog: Any) -> None:
        """`dialog`: GuardedDialog's options (position, total, guard_ms, bell, desktop, name, id, classes)."""
        super().__init__(request, **dialog)
        self.set_class(True, "-mode-main")

    def compose_tell(self) -> ComposeResult:
        yield MessageBox(self.TELL_PROMPT, self.TELL_PLACEHOLDER, "Enter send · Esc back", id="tell")

    # ------------------------------------------------------------------ modes

    def watch_mode(self, old: str, new: str) -> None:
        self.set_class(False, f"-mode-{old}")
        self.set_class(True, f"-mode-{new}")
        self.focus_mode(new)

    def focus_mode(self, mode: str) -> None:
        """Move focus into the panel of ``mode`` (the scrolling body for ``main``)."""
        if mode == "tell":
            self.query_one("#tell", MessageBox).open()
        else:
            self.query_one("#body").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "tell" or action in self.MAIN_ACTIONS:
            return self.mode == "main"
        return True

    # ------------------------------------------------------------------ actions

    def refuse(self) -> None:  # pragma: no cover - abstract
        """Esc in the main mode: the dialog's plain "no" (the same decision as ``n``)."""
        raise NotImplementedError

    def action_escape(self) -> None:
        if not self.keys_open():
            return
        if self.mode == "main":
            self.refuse()
        else:
            self.mode = "main"

    def action_tell(self) -> None:
        if self.keys_open():
            self.mode = "tell"

    @on(MessageBox.Submitted, "#tell")
    def _tell_submitted(self, event: MessageBox.Submitted) -> None:
        event.stop()
        text = event.text.strip()
        if not text or not self.keys_open():
            return  # an empty message is not a decision; Esc goes back
        self.told(text)

    def told(self, text: str) -> None:
        """The message was sent: refuse with it (the permission dialog may take part of a change instead)."""
        words = f"{self.TELL_WORDS}: {text}"
        self.decide(PermissionDecision(self.request.request_id, False, message=text, words=words))
