"""The "what changed" accumulator: files changed this turn and this session."""

from __future__ import annotations

from dataclasses import dataclass, field

from claude_tui.diff.model import FileDiff


@dataclass(slots=True)
class FileChanges:
    """Every diff recorded for one path, in order, with summed counts."""

    path: str
    diffs: list[FileDiff] = field(default_factory=list)
    added: int = 0
    removed: int = 0

    def add(self, diff: FileDiff) -> None:
        self.diffs.append(diff)
        self.added += diff.added
        self.removed += diff.removed

    @property
    def kind(self) -> str:
        """A label for the list: ``new`` if the first diff created the file, else the last kind."""
        if not self.diffs:
            return ""
        if self.diffs[0].kind == "create":
            return "create"
        return self.diffs[-1].kind


class ChangeSet:
    """Files changed this turn and this session, keyed by path in first-change order.

    Feed it with :meth:`record` for every finished file-changing tool call and
    call :meth:`begin_turn` when a user turn starts.
    """

    def __init__(self) -> None:
        self._turn: dict[str, FileChanges] = {}
        self._session: dict[str, FileChanges] = {}
        self.version = 0
        """Bumped on every change, so views can tell when to refresh."""

    def begin_turn(self) -> None:
        """Forget the current turn's files (the session keeps them)."""
        self._turn = {}
        self.version += 1

    def record(self, diff: FileDiff) -> None:
        """Add one tool call's diff to the turn and the session."""
        for table in (self._turn, self._session):
            entry = table.get(diff.path)
            if entry is None:
                entry = table[diff.path] = FileChanges(diff.path)
            entry.add(diff)
        self.version += 1

    def forget(self, diffs: list[FileDiff]) -> int:
        """Drop these diffs (changes a rewind put back); returns how many were recorded here.

        Matched by identity, so other changes to the same file stay (those made before the rewound
        prompt), and a file left with no change leaves the list.
        """
        gone = {id(d) for d in diffs}
        dropped = 0
        for table in (self._turn, self._session):
            for path in [p for p, entry in table.items() if any(id(d) in gone for d in entry.diffs)]:
                kept = FileChanges(path)
                for diff in table[path].diffs:
                    if id(diff) in gone:
                        dropped += table is self._session
                    else:
                        kept.add(diff)
                if kept.diffs:
                    table[path] = kept
                else:
                    del table[path]
        if dropped:
            self.version += 1
        return dropped

    def clear(self) -> None:
        self._turn = {}
        self._session = {}
        self.version += 1

    @property
    def turn(self) -> list[FileChanges]:
        return list(self._turn.values())

    @property
    def session(self) -> list[FileChanges]:
        return list(self._session.values())

    def totals(self, scope: str = "session") -> tuple[int, int, int]:
        """(files, added, removed) for ``turn`` or ``session``."""
        files = self.turn if scope == "turn" else self.session
        return len(files), sum(f.added for f in files), sum(f.removed for f in files)

    def __len__(self) -> int:
        return len(self._session)
