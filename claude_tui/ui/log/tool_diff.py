"""The diff shown inside an Edit/MultiEdit/Write/NotebookEdit tool card."""

from __future__ import annotations

from textual.widget import Widget

from claude_tui.diff.model import FileDiff
from claude_tui.ui.render.diff_view import DiffView

# Inside the log a card shows a bounded preview ("… N more lines"); the
# "what changed" panel shows whole diffs.
CARD_MAX_ROWS = 40


def card_diff_view(diff: FileDiff) -> Widget:
    return DiffView(diff, max_rows=CARD_MAX_ROWS, classes="tool-diff")
