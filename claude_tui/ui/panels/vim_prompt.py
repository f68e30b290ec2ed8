"""The prompt's vim mode: keys go through `claude_tui/vim_mode.py` VimMachine, its outcome goes
back into the editor as one edit (so it passes `PromptInput.edit`'s stand-ins like any typing).

Only the keys the machine handles are taken; the rest (insert-mode typing, arrows, Enter, and
Esc in normal mode, which interrupts a running turn) are the prompt's as always.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import TextArea
from textual.widgets.text_area import Document

from claude_tui.vim_mode import INSERT, NORMAL, VimMachine

MODE_LABELS = {INSERT: "-- INSERT --", NORMAL: "-- NORMAL --"}


class VimKeys:
    def __init__(self, area: TextArea, shown: Callable[[str], None]) -> None:
        self.machine = VimMachine()
        self._area = area
        self._shown = shown
        shown(self.machine.mode)

    @property
    def mode(self) -> str:
        return self.machine.mode

    def key(self, key: str, character: str | None) -> bool:
        """True when vim took the key (the editor must not apply it)."""
        area = self._area
        document = area.document
        assert isinstance(document, Document)
        text = area.text
        cursor = document.get_index_from_location(area.cursor_location)
        before = self.machine.mode
        name = character if character is not None and len(character) == 1 and character.isprintable() else key
        outcome = self.machine.feed(text, cursor, name)
        if not outcome.handled:
            return False
        if outcome.text != text:
            area.replace(outcome.text, (0, 0), document.end, maintain_selection_offset=False)
        done = area.document
        assert isinstance(done, Document)
        area.move_cursor(done.get_location_from_index(min(outcome.cursor, len(area.text))))
        if outcome.mode != before:
            self._shown(outcome.mode)
        return True
