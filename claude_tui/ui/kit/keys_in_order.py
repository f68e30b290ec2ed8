"""A text field that takes a burst of keys in the order they were typed.

Textual inserts a letter as the field handles its key, but runs the binding of Backspace, Tab,
the arrows or Enter only once the key has bubbled up to the app. In a burst every key is queued
at the field before any has bubbled, so the letters would overtake the keys between them ("host",
four Backspaces, "open session" would read "hoopen sessi"), and the text typed after a Tab would
still land here, queued before the focus moved. Here a binding runs as the field handles its key, and a key
queued for this field after the focus moved on (on the same screen) goes on to the focused field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events
from textual.widgets import Input

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    _Base = Widget
else:
    _Base = object  # a plain mixin: a second Widget base would hide the field's component classes


class KeysInOrder(_Base):
    """Mixin for a text field: list it before the field's class (`class F(KeysInOrder, Input)`)."""

    async def on_key(self, event: events.Key) -> None:
        app = self.app
        focused = app.focused
        if app.screen is self.screen and focused is not None and focused is not self:
            event.stop()
            event.prevent_default()
            focused.post_message(events.Key(event.key, event.character))
            return
        if event.is_printable:
            return  # the field inserts it
        active = self.screen.active_bindings.get(event.key)
        if active is None or active.binding.priority or not active.enabled:
            return  # priority bindings ran before the key got here
        if await app.run_action(active.binding.action, active.node):
            event.stop()
            event.prevent_default()


def hand_to_field(app: App[Any], event: events.Key) -> bool:
    """A key from the terminal for a focused text field that is not a `KeysInOrder` (the palette's
    search box, Textual's own): its binding is queued at the field, to run there behind the keys
    typed before it. True when handed over (the app then forwards nothing)."""
    focused = app.focused
    if (event.is_forwarded or event.is_printable or focused is None or isinstance(focused, KeysInOrder)
            or not isinstance(focused, Input)):
        return False
    active = app.screen.active_bindings.get(event.key)
    if active is None or active.binding.priority:
        return False  # unbound, or a priority binding: the app handles it at once, as always
    screen = app.screen

    async def run() -> None:
        now = app.screen.active_bindings.get(event.key) if app.screen is screen else None
        if now is not None and now.enabled and not now.binding.priority:
            await app.run_action(now.binding.action, now.node)

    focused.call_later(run)
    return True
