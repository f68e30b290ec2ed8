"""Every name a session is shown by resolves back to it.

A session can be called by its full id, any unique id prefix of at least
:data:`MIN_PREFIX` characters (the 8-character ids the status bar, the browser and
the fork note show), the name given in the browser (our name store), the CLI's
custom title (``/rename``), or its title (the first prompt). Matching is
case-insensitive and ignores runs of whitespace. An id (prefix) wins over a title;
a name that fits more than one session resolves to none and lists them, so what
reaches the CLI is always one full id.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .index import SessionIndex, SessionRow
from .paths import find_session_file
from .text import clean

MIN_PREFIX = 4
_HEX = frozenset("0123456789abcdef-")


@dataclass(slots=True)
class Resolution:
    """What a name resolved to: one session, several (ambiguous), or none."""

    name: str
    session_id: str | None = None
    path: Path | None = None
    row: SessionRow | None = None
    candidates: list[SessionRow] = field(default_factory=list)  # when ambiguous
    how: str = ""  # id | id prefix | name | custom title | title | first prompt

    @property
    def found(self) -> bool:
        return self.session_id is not None

    def problem(self, list_command: str = "claude-tui sessions --all") -> str:
        """A message for the user when nothing (or too much) matched; "" when found.

        ``list_command``: the command that lists the sessions searched (another machine's: with --ssh)."""
        shown = clean(self.name, 80)
        if self.found:
            return ""
        if not self.candidates:
            if 0 < len(self.name.strip()) < MIN_PREFIX and set(self.name.strip().lower()) <= _HEX:
                return f"no session {shown!r} (an id prefix needs at least {MIN_PREFIX} characters)"
            return f"no session {shown!r} (try `{list_command}`)"
        lines = [f"{shown!r} fits {len(self.candidates)} sessions; use one of these ids:"]
        lines += [f"  {describe(row)}" for row in self.candidates[:20]]
        if len(self.candidates) > 20:
            lines.append(f"  … and {len(self.candidates) - 20} more")
        return "\n".join(lines)


def describe(row: SessionRow) -> str:
    """``<id>  <title>  (fork of <id8>)  <cwd>`` on one line, for candidate lists."""
    parts = [row.session_id, clean(row.display_title, 60)]
    if row.forked_from:
        parts.append(f"(fork of {row.forked_from[:8]})")
    if row.cwd:
        parts.append(clean(row.cwd, 60))
    return "  ".join(parts)


def _key(text: str | None) -> str:
    return clean(text or "").casefold()


def resolve_session(name: str, index: SessionIndex, cwd: str | os.PathLike[str] | None = None) -> Resolution:
    """Resolve ``name`` against every project's sessions (``cwd``'s project is searched first for an id).

    Revalidates the index (reads only new or changed transcripts' heads and tails).
    """
    wanted = name.strip()
    result = Resolution(name)
    if not wanted:
        return result
    path = find_session_file(wanted.lower(), index.root, cwd)
    if path is not None:  # a full id: no listing needed
        result.session_id, result.path, result.how = path.stem, path, "id"
        return result
    rows = index.list_sessions(cwd, all_projects=True)
    lowered = wanted.lower()
    if len(lowered) >= MIN_PREFIX and set(lowered) <= _HEX:
        by_id = [row for row in rows if row.session_id.startswith(lowered)]
        if by_id:
            return _pick(result, by_id, "id prefix")
    key = _key(wanted)
    for how, field_of in _NAMED_BY:
        matches = [row for row in rows if _key(field_of(row)) == key]
        if matches:
            return _pick(result, matches, how)
    return result


_NAMED_BY: tuple[tuple[str, Callable[[SessionRow], str | None]], ...] = (
    ("name", lambda r: r.name), ("custom title", lambda r: r.custom_title),
    ("title", lambda r: r.title), ("first prompt", lambda r: r.first_prompt),
)
"""What a session can be called, in the order a match counts."""


def _pick(result: Resolution, rows: list[SessionRow], how: str) -> Resolution:
    if len(rows) == 1:
        row = rows[0]
        result.session_id, result.path, result.row, result.how = row.session_id, Path(row.path), row, how
    else:
        result.candidates = rows
    return result


def resolve(name: str, *, root: Path | None = None, cwd: str | os.PathLike[str] | None = None,
            index_path: Path | None = None) -> Resolution:
    """:func:`resolve_session` with an index of its own (opened and closed here)."""
    with SessionIndex(index_path, root=root) as index:
        return resolve_session(name, index, cwd)
