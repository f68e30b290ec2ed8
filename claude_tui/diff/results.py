"""Diffs of finished tool calls (``tool_use_result``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from claude_tui.diff.compute import preview_write
from claude_tui.diff.model import FileDiff, hunks_from_structured_patch
from claude_tui.diff.notebook import preview_notebook

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
