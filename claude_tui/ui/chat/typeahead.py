"""Typing where nothing takes text (the chat log, the sidebar) goes to the prompt: no keystroke is lost.

So do the prompt's deleting keys (Backspace, Delete, Ctrl+W/U/K, `DELETING_KEYS`): they mean
nothing to the log, and a draft is fixed without clicking back into it. The arrows, Home/End and
the page keys stay with the log (they scroll it), as do Enter (a lone Enter must not send the
draft) and the copy and undo keys. Keys the focused widget binds (the sidebar's `x`, a diff's `s`)
stay with it. Focus moves at once, but keys typed quickly after the first may already be queued
for the old widget: until
the router's `Drained` (posted behind them) comes back, those that arrive, Enter,
Backspace and the newline keys included, are pressed again on the prompt, in order.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, TextArea

from claude_tui.protocol.sanitize import typed_stand_in
from claude_tui.ui.panels.prompt_input import TYPING_KEYS, PromptInput

DELETING_KEYS = frozenset({"backspace", "delete", "ctrl+w", "ctrl+backspace", "alt+backspace", "alt+delete",
                           "ctrl+u", "ctrl+k"})
"""The prompt's deleting keys that, typed where nothing takes text, go to the prompt (see above)."""


class TypeaheadRouter:
    """Held by a chat view, which hands it every key that bubbles up to it."""

    class Drained(Message):
        """Posted behind the keys already queued for the widget that had focus when typing went to the prompt."""

    def __init__(self, view: Widget, prompt: PromptInput, keymap: Mapping[str, str] | None = None) -> None:
        self.view = view
        self.prompt = prompt
        self.keymap = dict(keymap or {})
        """The user's keymap (binding id -> keys): a remapped key is bound where its binding is."""
        self.in_flight = 0
        """Redirections whose `TypeaheadDrained` has not come back yet."""
        self._retyped: set[events.Key] = set()

    def on_key(self, event: events.Key) -> None:
        view = self.view
        if event in self._retyped:
            self._retyped.discard(event)
            return  # handed to the prompt already, which left it to the bindings (Backspace)
        # A bidi or zero-width character is typing too: the prompt shows it as a stand-in.
        typed = bool(event.character) and (event.is_printable or typed_stand_in(event.character) is not None)
        prompt = self.prompt
        focused = view.screen.focused
        if self.in_flight and focused is not prompt:
            self.forget()  # focus moved on (Tab, a click): whatever was in flight is over
        if self.in_flight and (typed or event.key in TYPING_KEYS or event.key in DELETING_KEYS):
            self._retype(event)
            return
        if not (typed or event.key in DELETING_KEYS) or isinstance(focused, (Input, TextArea)) \
                or self._bound_below(focused, event):
            return
        self.in_flight += 1
        (focused or view).post_message(self.Drained())
        view.screen.set_focus(prompt)
        self._retype(event)

    def drained(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        if not self.in_flight:
            self._retyped.clear()

    def forget(self) -> None:
        self.in_flight = 0
        self._retyped.clear()

    def _bound_below(self, focused: Widget | None, event: events.Key) -> bool:
        """Whether the focused widget or a container of it below the view binds the key, enabled or not.

        Read from the classes' public `BINDINGS` (with the user's keymap applied by binding id), not
        from Textual's private binding chain: a key a widget disables for now is still its key.
        """
        if focused is None:
            return False
        wanted = {event.key, event.character or ""} - {""}
        for node in focused.ancestors_with_self:
            if node is self.view:
                return False
            if wanted & bound_keys(type(node), self.keymap):
                return True
        return False

    def _retype(self, event: events.Key) -> None:
        """Press the key again, now that the prompt has focus: in order, with the prompt's own keys and bindings."""
        event.stop()
        event.prevent_default()
        app = self.view.app
        again = events.Key(event.key, event.character).set_sender(app)  # as from the terminal: up to the app
        self._retyped.add(again)
        app.post_message(again)


def bound_keys(cls: type, keymap: Mapping[str, str]) -> set[str]:
    """Every key `cls` (with its bases) binds, the keymap applied."""
    keys: set[str] = set()
    for klass in cls.__mro__:
        for binding in Binding.make_bindings(klass.__dict__.get("BINDINGS", [])):
            remapped = keymap.get(binding.id) if binding.id else None
            keys.update(key.strip() for key in (remapped or binding.key).split(","))
    return keys
