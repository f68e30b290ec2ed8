"""Hunks computed locally in the CLI's ``structuredPatch`` format, plus tool-call previews.

The CLI builds ``structuredPatch`` with jsdiff (``structuredPatch(..., {context: 3})``):
line tokens keep their ``\\n`` (so a last line without newline differs from the
same line with one), hunks join when the unchanged run between two changes is at
most ``2 * context`` lines, starts are 1-based even for empty ranges, and a
``\\ No newline at end of file`` marker follows every line that lacks its newline.
:func:`diff_texts` reproduces that shape on top of :mod:`difflib`.

The previews are what the permission dialog shows *before* approval: the edit is
applied to the file's current contents exactly as the CLI would apply it.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from claude_tui.diff.model import NO_NEWLINE, DiffKind, FileDiff, Hunk
from claude_tui.protocol import units

MAX_CHARS = 2_000_000
"""Content longer than this (characters or bytes) gets a guarded summary."""
MAX_LINES = 50_000
"""Content with more lines than this gets a guarded summary."""
_EXACT_LIMIT = 4_000
"""Scale (lines per side) up to which difflib runs on the whole changed middle section."""

_LINE_RE = re.compile(r"[^\n]*\n|[^\n]+")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})

Content = str | bytes | None
Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]
"""One of difflib's ``get_opcodes()``: (tag, i1, i2, j1, j2)."""


# --------------------------------------------------------------------------- guards


def decode_content(content: Content) -> tuple[str | None, DiffKind | None]:
    """(text, guard) where guard is ``binary``/``huge`` when the content must not be diffed."""
    if content is None:
        return None, None
    if isinstance(content, bytes):
        if len(content) > MAX_CHARS:
            return None, "huge"
        if b"\0" in content:
            return None, "binary"
        try:
            content = content.decode("utf-8")
        except UnicodeDecodeError:
            return None, "binary"
    if "\0" in content:
        return None, "binary"
    if len(content) > MAX_CHARS or content.count("\n") > MAX_LINES:
        return None, "huge"
    return content, None


def _size(content: Content) -> str:
    if content is None:
        return units.size(0)
    return units.size(len(content.encode("utf-8", "replace") if isinstance(content, str) else content))


def guarded_diff(path: str, kind: DiffKind, *contents: Content) -> FileDiff:
    biggest = max(contents, key=lambda c: 0 if c is None else len(c))
    if kind == "binary":
        note = f"Binary content ({_size(biggest)}) — not shown."
    else:
        lines = 0 if biggest is None else (biggest.count("\n") if isinstance(biggest, str) else biggest.count(b"\n"))
        note = f"Large content ({lines:,} lines, {_size(biggest)}) — diff not computed."
    return FileDiff(path, kind, [], 0, 0, note)


# --------------------------------------------------------------------------- diffing


def _tokens(text: str) -> list[str]:
    """Lines keeping their ``\\n`` (jsdiff's line tokens); only ``\\n`` separates lines."""
    return _LINE_RE.findall(text)


def _opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    """difflib opcodes; big inputs are first cut at patience anchors so they stay near-linear.

    difflib's matcher goes quadratic on long, evenly changed files (its recursion
    splits unevenly); lines that occur once on each side, in increasing order on
    both, are certain matches, so the gaps between them are diffed on their own.
    """
    if len(a) * len(b) <= _EXACT_LIMIT * _EXACT_LIMIT // 4:
        return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    out: list[Opcode] = []
    i = j = 0
    for ai, bj in [*_patience_anchors(a, b), (len(a), len(b))]:
        if ai > i or bj > j:
            gap_a, gap_b = a[i:ai], b[j:bj]
            if len(gap_a) * len(gap_b) > _EXACT_LIMIT * _EXACT_LIMIT:
                ops: list[Opcode] = [("replace", 0, len(gap_a), 0, len(gap_b))]
            else:
                ops = difflib.SequenceMatcher(None, gap_a, gap_b, autojunk=False).get_opcodes()
            out += [(tag, i1 + i, i2 + i, j1 + j, j2 + j) for tag, i1, i2, j1, j2 in ops]
        if ai < len(a):
            out.append(("equal", ai, ai + 1, bj, bj + 1))
        i, j = ai + 1, bj + 1
    return out


