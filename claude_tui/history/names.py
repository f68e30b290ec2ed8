"""Names users give sessions. They live in our data dir, never in the CLI's files."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from claude_tui.paths import atomic_write_text, data_path
from claude_tui.store.files import exclusive

from .text import clean

NAME_MAX = 200
_LOCK = threading.Lock()


def default_names_path() -> Path:
    return data_path() / "session-names.json"


class NameStore:
    """A small JSON map ``session_id → name``, written atomically (temp file + rename)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else default_names_path()

    def all(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str) and v}

    def get(self, session_id: str) -> str | None:
        return self.all().get(session_id)

    def set(self, session_id: str, name: str | None) -> None:
        """Name a session; an empty or None name removes it. Read, changed and written under a lock every
        instance takes (its own thread lock alone let two instances' renames overwrite each other)."""
        with _LOCK, exclusive(self.path.with_name(self.path.name + ".lock")):
            names = self.all()
            cleaned = clean(name or "", NAME_MAX)
            if cleaned:
                names[session_id] = cleaned
            else:
                names.pop(session_id, None)
            atomic_write_text(self.path, json.dumps(names, ensure_ascii=False, indent=1, sort_keys=True))


def set_session_name(session_id: str, name: str | None, *, path: Path | None = None) -> None:
    NameStore(path).set(session_id, name)


def get_session_name(session_id: str, *, path: Path | None = None) -> str | None:
    return NameStore(path).get(session_id)
