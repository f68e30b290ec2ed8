"""The data a diff pane shows: hunks in the CLI's ``structuredPatch`` shape and a file's diff."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

DiffKind = Literal["edit", "create", "update", "delete", "notebook", "binary", "huge"]

NO_NEWLINE = "\\ No newline at end of file"
"""The marker line jsdiff (and so the CLI) puts after a line lacking its newline."""


@dataclass(slots=True)
class Hunk:
    """One hunk of a unified diff, as in the CLI's ``structuredPatch`` (1-based starts).

    ``lines`` hold the prefixed lines: ``" ctx"``, ``"-old"``, ``"+new"`` and the
    ``"\\ No newline at end of file"`` marker.
    """

    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    lines: list[str] = field(default_factory=list)

    @property
    def header(self) -> str:
        """The ``@@ -a,b +c,d @@`` line (git convention: a start of 0 for empty ranges)."""
        old = self.old_start - 1 if self.old_lines == 0 else self.old_start
        new = self.new_start - 1 if self.new_lines == 0 else self.new_start
        return f"@@ -{max(old, 0)},{self.old_lines} +{max(new, 0)},{self.new_lines} @@"

    def to_structured(self) -> dict[str, Any]:
        """The CLI's JSON shape of this hunk."""
        return {
            "oldStart": self.old_start,
            "oldLines": self.old_lines,
            "newStart": self.new_start,
            "newLines": self.new_lines,
            "lines": list(self.lines),
        }


def _int(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def hunks_from_structured_patch(patch: object) -> list[Hunk]:
    """Hunks from a ``structuredPatch`` list; malformed entries are skipped, never raised."""
    if not isinstance(patch, list):
        return []
    hunks: list[Hunk] = []
    for entry in patch:
        if not isinstance(entry, dict):
            continue
        numbers = [_int(entry.get(key)) for key in ("oldStart", "oldLines", "newStart", "newLines")]
        lines = entry.get("lines")
        if any(n is None for n in numbers) or not isinstance(lines, list):
            continue
        clean = [line for line in lines if isinstance(line, str) and line[:1] in (" ", "-", "+", "\\")]
        old_start, old_lines, new_start, new_lines = (n for n in numbers if n is not None)
        hunks.append(Hunk(old_start, old_lines, new_start, new_lines, clean))
    return hunks


def count_changes(hunks: Iterable[Hunk]) -> tuple[int, int]:
    """(added, removed) line counts over ``hunks``."""
    added = removed = 0
    for hunk in hunks:
        for line in hunk.lines:
            first = line[:1]
            if first == "+":
                added += 1
            elif first == "-":
                removed += 1
    return added, removed


@dataclass(slots=True)
class FileDiff:
    """What changed in one file by one tool call (or what would change, before approval).

    ``kind`` is ``edit`` (Edit/MultiEdit), ``create``/``update`` (Write), ``delete``
    (content removed), ``notebook`` (NotebookEdit), or ``binary``/``huge`` for a
    guarded summary without hunks. ``note`` is a human sentence shown under the
    header (e.g. "old_string not found in the file").
    """

    path: str
    kind: DiffKind
    hunks: list[Hunk] = field(default_factory=list)
    added: int = 0
    removed: int = 0
    note: str = ""
    before: str | None = None
    """For a preview: the text the hunks were computed from (the file, or a notebook cell's source),
    so that part of the change can be taken (`diff/partial.py`); None when not known."""
    after: str | None = None
    """For a preview: the text with every hunk applied."""

    @classmethod
    def from_hunks(cls, path: str, kind: DiffKind, hunks: list[Hunk], note: str = "",
                   texts: tuple[str, str] | None = None) -> FileDiff:
        """A FileDiff whose counts are taken from its hunks; `texts`: (before, after) for a preview."""
        added, removed = count_changes(hunks)
        before, after = texts if texts is not None else (None, None)
        return cls(path, kind, hunks, added, removed, note, before, after)

    @property
    def is_guarded(self) -> bool:
        """True for a summary without hunks (binary or huge content)."""
        return self.kind in ("binary", "huge")

    @property
    def line_count(self) -> int:
        """Number of patch lines over all hunks."""
        return sum(len(h.lines) for h in self.hunks)
