"""Where the CLI keeps transcripts, and where claude-tui keeps its own files.

The CLI stores ``<config root>/projects/<encoded cwd>/<session-id>.jsonl``
where the config root is ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``. Nothing in
this module writes under the config root.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path

from claude_tui import paths as app_paths

APP_NAME = app_paths.APP_NAME
#: Encoded names longer than this are truncated and get a hash suffix.
MAX_ENCODED_LEN = 200
_NON_ALNUM = re.compile(r"[^a-zA-Z0-9]")
_SESSION_FILE_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\.jsonl$")


def config_root(env: Mapping[str, str] | None = None) -> Path:
    """``$CLAUDE_CONFIG_DIR`` if set, else ``$HOME/.claude`` (of ``env``; default: ours)."""
    env = os.environ if env is None else env
    value = env.get("CLAUDE_CONFIG_DIR")
    if value:
        return Path(unicodedata.normalize("NFC", os.path.expanduser(value)))
    home = env.get("HOME")
    return (Path(home) if home else Path.home()) / ".claude"


def cli_config_root(cli_env: Mapping[str, str]) -> Path:
    """The store a local CLI writes to: it runs with our environment and ``cli_env`` over it, so a
    ``CLAUDE_CONFIG_DIR`` or ``HOME`` there moves its transcripts, and every reader must follow."""
    return config_root({**os.environ, **cli_env})


def projects_root(root: Path | None = None) -> Path:
    return (root if root is not None else config_root()) / "projects"


def _js_hash36(text: str) -> str:
    """The 32-bit string hash (base 36) the SDK appends to long names."""
    h = 0
    for ch in text:
        h = ((h << 5) - h + ord(ch)) & 0xFFFFFFFF
    if h >= 0x80000000:
        h -= 0x100000000
    h = abs(h)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        h, r = divmod(h, 36)
        out = digits[r] + out
        if h == 0:
            return out


def encode_project_dir(cwd: str | os.PathLike[str]) -> str:
    """Every non-alphanumeric character becomes '-'; long names get truncated + hash.

    The CLI's hash for long names may differ from ours (it depends on the
    runtime), so :func:`project_dir_for` matches long names by prefix.
    """
    raw = unicodedata.normalize("NFC", os.fspath(cwd))
    encoded = _NON_ALNUM.sub("-", raw)
    if len(encoded) <= MAX_ENCODED_LEN:
        return encoded
    return f"{encoded[:MAX_ENCODED_LEN]}-{_js_hash36(raw)}"


def list_project_dirs(root: Path | None = None) -> list[Path]:
    """All project directories under the config root (sorted by name)."""
    base = projects_root(root)
    try:
        with os.scandir(base) as it:
            return sorted(Path(e.path) for e in it if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def project_dir_for(cwd: str | os.PathLike[str], root: Path | None = None) -> Path | None:
    """The project directory holding ``cwd``'s sessions, or None if there is none.

    Tries the path as given and its realpath; long names fall back to a prefix
    match because the hash suffix is runtime-dependent.
    """
    base = projects_root(root)
    candidates = [os.fspath(cwd)]
    real = os.path.realpath(candidates[0])
    if real != candidates[0]:
        candidates.append(real)
    for cand in candidates:
        encoded = encode_project_dir(cand)
        exact = base / encoded
        if exact.is_dir():
            return exact
        if len(encoded) > MAX_ENCODED_LEN:
            prefix = encoded[:MAX_ENCODED_LEN] + "-"
            for entry in list_project_dirs(root):
                if entry.name.startswith(prefix):
                    return entry
    return None


def is_session_file_name(name: str) -> bool:
    """``<uuid>.jsonl`` (subagent files ``agent-*.jsonl`` are not sessions)."""
    return bool(_SESSION_FILE_RE.fullmatch(name))


def iter_session_files(project_dir: Path) -> Iterator[os.DirEntry[str]]:
    """Directory entries of the session transcripts directly inside ``project_dir``."""
    try:
        with os.scandir(project_dir) as it:
            for entry in it:
                if is_session_file_name(entry.name) and entry.is_file(follow_symlinks=False):
                    yield entry
    except OSError:
        return


def find_session_file(session_id: str, root: Path | None = None,
                      cwd: str | os.PathLike[str] | None = None) -> Path | None:
    """Locate ``<session-id>.jsonl``: the cwd's project first, then every project."""
    name = f"{session_id}.jsonl"
    if not is_session_file_name(name):
        return None
    if cwd is not None:
        pdir = project_dir_for(cwd, root)
        if pdir is not None and (pdir / name).is_file():
            return pdir / name
    for pdir in list_project_dirs(root):
        if (pdir / name).is_file():
            return pdir / name
    return None


def subagent_files(session_file: Path) -> list[tuple[str, Path]]:
    """``(agent_id, path)`` for ``<session-id>/subagents/**/agent-<id>.jsonl``."""
    base = session_file.with_suffix("") / "subagents"
    found: list[tuple[str, Path]] = []
    if not base.is_dir():
        return found
    for path in sorted(base.rglob("agent-*.jsonl")):
        found.append((path.name[len("agent-") : -len(".jsonl")], path))
    return found


def cache_dir() -> Path:
    """Our cache directory (created 0700)."""
    return app_paths.cache_dir()


def data_dir() -> Path:
    """Our data directory for user-owned state such as session names (created 0700)."""
    return app_paths.data_dir()


def default_index_path(root: Path | None = None) -> Path:
    """The index of one config root: ``~/.claude``'s is ``sessions.sqlite``; another root (a
    ``$CLAUDE_CONFIG_DIR``, the demo's) gets its own file, so two roots never evict each other's rows."""
    root = root if root is not None else config_root()
    base = app_paths.cache_path()  # created by the index when it opens (a fault there is not fatal)
    if root == Path.home() / ".claude":
        return base / "sessions.sqlite"
    import hashlib

    digest = hashlib.sha1(os.fsencode(root)).hexdigest()[:12]
    return base / f"sessions-{digest}.sqlite"
