"""The diff shown inside an Edit/MultiEdit/Write/NotebookEdit tool card."""

from __future__ import annotations

from typing import Any

from textual.widget import Widget

from claude_tui.diff.results import file_diff_from_tool_result
from claude_tui.ui.widgets.diff_view import DiffView

# Inside the log a card shows a bounded preview ("… N more lines"); the
# "what changed" panel shows whole diffs.
CARD_MAX_ROWS = 40


def diff_for_tool_result(tool_name: str, tool_input: dict[str, Any], result: Any) -> Widget | None:
    diff = file_diff_from_tool_result(tool_name, tool_input, result if isinstance(result, dict) else None)
    if diff is None:
        return None
    return DiffView(diff, max_rows=CARD_MAX_ROWS, classes="tool-diff")
