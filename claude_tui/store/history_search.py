"""Reverse incremental search through the prompt history (Ctrl+R, as in Claude Code and readline).

Pure: it reads a list of prompts (oldest first) and answers which one matches, newest first. A
prompt sent several times is one match (readline's `erasedups` view): Ctrl+R again moves to an
older, different prompt, never to the same text seen again.
"""

from __future__ import annotations

from collections.abc import Sequence


class HistorySearch:
    def __init__(self, entries: Sequence[str]) -> None:
        self.entries = list(entries)
        self.query = ""
        self.index: int | None = None
        """Where in `entries` the current match is; None: no match (or nothing typed yet)."""

    @property
    def match(self) -> str | None:
        return self.entries[self.index] if self.index is not None else None

    def search(self, query: str) -> str | None:
        """The newest prompt containing `query` (case-insensitive); a longer query keeps looking
        from the match it had, as readline does, and goes back to the newest when it finds none older."""
        start = len(self.entries) - 1
        if self.index is not None and query.startswith(self.query):
            start = self.index
        self.query = query
        found = self._find(query, start, set())
        if found is None and start != len(self.entries) - 1:
            found = self._find(query, len(self.entries) - 1, set())
        self.index = found
        return self.match

    def older(self) -> str | None:
        """Ctrl+R again: the next older prompt that matches and differs from the ones passed.
        None (the current match kept) when there is none."""
        if self.index is None:
            return self.search(self.query) if self.entries else None
        seen = {entry for entry in self.entries[self.index:] if self._matches(entry, self.query)}
        found = self._find(self.query, self.index - 1, seen)
        if found is None:
            return None
        self.index = found
        return self.match

    def _find(self, query: str, start: int, skip: set[str]) -> int | None:
        for index in range(start, -1, -1):
            entry = self.entries[index]
            if entry not in skip and self._matches(entry, query):
                return index
        return None

    @staticmethod
    def _matches(entry: str, query: str) -> bool:
        return query.casefold() in entry.casefold()
