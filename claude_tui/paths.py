"""Where claude-tui keeps its own files (never inside the CLI's config dir).

Every directory is created 0700 and every file is written atomically, so a
crash mid-write can never leave a half-written history, draft or config.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import platformdirs

APP_NAME = "claude-tui"


def private_dir(path: Path) -> Path:
    """``path`` created 0700 (with its parents); raises OSError when it cannot be."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        os.chmod(path, 0o700)
    except OSError:  # e.g. a directory owned by someone else; reading still works
        pass
    return path


def config_dir() -> Path:
    return private_dir(platformdirs.user_config_path(APP_NAME))


def config_file() -> Path:
    override = os.environ.get("CLAUDE_TUI_CONFIG")
    return Path(override) if override else platformdirs.user_config_path(APP_NAME) / "config.toml"


def data_path() -> Path:
    """The data directory's path, not created: stores that must not fail at start-up resolve it with
    this, and create it on their first write (inside their own error handling)."""
    return platformdirs.user_data_path(APP_NAME)


def data_dir() -> Path:
    return private_dir(data_path())


def cache_path() -> Path:
    """The cache directory's path, not created (see :func:`data_path`)."""
    return platformdirs.user_cache_path(APP_NAME)


def cache_dir() -> Path:
    return private_dir(cache_path())


def log_dir() -> Path:
    return private_dir(platformdirs.user_log_path(APP_NAME))


def atomic_write_text(path: Path, text: str, *, private: bool = True) -> None:
    """Write ``text`` to ``path`` via a temp file + rename (readers never see a partial file).

    ``private`` (our own stores) makes the directory 0700 and the file 0600; an
    export into the user's project (``private=False``) leaves the folder's mode alone.
    """
    if private:
        private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600 if private else 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
