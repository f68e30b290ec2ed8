"""A large paste stands in the prompt as `[Pasted text #1 +300 lines]`; the whole text is sent (issue 27).

The thresholds are Claude Code's, measured in its TUI (2.1.330, tmux 160×48): a paste of more
than 800 characters, or with more than two line breaks, collapses; "+N lines" counts its line
breaks, and a one-line paste reads `[Pasted text #2]`. Numbers go on rising for the session, so
a placeholder names one paste for good (one taken back from the queue still opens). No textual.
"""

from __future__ import annotations

import re

PASTE_CHARS = 800
PASTE_LINE_BREAKS = 2

_PLACEHOLDER = re.compile(r"\[Pasted text #(\d+)(?: \+\d+ lines?)?\]")


def collapses(text: str) -> bool:
    return len(text) > PASTE_CHARS or text.count("\n") > PASTE_LINE_BREAKS


class PasteSlots:
    """The texts behind one prompt's placeholders."""

    def __init__(self) -> None:
        self.texts: dict[int, str] = {}
        self._next = 1

    def placeholder(self, text: str) -> str:
        """Keep `text`; the placeholder the prompt shows for it."""
        number = self._next
        self._next += 1
        self.texts[number] = text
        breaks = text.count("\n")
        return f"[Pasted text #{number} +{breaks} lines]" if breaks else f"[Pasted text #{number}]"

    def expand(self, text: str) -> str:
        """`text` with every placeholder of ours replaced by its paste (one we never made stays as typed)."""
        if "[Pasted text #" not in text:
            return text
        return _PLACEHOLDER.sub(lambda match: self.texts.get(int(match.group(1)), match.group(0)), text)

