"""Turning an untrusted diff line into display text, and lexing it for syntax colours.

Pure helpers for the DiffView widget: tabs expanded, control characters made
visible, and an offset map so word-highlight spans still land on the right cells.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TypeVar

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import _TokenType
from pygments.util import ClassNotFound

from claude_tui.protocol.sanitize import printable

TAB_SIZE = 4
S = TypeVar("S")
"""A token's style, whatever the caller's table maps tokens to."""
_NEEDS_WORK = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def printable_char(char: str) -> str:
    """A visible stand-in for one control character.

    Beyond what `printable` replaces, a diff also shows the invisible marks that make two lines
    look equal (LRM, RLM, BOM), as the replacement character.
    """
    shown = printable(char)
    return shown if shown != char else "\ufffd"


def display_text(text: str, tab_size: int = TAB_SIZE) -> tuple[str, list[int] | None]:
    """(display string, offsets) where ``offsets[i]`` is where source char ``i`` starts.

    ``offsets`` has ``len(text) + 1`` entries, or is None when the text is shown as is.
    """
    if not _NEEDS_WORK.search(text):
        return text, None
    parts: list[str] = []
    offsets: list[int] = []
    column = 0
    for char in text:
        offsets.append(column)
        if char == "\t":
            shown = " " * (tab_size - column % tab_size)
        elif _NEEDS_WORK.match(char):
            shown = printable_char(char)
        else:
            shown = char
        parts.append(shown)
        column += len(shown)
    offsets.append(column)
    return "".join(parts), offsets


def map_spans(spans: tuple[tuple[int, int], ...], offsets: list[int] | None) -> list[tuple[int, int]]:
    """Source-character spans → display-character spans."""
    if offsets is None:
        return list(spans)
    last = len(offsets) - 1
    return [(offsets[min(s, last)], offsets[min(e, last)]) for s, e in spans]


@lru_cache(maxsize=64)
def lexer_for(path: str) -> Lexer | None:
    """A Pygments lexer chosen by file name, or None for plain text."""
    name = os.path.basename(path)
    options = {"stripnl": False, "ensurenl": False, "stripall": False}
    try:
        if name.endswith(".tcss"):
            return get_lexer_by_name("scss", **options)
        if name.endswith(".ipynb"):
            return get_lexer_by_name("python", **options)
        return get_lexer_for_filename(name, **options)
    except ClassNotFound:
        return None


TokenSpans = list[tuple[int, int, _TokenType]]


def lex_line(lexer: Lexer, line: str) -> TokenSpans:
    """Token spans of one line (lexed on its own: cheap, context-free)."""
    spans: TokenSpans = []
    start = 0
    try:
        tokens = lexer.get_tokens(line)
        for token_type, value in tokens:
            end = start + len(value)
            if value and not value.isspace():
                spans.append((start, end, token_type))
            start = end
    except Exception:  # a lexer bug must not break the diff
        return []
    return spans


def resolve_token(token_type: _TokenType, table: Mapping[_TokenType, S], cache: dict[_TokenType, S | None]) -> S | None:
    """The style for ``token_type`` from ``table``, walking up its parents (memoized)."""
    if token_type in cache:
        return cache[token_type]
    found: S | None = None
    walk: _TokenType | None = token_type
    while walk is not None:
        if walk in table:
            found = table[walk]
            break
        walk = walk.parent
    cache[token_type] = found
    return found



def project_relative(path: str, root: str | None) -> str:
    """`path` as the user thinks of it: relative to the project when it is inside it, else in full."""
    if not root or not os.path.isabs(path):
        return path
    shown = os.path.relpath(path, root)
    return path if shown == ".." or shown.startswith(".." + os.sep) else shown
