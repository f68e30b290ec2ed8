"""The "rewind files?" question: which files go back, by how much, and what does not change.

Rewinding cannot be undone, and the dialog opens when the CLI's dry run answers, some time
after `r` in select mode, where `y` means "copy": so its keys wait for the typeahead guard
(:class:`GuardedModal`), like the permission dialogs'.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from claude_tui.diff.display import project_relative
from claude_tui.protocol.sanitize import one_line
from claude_tui.ui.dialogs.base import DIALOG_CSS, GuardedModal, waiting_notice

MAX_LISTED = 200


def _lines(count: int) -> str:
    return f"{count} line{'s' if count != 1 else ''}"


def undo_summary(insertions: int, deletions: int) -> list[str | tuple[str, str]]:
    """What a rewind does to the lines, in words ("+1 −3 lines undone" read as nonsense): the lines
    Claude added go, the ones it removed come back. Counts in the theme's diff colours."""
    added = (_lines(insertions), "$text-success")
    removed = (_lines(deletions), "$text-error")
    if insertions and deletions:
        return ["Takes out the ", added, " Claude added and puts back the ", removed, " it removed."]
    if insertions:
        return ["Takes out the ", added, " Claude added."]
    if deletions:
        return ["Puts back the ", removed, " Claude removed."]
    return ["No lines change."]


class RewindScreen(GuardedModal[bool]):
    """y rewinds, n/Esc keeps the files. Built from the CLI's dry-run answer."""

    CSS_PATH = [DIALOG_CSS, "rewind.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Rewind files"),
        Binding("n,escape", "answer(False)", "Keep files"),
    ]

    def __init__(self, prompt: str, files: list[str], insertions: int, deletions: int, cwd: str, *,
                 guard_ms: int | None = None) -> None:
        """``guard_ms=None``: the app's typeahead guard."""
        super().__init__(guard_ms=guard_ms, classes="rewind-screen")
        self.prompt = prompt
        self.files = files
        self.insertions = insertions
        self.deletions = deletions
        self.cwd = cwd

    def compose(self) -> ComposeResult:
        count = len(self.files)
        with Vertical(id="rewind-box"):
            yield Static(Content.styled(f"Rewind {count} file{'s' if count != 1 else ''}?", "bold"),
                         id="rewind-title")
            yield Static(Content.assemble("Put back as they were before ",
                                          (f"“{one_line(self.prompt)[:80]}”", "italic"), ":"), id="rewind-intro")
            with VerticalScroll(id="rewind-files"):
                yield Static(self._file_list())
            # Theme variables (not ANSI names), so the counts follow the theme like a diff's +/-.
            yield Static(Content.assemble(*undo_summary(self.insertions, self.deletions),
                                          " The conversation stays as it is and Claude is not told: "
                                          "say so in your next prompt if it matters."), id="rewind-note")
            yield waiting_notice(self.waiting)
            with Horizontal(id="rewind-keys"):
                yield Static(Content.assemble(("y", "bold"), " rewind    ", ("n", "bold"), "/Esc keep the files"))
                yield Static("keys paused…", classes="guard-notice", markup=False)

    def _file_list(self) -> Content:
        lines: list[Content] = []
        for path in self.files[:MAX_LISTED]:
            lines.append(Content("  " + one_line(project_relative(path, self.cwd))))
        if len(self.files) > MAX_LISTED:
            lines.append(Content.styled(f"  … and {len(self.files) - MAX_LISTED} more", "dim"))
        return Content("\n").join(lines)

    def action_answer(self, answer: bool) -> None:
        if self.keys_open():
            self.finish(answer)
