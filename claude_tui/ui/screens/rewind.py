"""The "rewind files?" question: which files go back, by how much, and what does not change."""

from __future__ import annotations

import os

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from claude_tui.protocol.sanitize import one_line

MAX_LISTED = 200


class RewindScreen(ModalScreen[bool]):
    """y rewinds, n/Esc keeps the files. Built from the CLI's dry-run answer."""

    BINDINGS = [
        Binding("y", "answer(True)", "Rewind files"),
        Binding("n,escape", "answer(False)", "Keep files"),
    ]

    def __init__(self, prompt: str, files: list[str], insertions: int, deletions: int, cwd: str) -> None:
        super().__init__(classes="rewind-screen")
        self.prompt = prompt
        self.files = files
        self.insertions = insertions
        self.deletions = deletions
        self.cwd = cwd

    def compose(self) -> ComposeResult:
        count = len(self.files)
        with Vertical(id="rewind-box"):
            yield Static(Text(f"Rewind {count} file{'s' if count != 1 else ''}?", style="bold"), id="rewind-title")
            yield Static(Text.assemble("Put back as they were before ", (f"“{one_line(self.prompt)[:80]}”", "italic"),
                                       ":"), id="rewind-intro")
            with VerticalScroll(id="rewind-files"):
                yield Static(self._file_list())
            yield Static(Text.assemble((f"+{self.insertions}", "green"), " ", (f"−{self.deletions}", "red"),
                                       " lines undone. The conversation stays as it is and Claude is not told: "
                                       "say so in your next prompt if it matters."), id="rewind-note")
            yield Static(Text.assemble(("y", "bold"), " rewind    ", ("n", "bold"), "/Esc keep the files"),
                         id="rewind-keys")

    def _file_list(self) -> Text:
        lines = Text()
        for path in self.files[:MAX_LISTED]:
            shown = os.path.relpath(path, self.cwd) if self.cwd and os.path.isabs(path) else path
            if shown.startswith(".." + os.sep):
                shown = path  # outside the project: the full path says more
            lines.append("  " + one_line(shown) + "\n")
        if len(self.files) > MAX_LISTED:
            lines.append(f"  … and {len(self.files) - MAX_LISTED} more\n", style="dim")
        lines.rstrip()
        return lines

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
