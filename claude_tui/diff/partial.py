"""Part of a change: a file's text with only some hunks applied, and the tool input that makes it.

The permission dialog lets the user accept or reject each hunk of a file tool's preview (and
rewrite a hunk's new side). What the CLI then receives is the tool's input rebuilt so that
applying it to the file as it is gives exactly the original with the accepted hunks:

- Write: its ``content`` is the partial text;
- Edit and MultiEdit: one ``old_string`` → ``new_string`` covering the accepted changes, widened by
  whole lines until ``old_string`` occurs once in the file (the CLI refuses an ambiguous Edit);
- NotebookEdit: the cell's ``new_source`` (a cell deleted in part is replaced by what is kept).

Pure: no textual, no asyncio; ``tests/unit/test_diff_partial.py`` checks it with hypothesis.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from claude_tui.diff.model import NO_NEWLINE, Hunk

_LINE_RE = re.compile(r"[^\n]*\n|[^\n]+")


class HunkMismatch(ValueError):
    """The hunks were not computed from this text (the file changed under the preview)."""


def _lines(text: str) -> list[str]:
    """Lines keeping their ``\\n`` (the tokens the hunks count)."""
    return _LINE_RE.findall(text)


def _side(hunk: Hunk, keep: str) -> str:
    """One side of a hunk as text: `keep` is ``"-"`` (old) or ``"+"`` (new); context is on both."""
    out: list[str] = []
    kept = False
    for line in hunk.lines:
        if line == NO_NEWLINE:
            if kept and out and out[-1].endswith("\n"):
                out[-1] = out[-1][:-1]
            continue
        kept = line[:1] in (" ", keep)
        if kept:
            out.append(line[1:] + "\n")
    return "".join(out)


def old_side(hunk: Hunk) -> str:
    """The text a hunk replaces: its context and removed lines."""
    return _side(hunk, "-")


def new_side(hunk: Hunk) -> str:
    """The text a hunk puts in their place: its context and added lines (what `e` edits)."""
    return _side(hunk, "+")


def apply_hunks(before: str, hunks: Sequence[Hunk], accepted: Collection[int],
                rewritten: Mapping[int, str] | None = None) -> str:
    """`before` with the hunks numbered in `accepted` applied (0-based, in the preview's order).

    `rewritten`: a hunk's new side as the user edited it, used instead of the hunk's own.
    Raises HunkMismatch when a hunk's old side is not in `before` where the hunk says."""
    lines = _lines(before)
    out: list[str] = []
    at = 0
    for number, hunk in enumerate(hunks):
        start = max(hunk.old_start - 1, 0)
        end = start + hunk.old_lines
        old = old_side(hunk)
        if start < at or end > len(lines) or "".join(lines[start:end]) != old:
            raise HunkMismatch(f"hunk {number + 1} does not match the text")
        if number not in accepted:
            continue
        out += lines[at:start]
        out.append((rewritten or {}).get(number, new_side(hunk)))
        at = end
    out += lines[at:]
    return "".join(out)


def _occurs_once(text: str, part: str) -> bool:
    first = text.find(part)
    return first >= 0 and text.find(part, first + 1) < 0


def single_edit(before: str, after: str) -> tuple[str, str]:
    """(old_string, new_string) such that ``before.replace(old_string, new_string, 1) == after``
    and old_string occurs once in `before`: the changed lines, widened by whole lines as needed.

    An empty `before` gives ``("", after)`` (the CLI's way to fill an empty file)."""
    if not before:
        return "", after
    old, new = _lines(before), _lines(after)
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    while True:
        old_string = "".join(old[prefix:len(old) - suffix])
        if old_string and _occurs_once(before, old_string):
            return old_string, "".join(new[prefix:len(new) - suffix])
        # Widen by a line on each side there is one (the whole text occurs once: this ends).
        if prefix == 0 and suffix == 0:  # pragma: no cover - the whole of `before` is unique
            return before, after
        prefix = max(prefix - 1, 0)
        suffix = max(suffix - 1, 0)


def rebuilt_input(tool_name: str, tool_input: Mapping[str, Any], before: str, after: str) -> dict[str, Any]:
    """The tool's input that turns `before` (the file, or the notebook cell's source) into `after`."""
    updated = dict(tool_input)
    if tool_name == "Write":
        updated["content"] = after
    elif tool_name == "Edit":
        updated["old_string"], updated["new_string"] = single_edit(before, after)
        updated["replace_all"] = False
    elif tool_name == "MultiEdit":
        old_string, new_string = single_edit(before, after)
        updated["edits"] = [{"old_string": old_string, "new_string": new_string, "replace_all": False}]
    elif tool_name == "NotebookEdit":
        updated["new_source"] = after
        if updated.get("edit_mode") == "delete":  # part of the cell is kept: it is replaced, not deleted
            updated["edit_mode"] = "replace"
    else:
        raise ValueError(f"{tool_name} has no hunks to take in part")
    return updated


@dataclass
class HunkChoice:
    """Which hunks of one preview are taken: the cursor, the rejected ones, the rewritten new sides."""

    count: int
    cursor: int = 0
    rejected: set[int] = field(default_factory=set)
    rewritten: dict[int, str] = field(default_factory=dict)

    def move(self, step: int) -> None:
        self.cursor = min(max(self.cursor + step, 0), max(self.count - 1, 0))

    def toggle(self) -> None:
        """Accept the hunk under the cursor if it was rejected, else reject it."""
        self.rejected ^= {self.cursor}

    @property
    def accepted(self) -> set[int]:
        return set(range(self.count)) - self.rejected

    @property
    def whole(self) -> bool:
        """Every hunk taken as Claude wrote it: the input goes as it is."""
        return not self.rejected and not self.rewritten


def hunk_lines(hunk: Hunk) -> str:
    """Where a hunk is, in the original's line numbers: ``lines 3-9``."""
    last = hunk.old_start + max(hunk.old_lines, 1) - 1
    return f"line {hunk.old_start}" if last == hunk.old_start else f"lines {hunk.old_start}-{last}"


def left_out_note(path: str, hunks: Sequence[Hunk], choice: HunkChoice, why: str = "") -> str:
    """What Claude is told when only part of its change was applied (empty when all of it was)."""
    if choice.whole:
        return ""
    parts: list[str] = []
    left = [n for n in range(len(hunks)) if n in choice.rejected]
    if left:
        listed = "; ".join(f"hunk {n + 1} ({hunk_lines(hunks[n])}):\n{_diff_text(hunks[n])}" for n in left)
        parts.append(f"Of your change to {path}, I left out {len(left)} of {len(hunks)} hunks — {listed}")
    rewritten = sorted(n for n in choice.rewritten if n in choice.accepted)
    if rewritten:
        parts.append("I rewrote the new lines of " + ", ".join(
            f"hunk {n + 1} ({hunk_lines(hunks[n])})" for n in rewritten) + " before applying it.")
    parts.append("The file now holds only what was applied: read it again before editing it.")
    if why:
        parts.append(f"Why: {why}")
    return "\n".join(parts)


def _diff_text(hunk: Hunk) -> str:
    return "\n".join([hunk.header, *hunk.lines])
