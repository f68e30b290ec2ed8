"""Review comments on Claude's changes, per project: the tray that goes to Claude as one prompt.

`c` on a diff comments on the hunk under the cursor; the comment keeps the file, the line, the hunk
as a diff and the hunk's new lines. The tray is a JSON file in our data dir (never the CLI's), so
comments survive a restart; a comment whose lines are no longer in the file is *stale* (they
changed since), said in the tray and in the prompt. Sending writes one prompt with every comment
(file:line, the hunk, the words) and empties the tray. No textual here.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from claude_tui import paths
from claude_tui.diff.model import Hunk
from claude_tui.diff.partial import new_side
from claude_tui.store.files import project_key


@dataclass(frozen=True)
class ReviewComment:
    path: str
    line: int
    """The first changed line of the hunk, in the new file (1-based)."""
    hunk: str
    """The hunk as a unified diff (header and lines)."""
    lines: str
    """The hunk's new side: the comment goes stale once the file no longer holds it."""
    words: str
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])

    @classmethod
    def on_hunk(cls, path: str, hunk: Hunk, words: str) -> ReviewComment:
        line = hunk.new_start
        number = hunk.new_start
        for text in hunk.lines:  # the first added (or, for a removal, the first removed) line
            if text[:1] in "+-":
                line = number
                break
            if text[:1] == " ":
                number += 1
        diff = "\n".join([hunk.header, *hunk.lines])
        return cls(path, line, diff, new_side(hunk), words)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def is_stale(comment: ReviewComment, read: Callable[[str], str | None]) -> bool:
    """The commented lines changed since (or the file is gone): `read` gives a file's text or None."""
    text = read(comment.path)
    return text is None or comment.lines not in text


def read_text(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def review_prompt(comments: Iterable[ReviewComment], stale: Callable[[ReviewComment], bool]) -> str:
    """One prompt with every comment: where, the hunk, the words."""
    parts = ["Review of your changes: please address each comment below."]
    for number, comment in enumerate(comments, 1):
        note = " (these lines have changed since the comment was written)" if stale(comment) else ""
        parts.append(f"\n{number}. {comment.where}{note}\n```diff\n{comment.hunk}\n```\n{comment.words}")
    return "\n".join(parts)


class ReviewTray:
    """The project's comments, oldest first; every change is written at once (atomic)."""

    def __init__(self, cwd: Path, root: Path | None = None) -> None:
        # Not created here: a data dir that cannot be made costs the tray, never the start-up.
        self.path = (root or paths.data_path()) / "review" / f"{project_key(cwd)}.json"
        self.comments: list[ReviewComment] = self._read()

    def _read(self) -> list[ReviewComment]:
        try:
            data: Any = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        out = []
        for entry in data if isinstance(data, list) else []:
            try:
                out.append(ReviewComment(**{k: entry[k] for k in ("path", "line", "hunk", "lines", "words", "id")}))
            except (KeyError, TypeError):
                continue  # a comment written by something else: the others still load
        return out

    def _write(self) -> bool:
        try:
            paths.atomic_write_text(self.path, json.dumps([asdict(c) for c in self.comments], indent=1))
        except OSError:
            return False
        return True

    def reload(self) -> None:
        self.comments = self._read()

    def add(self, comment: ReviewComment) -> bool:
        """Keep a comment; False when it could not be saved (it is still in the tray until restart)."""
        self.comments.append(comment)
        return self._write()

    def remove(self, comment_id: str) -> None:
        self.comments = [c for c in self.comments if c.id != comment_id]
        self._write()

    def clear(self) -> None:
        self.comments = []
        self._write()

    def __len__(self) -> int:
        return len(self.comments)
