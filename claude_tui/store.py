"""Our own small persistent stores: prompt history and drafts, per project.

They live in the platformdirs data dir (0700), are written atomically, and
never touch the CLI's files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from claude_tui import paths
from claude_tui.protocol.sanitize import prompt_text

_HISTORY_LIMIT = 1000


def _project_key(cwd: Path) -> str:
    resolved = str(cwd.resolve())
    # surrogateescape: a directory name that is not UTF-8 must not stop the app from starting.
    digest = hashlib.sha1(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    tail = "".join(ch if ch.isalnum() else "-" for ch in cwd.name)[:40]
    return f"{tail}-{digest}"


class PromptHistory:
    """Prompts sent in a project, oldest first; Up/Down walk it."""

    def __init__(self, cwd: Path, root: Path | None = None) -> None:
        # Not created here: a data dir that cannot be made costs the history, never the start-up.
        self.path = (root or paths.data_path()) / "history" / f"{_project_key(cwd)}.json"
        self.entries: list[str] = self._load()
        self._cursor: int | None = None
        self._stash = ""

    def _load(self) -> list[str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        # As the prompt box would hold them: a file written by an older version may carry raw controls.
        return [prompt_text(entry) for entry in data if isinstance(entry, str)] if isinstance(data, list) else []

    def add(self, prompt: str) -> None:
        prompt = prompt.rstrip()
        if not prompt:
            return
        if self.entries and self.entries[-1] == prompt:
            self._cursor = None
            return
        self.entries.append(prompt)
        del self.entries[:-_HISTORY_LIMIT]
        self._cursor = None
        try:
            paths.atomic_write_text(self.path, json.dumps(self.entries))
        except OSError:
            pass  # history is a convenience; never fail a send over it

    def previous(self, current: str) -> str | None:
        if not self.entries:
            return None
        if self._cursor is None:
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


class DraftStore:
    """The unsent prompt, saved so that a crash or restart loses nothing."""

    def __init__(self, cwd: Path, root: Path | None = None, slot: int = 0) -> None:
        # Several tabs in one directory each keep their own draft: slot 0 is the first tab's (the
        # file a single session always used), the others get `<project>.<slot>.txt`.
        suffix = f".{slot}" if slot else ""
        self.path = (root or paths.data_path()) / "drafts" / f"{_project_key(cwd)}{suffix}.txt"
        self.slot = slot

    def load(self) -> str:
        try:
            return self.path.read_text(encoding="utf-8")
        except OSError:
            return ""

    def save(self, text: str) -> None:
        try:
            if text:
                paths.atomic_write_text(self.path, text)
            elif self.path.exists():
                self.path.unlink()
        except OSError:
            pass
