"""One tab's unsent prompt, saved as it is typed so that a crash or restart loses nothing.

A draft belongs to the tab that wrote it, in whichever claude-tui instance: each open tab holds a
slot of its project's drafts, `<project>.txt` (slot 0) or `<project>.<n>.txt`, by an exclusive
`flock` on the slot's `.lock` file, taken on first use and held until the tab closes. Another
instance (or tab) on the same project never reads, overwrites or deletes a held slot; it takes the
next free one. A slot whose holder is gone — closed, crashed, killed — is free again, and its draft
is offered back: a tab takes a free slot that holds a draft before an empty one, and shows it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from claude_tui import paths
from claude_tui.store.files import project_key, try_hold

MAX_SLOTS = 1000
"""More tabs than this on one project share no slot: they keep no draft."""


class DraftStore:
    """The draft of one tab: `load` and `save` claim a free slot on first use, `release` gives it up."""

    def __init__(self, cwd: Path, root: Path | None = None) -> None:
        self.folder = (root or paths.data_path()) / "drafts"
        self.key = project_key(cwd)
        self.slot: int | None = None
        """The slot held (None before the first use, after `release`, or when none could be had)."""
        self._fd: int | None = None
        self._released = False

    def slot_path(self, slot: int) -> Path:
        return self.folder / f"{self.key}{f'.{slot}' if slot else ''}.txt"

    @property
    def path(self) -> Path | None:
        return self.slot_path(self.slot) if self.slot is not None else None

    def _slots_with_drafts(self) -> list[int]:
        pattern = re.compile(re.escape(self.key) + r"(?:\.([1-9][0-9]*))?\.txt")
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        found = [int(m.group(1) or 0) for name in names if (m := pattern.fullmatch(name))]
        return sorted(slot for slot in found if slot < MAX_SLOTS)

    def _claim(self) -> Path | None:
        if self._fd is not None or self._released:
            return self.path
        try:
            with_drafts = self._slots_with_drafts()
            for slot in [*with_drafts, *(s for s in range(MAX_SLOTS) if s not in with_drafts)]:
                fd = try_hold(self.folder / f"{self.key}{f'.{slot}' if slot else ''}.lock")
                if fd is not None:
                    self._fd, self.slot = fd, slot
                    return self.path
        except OSError:
            pass  # an unwritable data dir: no slot can be held, so none is read or written
        self._released = True  # tried once: a tab without a slot keeps its draft in the prompt only
        return None

    def load(self) -> str:
        path = self._claim()
        if path is None:
            return ""
        try:
            return path.read_text(encoding="utf-8")
        except OSError:
            return ""

    def save(self, text: str) -> None:
        path = self._claim()
        if path is None:
            return
        try:
            if text:
                paths.atomic_write_text(path, text)
            elif path.exists():
                path.unlink()
        except OSError:
            pass

    def release(self) -> None:
        """The tab is closing (its draft saved): the slot is free for the next tab or instance."""
        self._released = True
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self.slot = None
