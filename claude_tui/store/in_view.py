"""Which session was in view when claude-tui last quit in a project, for `--continue`.

Quitting with several tabs ends every tab's CLI at once, and each writes its transcript as it
exits: the CLI's own "newest session" is then whichever exited last, not the tab you looked at.
So the quit records the tab in view here, in our data dir (never in the CLI's files), with the
time the last CLI had exited; `claude_tui/resume.py` prefers it unless a session of the project
was active after that. One small JSON file, keyed by project, merged under a lock.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_tui import paths
from claude_tui.store.files import exclusive, project_key

SLACK_SECONDS = 2.0
"""A transcript written this long after the record still counts as written by that quit (mtime
granularity, a CLI's last write racing the record)."""


@dataclass(frozen=True)
class InView:
    session_id: str
    at: float
    """When the quit had stopped every CLI (wall clock, as transcripts' mtimes are)."""


def _path(root: Path | None) -> Path:
    return (root or paths.data_path()) / "in-view.json"


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def remember(cwd: Path, session_id: str | None, *, root: Path | None = None, at: float | None = None) -> None:
    """Record `session_id` as in view in `cwd` (None forgets: the tab had no session yet).
    Failures are silent: --continue then falls back to the newest session."""
    path = _path(root)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with exclusive(path.with_name(path.name + ".lock")):
            data = _load(path)
            key = project_key(cwd)
            if session_id:
                data[key] = {"session_id": session_id, "at": time.time() if at is None else at}
            else:
                data.pop(key, None)
            paths.atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")
    except OSError:
        pass


def recorded(cwd: Path, *, root: Path | None = None) -> InView | None:
    entry = _load(_path(root)).get(project_key(cwd))
    if not isinstance(entry, dict):
        return None
    session_id, at = entry.get("session_id"), entry.get("at")
    if not isinstance(session_id, str) or not session_id or not isinstance(at, (int, float)):
        return None
    return InView(session_id, float(at))
