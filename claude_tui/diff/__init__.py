"""Pure diff maths: hunks, previews, display rows, split alignment, word highlights.

No textual imports here (enforced by ``tests/unit/test_layers.py``); the widget
that renders these rows lives in ``claude_tui.ui.render.diff_view``.
"""

from __future__ import annotations

from claude_tui.diff.compute import diff_texts, preview_delete, preview_edit, preview_multiedit, preview_write
from claude_tui.diff.model import FileDiff, Hunk, count_changes, hunks_from_structured_patch
from claude_tui.diff.notebook import preview_notebook
from claude_tui.diff.results import file_diff_from_tool_result
from claude_tui.diff.rows import Row, SplitRow, split_rows, unified_rows
from claude_tui.diff.stats import ChangeSet, FileChanges
from claude_tui.diff.words import changed_spans

__all__ = [
    "ChangeSet",
    "FileChanges",
    "FileDiff",
    "Hunk",
    "Row",
    "SplitRow",
    "changed_spans",
    "count_changes",
    "diff_texts",
    "file_diff_from_tool_result",
    "hunks_from_structured_patch",
    "preview_delete",
    "preview_edit",
    "preview_multiedit",
    "preview_notebook",
    "preview_write",
    "split_rows",
    "unified_rows",
]