def _patience_anchors(a: list[str], b: list[str]) -> list[tuple[int, int]]:
    """Pairs (i, j) of lines unique on both sides, longest increasing in both."""
    count_a = Counter(a)
    count_b = Counter(b)
    where_b = {line: j for j, line in enumerate(b) if count_b[line] == 1}
    pairs = [(i, where_b[line]) for i, line in enumerate(a) if count_a[line] == 1 and line in where_b]
    tails: list[int] = []  # tails[k]: index into pairs of the smallest tail of an increasing run of length k+1
    back: list[int] = [-1] * len(pairs)
    for index, (_, j) in enumerate(pairs):
        k = _bisect_tails(pairs, tails, j)
        if k > 0:
            back[index] = tails[k - 1]
        if k == len(tails):
            tails.append(index)
        else:
            tails[k] = index
    chain: list[tuple[int, int]] = []
    index = tails[-1] if tails else -1
    while index >= 0:
        chain.append(pairs[index])
        index = back[index]
    return chain[::-1]


def _bisect_tails(pairs: list[tuple[int, int]], tails: list[int], j: int) -> int:
    low, high = 0, len(tails)
    while low < high:
        middle = (low + high) // 2
        if pairs[tails[middle]][1] < j:
            low = middle + 1
        else:
            high = middle
    return low


def _changes(a: list[str], b: list[str]) -> list[tuple[str, list[str]]]:
    """jsdiff-like change list: ("=", lines) / ("-", lines) / ("+", lines), removals first."""
    prefix = 0
    limit = min(len(a), len(b))
    while prefix < limit and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and a[len(a) - 1 - suffix] == b[len(b) - 1 - suffix]:
        suffix += 1
    mid_a = a[prefix : len(a) - suffix]
    mid_b = b[prefix : len(b) - suffix]
    changes: list[tuple[str, list[str]]] = []

    def add(op: str, lines: list[str]) -> None:
        if not lines:
            return
        if changes and changes[-1][0] == op:
            changes[-1][1].extend(lines)
        else:
            changes.append((op, list(lines)))

    add("=", a[:prefix])
    for tag, i1, i2, j1, j2 in _opcodes(mid_a, mid_b):
        if tag == "equal":
            add("=", mid_a[i1:i2])
            continue
        add("-", mid_a[i1:i2])
        add("+", mid_b[j1:j2])
    add("=", a[len(a) - suffix :])
    return changes


def _hunks(changes: list[tuple[str, list[str]]], context: int) -> list[Hunk]:
    """jsdiff's ``structuredPatch`` hunking over a change list."""
    changes = [*changes, ("=", [])]
    hunks: list[Hunk] = []
    old_range_start = new_range_start = 0
    current: list[str] = []
    old_line = new_line = 1
    last = len(changes)
    for i, (op, lines) in enumerate(changes):
        if op != "=":
            if not old_range_start:
                old_range_start, new_range_start = old_line, new_line
                if i > 0 and context > 0:
                    current = [" " + line for line in changes[i - 1][1][-context:]]
                    old_range_start -= len(current)
                    new_range_start -= len(current)
            current.extend(op + line for line in lines)
            if op == "+":
                new_line += len(lines)
            else:
                old_line += len(lines)
            continue
        if old_range_start:
            if len(lines) <= context * 2 and i < last - 2:
                current.extend(" " + line for line in lines)
            else:
                size = min(len(lines), context)
                current.extend(" " + line for line in lines[:size])
                hunks.append(
                    Hunk(
                        old_range_start,
                        old_line - old_range_start + size,
                        new_range_start,
                        new_line - new_range_start + size,
                        current,
                    )
                )
                old_range_start = new_range_start = 0
                current = []
        old_line += len(lines)
        new_line += len(lines)
    for hunk in hunks:
        fixed: list[str] = []
        for line in hunk.lines:
            if line.endswith("\n"):
                fixed.append(line[:-1])
            else:
                fixed.extend((line, NO_NEWLINE))
        hunk.lines = fixed
    return hunks


def diff_texts(old: str, new: str, context: int = 3) -> list[Hunk]:
    """Hunks from ``old`` to ``new`` in the CLI's ``structuredPatch`` format.

    No guard here: call it on content already checked (the previews do).
    """
    if old == new:
        return []
    return _hunks(_changes(_tokens(old), _tokens(new)), max(context, 0))


# --------------------------------------------------------------------------- edits


def _find_actual(text: str, search: str) -> str | None:
    """The string to replace: ``search`` itself, or the file's spelling when only quotes differ.

    The CLI accepts an old_string whose curly quotes were straightened; the
    normalization maps one character to one, so offsets line up.
    """
    if search in text:
        return search
    normalized = search.translate(_QUOTES)
    index = text.translate(_QUOTES).find(normalized)
    if index < 0:
        return None
    return text[index : index + len(search)]


