"""Prompts sent in a project, shared by every claude-tui instance on it; Up/Down walk them.

The file is append-only: each prompt is one JSON line, added in one write under the project's
lock, so two instances sending alternately both keep every prompt (rewriting the file from one
instance's own list lost the other's). Reading takes the whole file, so a walk with Up starts from
what every instance sent. When the file holds twice the bound, the writer holding the lock re-reads
it and keeps the newest `LIMIT` entries (a temp file and a rename): nothing fresher than what it
just read can be lost, as every writer appends under the same lock.

An older version's `<project>.json` (one list) seeds the file the first time it is written.
"""

from __future__ import annotations

import json
from pathlib import Path

from claude_tui import paths
from claude_tui.protocol.sanitize import prompt_text
from claude_tui.store.files import append_line, exclusive, project_key

LIMIT = 1000
"""Entries kept; the file is compacted to this once it holds twice as many."""


def _decode(lines: list[str]) -> list[str]:
    entries = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # a line cut by a crash mid-write: the others are whole
        if isinstance(entry, str):
            # As the prompt box would hold them: a file written by an older version may carry raw controls.
            entries.append(prompt_text(entry))
    return entries


class PromptHistory:
    """Prompts sent in a project, oldest first; Up/Down walk them (every instance's)."""

    def __init__(self, cwd: Path, root: Path | None = None) -> None:
        # Not created here: a data dir that cannot be made costs the history, never the start-up.
        folder = (root or paths.data_path()) / "history"
        key = project_key(cwd)
        self.path = folder / f"{key}.jsonl"
        self.legacy_path = folder / f"{key}.json"
        self.lock_path = folder / f"{key}.lock"
        self.entries: list[str] = self._read()[-LIMIT:]
        self._cursor: int | None = None
        self._stash = ""

    def _read_lines(self) -> list[str] | None:
        try:
            return self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        except FileNotFoundError:
            return None
        except OSError:
            return []

    def _read_legacy(self) -> list[str]:
        try:
            data = json.loads(self.legacy_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return [prompt_text(e) for e in data if isinstance(e, str)] if isinstance(data, list) else []

    def _read(self) -> list[str]:
        lines = self._read_lines()
        return self._read_legacy() if lines is None else _decode(lines)

    def reload(self) -> None:
        """Take in what other instances sent since (a walk with Up starts from it)."""
        self.entries = self._read()[-LIMIT:]

    def add(self, prompt: str) -> None:
        prompt = prompt.rstrip()
        self._cursor = None
        if not prompt:
            return
        try:
            self._append(prompt)
        except OSError:
            # History is a convenience; never fail a send over it. This run still remembers it.
            if not self.entries or self.entries[-1] != prompt:
                self.entries = [*self.entries, prompt][-LIMIT:]

    def _append(self, prompt: str) -> None:
        with exclusive(self.lock_path):
            lines = self._read_lines()
            if lines is None:  # the first write: an older version's list comes first
                lines = [json.dumps(e) for e in self._read_legacy()]
                if lines:
                    paths.atomic_write_text(self.path, "".join(f"{line}\n" for line in lines))
            entries = _decode(lines)
            if entries and entries[-1] == prompt:
                self.entries = entries[-LIMIT:]
                return
            append_line(self.path, json.dumps(prompt))
            entries.append(prompt)
            if len(lines) + 1 > 2 * LIMIT:
                # Under the lock and from what was just read: no other instance's line is dropped unseen.
                paths.atomic_write_text(self.path, "".join(f"{json.dumps(e)}\n" for e in entries[-LIMIT:]))
            self.entries = entries[-LIMIT:]

    def previous(self, current: str) -> str | None:
        if self._cursor is None:
            self.reload()
            if not self.entries:
                return None
            self._stash = current
            self._cursor = len(self.entries)
        if self._cursor == 0:
            return None
        self._cursor -= 1
        return self.entries[self._cursor]

    def next(self) -> str | None:
        if self._cursor is None:
            return None
        self._cursor += 1
        if self._cursor >= len(self.entries):
            self._cursor = None
            return self._stash
        return self.entries[self._cursor]

    def reset(self) -> None:
        self._cursor = None
