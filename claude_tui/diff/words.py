"""Word-level highlights inside a changed pair of lines."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

Spans = tuple[tuple[int, int], ...]
"""Character ranges ``(start, end)`` into a line."""

_TOKEN_RE = re.compile(r"\w+|\s+|[^\w\s]")
MIN_RATIO = 0.4
"""Pairs less similar than this are shown as whole-line changes."""
MAX_LINE = 1_000
"""Longer lines are not tokenized."""


def tokenize(line: str) -> list[str]:
    """Words, whitespace runs and single punctuation characters; joined they give ``line``."""
    return _TOKEN_RE.findall(line)


def _merge(spans: list[tuple[int, int]]) -> Spans:
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if start >= end:
            continue
        if merged and merged[-1][1] >= start:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)


@lru_cache(maxsize=4096)
def changed_spans(old: str, new: str, min_ratio: float = MIN_RATIO) -> tuple[Spans, Spans] | None:
    """Changed character spans on each side of a removed/added pair, or None to skip.

    None when the lines are equal, too long, or too different (ratio below
    ``min_ratio``) — highlighting most of a line says less than highlighting none.
    """
    if old == new or len(old) > MAX_LINE or len(new) > MAX_LINE:
        return None
    a, b = tokenize(old), tokenize(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < min_ratio:
        return None
    offsets_a = [0]
    for token in a:
        offsets_a.append(offsets_a[-1] + len(token))
    offsets_b = [0]
    for token in b:
        offsets_b.append(offsets_b[-1] + len(token))
    left: list[tuple[int, int]] = []
    right: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        left.append((offsets_a[i1], offsets_a[i2]))
        right.append((offsets_b[j1], offsets_b[j2]))
    spans_a, spans_b = _merge(left), _merge(right)
    if not spans_a and not spans_b:
        return None
    return spans_a, spans_b
