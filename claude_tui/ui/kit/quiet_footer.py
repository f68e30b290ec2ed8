"""A `Footer` that rebuilds its keys only when what it would show changes.

Textual's footer recomposes on every update of the screen's bindings: each focus move, each
refresh of the bindings, even when the keys shown stay the same. A recompose unmounts every key
and mounts new ones, each styled again: at start-up the chat screen's footer was composed six
times before the prompt settled, where two do (the first, before the bindings are ready, shows
nothing). Here a recompose first compares what `compose` would show (each shown binding's key,
label, action, state, tooltip and group, and the palette's key) with what it shows now.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.screen import Screen
from textual.widgets import Footer


class QuietFooter(Footer):
    _shows: Hashable | None = None
    """What the keys mounted now show (`shows`), once composed with the bindings ready."""

    def shows(self) -> Hashable:
        """What `Footer.compose` reads to draw the keys (from the screen's active bindings)."""
        active = self.screen.active_bindings
        keys = tuple((binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                      enabled, tooltip or binding.tooltip, binding.group.description if binding.group else None,
                      binding.group.compact if binding.group else None)
                     for _, binding, enabled, tooltip in active.values() if binding.show)
        palette = active.get(self.app.COMMAND_PALETTE_BINDING) if self.show_command_palette else None
        return keys, self.show_command_palette, self.app.ENABLE_COMMAND_PALETTE, \
            None if palette is None else (palette[1].key, palette[1].description, palette[2], palette[3])

    def bindings_changed(self, screen: Screen[object]) -> None:
        first = self._shows is None
        super().bindings_changed(screen)  # ready now; its recompose waits for the next frame
        if first and self.is_attached and screen is self.screen and screen.app.app_focus:
            # The keys in the screen's first frame: recomposed after it, they came a frame (~25 ms
            # of start-up) later, the footer first painted empty. The later recompose finds them shown.
            self.call_next(self.recompose)

    async def recompose(self) -> None:
        if not self.is_attached:
            return await super().recompose()
        shows = self.shows()
        if shows == self._shows and self.children:
            return None  # the same keys: nothing to rebuild
        self._shows = shows
        return await super().recompose()
