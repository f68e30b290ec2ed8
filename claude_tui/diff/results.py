"""Diffs of finished tool calls (``tool_use_result``) and of NotebookEdit cells."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from claude_tui.diff.compute import Content, decode_content, diff_texts, guarded_diff, preview_write
from claude_tui.diff.model import FileDiff, hunks_from_structured_patch

# --------------------------------------------------------------------------- notebooks


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
        return FileDiff.from_hunks(path, "notebook", hunks, f"Insert {kind} cell {anchor}.")
    if old_cell is None:
        note = f"{where.capitalize()} not found in the notebook; showing the new source."
        if edit_mode == "delete":
            return FileDiff(path, "notebook", note=f"Delete {where}: cell not found in the notebook.")
        return FileDiff.from_hunks(path, "notebook", diff_texts("", new_source), note)
    old_source = _cell_source(old_cell)
    if edit_mode == "delete":
        return FileDiff.from_hunks(path, "notebook", diff_texts(old_source, ""), f"Delete {kind} {where}.")
    hunks = diff_texts(old_source, new_source)
    return FileDiff.from_hunks(path, "notebook", hunks, f"Replace {where} ({kind}).")


# --------------------------------------------------------------------------- tool results


def _str(mapping: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = mapping.get(key)
        if isinstance(value, str):
            return value
    return None


def file_diff_from_tool_result(
    tool_name: str, tool_input: Mapping[str, Any] | None, result: Mapping[str, Any] | None
) -> FileDiff | None:
    """The FileDiff of a finished Edit/MultiEdit/Write/NotebookEdit from its ``tool_use_result``.

    Works for live results and for transcript records (same shape). Returns None
    for other tools or unusable results.
    """
    tool_input = tool_input if isinstance(tool_input, Mapping) else {}
    if not isinstance(result, Mapping):
        return None
    path = _str(result, "filePath", "notebook_path") or _str(tool_input, "file_path", "notebook_path") or ""
    patch = hunks_from_structured_patch(result.get("structuredPatch"))
    if tool_name in ("Edit", "MultiEdit"):
        return FileDiff.from_hunks(path, "edit", patch, "" if patch else "No changes.")
    if tool_name == "Write":
        content = _str(result, "content")
        if result.get("type") == "create" or result.get("originalFile") is None:
            if patch:
                return FileDiff.from_hunks(path, "create", patch)
            return preview_write(False, None, content or "", path=path)
        return FileDiff.from_hunks(path, "update", patch, "" if patch else "No changes.")
    if tool_name == "NotebookEdit":
        new_source = _str(result, "new_source") or _str(tool_input, "new_source") or ""
        diff = preview_notebook(
            _str(result, "original_file"),
            _str(result, "cell_id") or _str(tool_input, "cell_id"),
            new_source,
            _str(result, "cell_type") or _str(tool_input, "cell_type"),
            _str(result, "edit_mode") or _str(tool_input, "edit_mode") or "replace",
            path=path,
        )
        error = _str(result, "error")
        if error:
            diff.note = f"{diff.note} Error: {error}".strip()
        return diff
    return None
