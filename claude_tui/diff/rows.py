"""Hunks → display rows: unified rows with line numbers, and side-by-side (split) rows.

Rows are cheap records built up front; word highlights are computed only when a
row is drawn (:meth:`Row.word_spans`, cached in :mod:`claude_tui.diff.words`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import zip_longest
from typing import Literal, TypeGuard

from claude_tui.diff.model import FileDiff, Hunk
from claude_tui.diff.words import Spans, changed_spans

RowKind = Literal["context", "add", "remove", "hunk-header", "collapsed", "note", "more", "section"]
LINE_KINDS = frozenset({"context", "add", "remove"})
_KIND_OF = {" ": "context", "+": "add", "-": "remove"}


@dataclass(frozen=True, slots=True)
class Row:
    """One display row. ``pair`` is the partner line of a changed pair (for word highlights)."""

    kind: RowKind
    text: str = ""
    old_no: int | None = None
    new_no: int | None = None
    pair: str | None = None
    hunk: int = -1

    def word_spans(self) -> Spans:
        """Changed character spans of this line against its partner (empty when none)."""
        if self.pair is None:
            return ()
        if self.kind == "remove":
            spans = changed_spans(self.text, self.pair)
            return spans[0] if spans else ()
        if self.kind == "add":
            spans = changed_spans(self.pair, self.text)
            return spans[1] if spans else ()
        return ()


@dataclass(frozen=True, slots=True)
class SplitRow:
    """A side-by-side row: ``left`` (old) and ``right`` (new), or one ``full``-width row."""

    left: Row | None = None
    right: Row | None = None
    full: Row | None = None


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" + ("" if count == 1 else "s")


def collapsed_row(count: int) -> Row:
    """The "⋯ N unchanged lines" row."""
    return Row("collapsed", f"⋯ {_plural(count, 'unchanged line')}")


def _parse(hunk: Hunk, index: int) -> list[Row]:
    rows: list[Row] = []
    old_no, new_no = hunk.old_start, hunk.new_start
    for line in hunk.lines:
        kind = _KIND_OF.get(line[:1])
        if kind is None:
            rows.append(Row("note", line[1:].strip(), hunk=index))
        elif kind == "context":
            rows.append(Row("context", line[1:], old_no, new_no, hunk=index))
            old_no += 1
            new_no += 1
        elif kind == "remove":
            rows.append(Row("remove", line[1:], old_no, None, hunk=index))
            old_no += 1
        else:
            rows.append(Row("add", line[1:], None, new_no, hunk=index))
            new_no += 1
    return rows


def _blocks(rows: list[Row]) -> list[list[Row]]:
    """Context rows alone, and maximal runs of changed rows (with their notes) together."""
    blocks: list[list[Row]] = []
    changed: list[Row] = []
    for row in rows:
        if row.kind == "context" or (row.kind == "note" and not changed):
            if changed:
                blocks.append(changed)
                changed = []
            blocks.append([row])
        else:
            changed.append(row)
    if changed:
        blocks.append(changed)
    return blocks


def _paired(block: list[Row]) -> list[Row]:
    """The block with removed[k] and added[k] pointing at each other."""
    removed = [i for i, row in enumerate(block) if row.kind == "remove"]
    added = [i for i, row in enumerate(block) if row.kind == "add"]
    out = list(block)
    for r, a in zip(removed, added):
        old, new = block[r], block[a]
        out[r] = Row(old.kind, old.text, old.old_no, old.new_no, new.text, old.hunk)
        out[a] = Row(new.kind, new.text, new.old_no, new.new_no, old.text, new.hunk)
    return out


def _gap_before(hunks: Sequence[Hunk], index: int) -> int:
    hunk = hunks[index]
    if index == 0:
        return max(hunk.old_start - 1, 0)
    prev = hunks[index - 1]
    return max(hunk.old_start - (prev.old_start + prev.old_lines), 0)


def unified_rows(hunks: Sequence[Hunk]) -> list[Row]:
    """Unified rows: collapsed gaps, a hunk header per hunk, then its lines."""
    rows: list[Row] = []
    for index, hunk in enumerate(hunks):
        if gap := _gap_before(hunks, index):
            rows.append(collapsed_row(gap))
        rows.append(Row("hunk-header", hunk.header, hunk=index))
        for block in _blocks(_parse(hunk, index)):
            rows.extend(_paired(block) if len(block) > 1 else block)
    return rows


def split_rows(hunks: Sequence[Hunk]) -> list[SplitRow]:
    """Side-by-side rows: removed and added runs aligned, the shorter side padded with blanks."""
    rows: list[SplitRow] = []
    for index, hunk in enumerate(hunks):
        if gap := _gap_before(hunks, index):
            rows.append(SplitRow(full=collapsed_row(gap)))
        rows.append(SplitRow(full=Row("hunk-header", hunk.header, hunk=index)))
        for block in _blocks(_parse(hunk, index)):
            if len(block) == 1 and block[0].kind in ("context", "note"):
                rows.append(SplitRow(block[0], block[0]))
                continue
            left: list[Row] = []
            right: list[Row] = []
            side = left
            for row in _paired(block):
                if row.kind == "remove":
                    side = left
                elif row.kind == "add":
                    side = right
                side.append(row)
            rows.extend(SplitRow(a, b) for a, b in zip_longest(left, right))
    return rows


def _section(diff: FileDiff, number: int, total: int) -> Row:
    text = f"{number}/{total} · {diff.kind} · +{diff.added} −{diff.removed}"
    return Row("section", f"{text} · {diff.note}" if diff.note else text)


def _head(diff: FileDiff, number: int, total: int) -> Row | None:
    """The row above a diff's hunks: its section when a file has several diffs, else its note."""
    if total > 1:
        return _section(diff, number, total)
    return Row("note", diff.note) if diff.note else None


def build_rows(diffs: Sequence[FileDiff], split: bool) -> list[Row] | list[SplitRow]:
    """All rows for one or more diffs of a file (several diffs get a section row each)."""
    if split:
        pairs: list[SplitRow] = []
        for number, diff in enumerate(diffs, 1):
            if (head := _head(diff, number, len(diffs))) is not None:
                pairs.append(SplitRow(full=head))
            pairs.extend(split_rows(diff.hunks))
        return pairs
    rows: list[Row] = []
    for number, diff in enumerate(diffs, 1):
        if (head := _head(diff, number, len(diffs))) is not None:
            rows.append(head)
        rows.extend(unified_rows(diff.hunks))
    return rows


def _counts_as_line(row: Row | SplitRow) -> bool:
    if isinstance(row, SplitRow):
        return row.full is None
    return row.kind in LINE_KINDS


def _are_split(rows: list[Row] | list[SplitRow]) -> TypeGuard[list[SplitRow]]:
    return bool(rows) and isinstance(rows[0], SplitRow)


def truncate_rows(rows: list[Row] | list[SplitRow], max_rows: int | None) -> list[Row] | list[SplitRow]:
    """The first ``max_rows`` rows plus a "… N more lines" row when rows were cut."""
    if max_rows is None or len(rows) <= max_rows:
        return rows
    keep = max(max_rows - 1, 0)
    hidden = sum(1 for row in rows[keep:] if _counts_as_line(row))
    label = _plural(hidden, "more line") if hidden else _plural(len(rows) - keep, "more row")
    more = Row("more", f"… {label}")
    if _are_split(rows):
        return [*rows[:keep], SplitRow(full=more)]
    return [*(row for row in rows[:keep] if isinstance(row, Row)), more]  # all of them: not split
