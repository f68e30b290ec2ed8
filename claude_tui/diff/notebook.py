"""NotebookEdit previews: one cell's source before and after (line numbers within the cell).

Used by the permission dialog before approval and for a finished call's result
(:mod:`claude_tui.diff.results`); the file-level previews live in :mod:`claude_tui.diff.compute`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from claude_tui.diff.compute import Content, decode_content, diff_texts, guarded_diff
from claude_tui.diff.model import FileDiff


def _cell_source(cell: object) -> str:
    source = cell.get("source", "") if isinstance(cell, dict) else ""
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else ""


def _find_cell(cells: list[Any], cell_id: str | None) -> int | None:
    if not cell_id:
        return None
    for index, cell in enumerate(cells):
        if isinstance(cell, dict) and cell.get("id") == cell_id:
            return index
    match = re.fullmatch(r"(?:cell-)?(\d+)", cell_id)
    if match and int(match.group(1)) < len(cells):
        return int(match.group(1))
    return None


def preview_notebook(
    notebook_text: Content,
    cell_id: str | None,
    new_source: str,
    cell_type: str | None = None,
    edit_mode: str = "replace",
    *,
    path: str = "",
) -> FileDiff:
    """A NotebookEdit: the edited cell's source before and after (line numbers within the cell)."""
    text, guard = decode_content(notebook_text)
    if guard:
        return guarded_diff(path, guard, notebook_text)
    cells: list[Any] = []
    if text:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("cells"), list):
            cells = data["cells"]
    index = _find_cell(cells, cell_id)
    old_cell = cells[index] if index is not None else None
    kind = cell_type or (old_cell.get("cell_type") if isinstance(old_cell, dict) else None) or "code"
    where = f"cell {cell_id}" if cell_id else "first cell"
    if edit_mode == "insert":
        anchor = f"after cell {cell_id}" if cell_id else "at the top"
        hunks = diff_texts("", new_source)
        return FileDiff.from_hunks(path, "notebook", hunks, f"Insert {kind} cell {anchor}.", ("", new_source))
    if old_cell is None:
        note = f"{where.capitalize()} not found in the notebook; showing the new source."
        if edit_mode == "delete":
            return FileDiff(path, "notebook", note=f"Delete {where}: cell not found in the notebook.")
        return FileDiff.from_hunks(path, "notebook", diff_texts("", new_source), note)
    old_source = _cell_source(old_cell)
    if edit_mode == "delete":
        return FileDiff.from_hunks(path, "notebook", diff_texts(old_source, ""), f"Delete {kind} {where}.",
                                   (old_source, ""))
    hunks = diff_texts(old_source, new_source)
    return FileDiff.from_hunks(path, "notebook", hunks, f"Replace {where} ({kind}).", (old_source, new_source))
