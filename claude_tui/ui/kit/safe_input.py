"""A one-line text field whose value never holds a control character.

Textual's `Input` keeps what a paste or a preset value carries (ESC, BEL, C1 …) and draws it as
nothing, since a control is zero cells wide: the field would hide part of what is then used (a
search, a session name, an answer sent to Claude). `SafeInput` shows each as its stand-in, like
the prompt box, so the field holds exactly what it shows.
"""

from __future__ import annotations

from textual.widgets import Input

from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.kit.keys_in_order import KeysInOrder


class SafeInput(KeysInOrder, Input):
    """Also takes a burst of keys in order (`KeysInOrder`)."""

    # Typing and pasting insert through `insert`/`replace`: cleaned there, the cursor lands after
    # the stand-ins. `validate_value` (Textual's reactive hook) covers a value set in code.
    def insert(self, text: str, index: int) -> None:
        super().insert(printable_name(text), index)

    def replace(self, text: str, start: int, end: int) -> None:
        super().replace(printable_name(text), start, end)

    def validate_value(self, value: str) -> str:
        return printable_name(value)