def _replace(text: str, old: str, new: str, replace_all: bool) -> str:
    """Apply one edit the way the CLI does (deleting a line also deletes its newline)."""
    if new == "" and not old.endswith("\n") and (old + "\n") in text:
        old += "\n"
    return text.replace(old, new) if replace_all else text.replace(old, new, 1)


def _apply(text: str, old: str, new: str, replace_all: bool) -> tuple[str | None, str]:
    """(updated text or None, note) for one edit."""
    if old == "":
        if text.strip() == "":
            return new, ""
        return None, "old_string is empty but the file is not; the CLI will refuse this edit."
    actual = _find_actual(text, old)
    if actual is None:
        return None, "old_string was not found in the file; the CLI will refuse this edit."
    note = ""
    count = text.count(actual)
    if count > 1 and not replace_all:
        note = (
            f"old_string occurs {count} times and replace_all is off; "
            "the CLI will refuse this edit (showing the first occurrence)."
        )
    if actual == new:
        note = "old_string and new_string are identical; nothing would change."
    return _replace(text, actual, new, replace_all), note


def _edit_diff(path: str, kind: DiffKind, old: str, new: str, note: str = "") -> FileDiff:
    _, guard = decode_content(new)
    if guard:
        return guarded_diff(path, guard, old, new)
    hunks = diff_texts(old, new)
    if not hunks and not note:
        note = "No changes."
    return FileDiff.from_hunks(path, kind, hunks, note, (old, new))


def preview_edit(
    file_text: Content, old_string: str, new_string: str, replace_all: bool = False, *, path: str = ""
) -> FileDiff:
    """What an Edit would change in ``file_text`` (the file on disk; ``None`` if it does not exist)."""
    text, guard = decode_content(file_text)
    if guard:
        return guarded_diff(path, guard, file_text)
    if text is None:
        if old_string == "":
            return _edit_diff(path, "create", "", new_string)
        return FileDiff(path, "edit", note="The file does not exist; the CLI will refuse this edit.")
    updated, note = _apply(text, old_string, new_string, replace_all)
    if updated is None:
        return FileDiff(path, "edit", note=note)
    return _edit_diff(path, "edit", text, updated, note)


def preview_multiedit(file_text: Content, edits: Sequence[Mapping[str, Any]], *, path: str = "") -> FileDiff:
    """What a MultiEdit would change: its edits applied in order; any failure refuses them all."""
    text, guard = decode_content(file_text)
    if guard:
        return guarded_diff(path, guard, file_text)
    original = text
    if text is None:
        first = edits[0] if edits else {}
        if not (isinstance(first, Mapping) and first.get("old_string") == ""):
            return FileDiff(path, "edit", note="The file does not exist; the CLI will refuse this edit.")
        text = ""
    notes: list[str] = []
    for number, edit in enumerate(edits, 1):
        old = edit.get("old_string") if isinstance(edit, Mapping) else None
        new = edit.get("new_string") if isinstance(edit, Mapping) else None
        if not isinstance(old, str) or not isinstance(new, str):
            return FileDiff(path, "edit", note=f"Edit {number} of {len(edits)} is malformed.")
        updated, note = _apply(text, old, new, bool(edit.get("replace_all", False)))
        if updated is None:
            return FileDiff(path, "edit", note=f"Edit {number} of {len(edits)}: {note}")
        if note:
            notes.append(f"Edit {number}: {note}")
        text = updated
    kind: DiffKind = "create" if original is None else "edit"
    return _edit_diff(path, kind, original or "", text, " ".join(notes))


def preview_write(path_exists: bool, old_text: Content, new_text: Content, *, path: str = "") -> FileDiff:
    """What a Write would change: ``create`` (all lines added) or ``update`` (a patch)."""
    new, new_guard = decode_content(new_text)
    if new_guard:
        return guarded_diff(path, new_guard, old_text, new_text)
    new = new or ""
    if not path_exists or old_text is None:
        hunks = diff_texts("", new)
        return FileDiff.from_hunks(path, "create", hunks, "" if hunks else "New empty file.", ("", new))
    old, old_guard = decode_content(old_text)
    if old_guard:
        return guarded_diff(path, old_guard, old_text, new_text)
    return _edit_diff(path, "update", old or "", new)


def preview_delete(old_text: Content, *, path: str = "") -> FileDiff:
    """A file's whole content removed."""
    old, guard = decode_content(old_text)
    if guard:
        return guarded_diff(path, guard, old_text)
    hunks = diff_texts(old or "", "")
    return FileDiff.from_hunks(path, "delete", hunks, "" if hunks else "Empty file deleted.")

