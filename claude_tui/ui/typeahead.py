"""Typing where nothing takes text (the chat log, the sidebar) goes to the prompt: no keystroke is lost.

Keys the focused widget binds (the sidebar's `x`, a diff's `s`) stay with it. Focus moves at
once, but keys typed quickly after the first may already be queued for the old widget: until
the screen's `TypeaheadDrained` (posted behind them) comes back, those that arrive, Enter,
Backspace and the newline keys included, are pressed again on the prompt, in order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.widgets import Input, TextArea

from claude_tui.ui.widgets.composer import TYPING_KEYS, Composer

if TYPE_CHECKING:

    from claude_tui.ui.screens.chat import ChatScreen


class TypeaheadRouter:
    """Held by the chat screen, which hands it every key that bubbles up to it."""

    def __init__(self, screen: ChatScreen) -> None:
        self.screen = screen
        self.in_flight = 0
        """Redirections whose `TypeaheadDrained` has not come back yet."""
        self._retyped: set[events.Key] = set()

    def on_key(self, event: events.Key) -> None:
        screen = self.screen
        if event in self._retyped:
            self._retyped.discard(event)
            return  # handed to the prompt already, which left it to the bindings (Backspace)
        typed = event.is_printable and bool(event.character)
        prompt = screen.query_one(Composer).prompt
        focused = screen.focused
        if self.in_flight and focused is not prompt:
            self.forget()  # focus moved on (Tab, a click): whatever was in flight is over
        if self.in_flight and (typed or event.key in TYPING_KEYS):
            self._retype(event)
            return
        if not typed or isinstance(focused, (Input, TextArea)) or self._bound_below(event.key):
            return
        self.in_flight += 1
        (focused or screen).post_message(screen.TypeaheadDrained())
        screen.set_focus(prompt)
        self._retype(event)

    def drained(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        if not self.in_flight:
            self._retyped.clear()

    def forget(self) -> None:
        self.in_flight = 0
        self._retyped.clear()

    def _bound_below(self, key: str) -> bool:
        """Whether the focused widget or a container of it (not the screen) binds `key`, enabled or not."""
        for node, bindings in self.screen._modal_binding_chain:  # focused first, keymap applied
            if node is self.screen:
                return False
            if key in bindings.key_to_bindings:
                return True
        return False

    def _retype(self, event: events.Key) -> None:
        """Press the key again, now that the prompt has focus: in order, with the prompt's own keys and bindings."""
        event.stop()
        event.prevent_default()
        app = self.screen.app
        again = events.Key(event.key, event.character).set_sender(app)  # as from the terminal: up to the app
        self._retyped.add(again)
        app.post_message(again)
