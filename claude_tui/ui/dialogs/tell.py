"""The "tell Claude what to do instead" box the permission and plan dialogs hold (composition, not a base).

``t`` opens a one-line message box and moves focus into it; Enter sends a refusal
that carries the message; Esc goes back to the choices without answering. Esc in
the main mode is the dialog's plain "no". Every action checks
:meth:`GuardedModal.keys_open`, so the typeahead guard applies throughout.

What lives here: the box, its words, and the refusal a message makes (:meth:`TellBox.refusal`).
An empty message is no decision, so the box drops it itself and tells its dialog only
``TellBox.Told``. What each dialog keeps: its ``mode`` reactive (the permission dialog has two more
modes, so the modes are the screen's state), the ``t`` and Esc bindings (they act in the main mode
too, where the box has no focus), and the guard check on ``Told``. The ``mode`` reactive only
toggles a ``-mode-*`` class; TCSS shows the matching panel (``.-mode-tell DialogFrame #tell``, `base.tcss`)
and hides the key bar.
"""

from __future__ import annotations

from textual import on
from textual.message import Message

from claude_tui.session.permissions import PermissionDecision, PermissionRequest
from claude_tui.ui.dialogs.parts import MessageBox

TELL_HINT = "Enter send · Esc back"


class TellBox(MessageBox):
    """The message box of a dialog's ``tell`` mode: ``summary`` is how the transcript sums up a
    told refusal (``"{summary}: {message}"``)."""

    class Told(Message):
        """Enter on a message that is not blank (the dialog checks the guard, then refuses with it)."""

        def __init__(self, box: TellBox, text: str) -> None:
            super().__init__()
            self.box = box
            self.text = text

        @property
        def control(self) -> TellBox:
            return self.box

    def __init__(self, prompt: str, placeholder: str, summary: str, *, id: str = "tell") -> None:
        super().__init__(prompt, placeholder, TELL_HINT, id=id)
        self.summary = summary

    @on(MessageBox.Submitted)
    def _submitted(self, event: MessageBox.Submitted) -> None:
        # Posted by this box itself (MessageBox turns its Input's Enter into it): handled here, so
        # the dialog hears only of a message worth the guard's check, one hop as before.
        event.stop()
        text = event.text.strip()
        if text:  # an empty message is not a decision; Esc goes back
            self.post_message(self.Told(self, text))

    def refusal(self, request: PermissionRequest, text: str) -> PermissionDecision:
        """The refusal that tells Claude ``text``."""
        return PermissionDecision(request.request_id, False, message=text, words=f"{self.summary}: {text}")
