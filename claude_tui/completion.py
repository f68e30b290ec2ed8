"""Candidates for the prompt's completion menu: slash commands and file paths (no Textual)."""

from __future__ import annotations

import fnmatch
import os
import shlex
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from claude_tui.protocol.sanitize import printable_name
from claude_tui.slash_routes import THROUGH_CLI, menu_entries

_ALWAYS_SKIP = {".git", "node_modules", "__pycache__", ".venv", "venv", ".mypy_cache", ".pytest_cache", ".tox"}
_MAX_FILES = 20_000


@dataclass(frozen=True)
class Candidate:
    value: str
    """What replaces the token (without the leading / or @)."""
    description: str = ""
    hint: str = ""


def fuzzy_score(query: str, text: str) -> int | None:
    """Subsequence match score (higher is better), None when `query` does not match."""
    if not query:
        return 0
    query_l, text_l = query.lower(), text.lower()
    if text_l.startswith(query_l):
        return 1000 - len(text)
    position = 0
    score = 0
    previous = -2
    for char in query_l:
        found = text_l.find(char, position)
        if found < 0:
            return None
        score += 10 if found == previous + 1 else 1
        if found == 0 or text_l[found - 1] in "/-_. ":
            score += 5
        previous = found
        position = found + 1
    return score - len(text) // 10


def rank(query: str, candidates: Iterable[Candidate], limit: int = 50) -> list[Candidate]:
    scored = []
    for candidate in candidates:
        score = fuzzy_score(query, candidate.value)
        if score is not None:
            scored.append((score, candidate))
    scored.sort(key=lambda pair: (-pair[0], pair[1].value))
    return [candidate for _, candidate in scored[:limit]]


def slash_candidates(commands: list[dict[str, Any]], names: list[str]) -> list[Candidate]:
    """Commands from the initialize response (with descriptions), plus names from system/init.

    Names come from the CLI's plugins and skills: each is kept as it shows (`printable_name`), so
    the menu, the prompt and what is sent agree and none carries a control character."""
    seen: dict[str, Candidate] = {}
    for command in commands:
        name = printable_name(str(command.get("name", ""))).lstrip("/")
        # Internal entries ("__remote-workflow") and removed ones are not for typing.
        if name.startswith("_") or "(removed)" in name:
            continue
        if name:
            seen[name] = Candidate(name, str(command.get("description", "")), str(command.get("argumentHint", "")))
    for name in names:
        name = printable_name(str(name)).lstrip("/")
        if name.startswith("_") or "(removed)" in name:
            continue
        if name and name not in seen:
            seen[name] = Candidate(name)
    for name, description in _UNLISTED_COMMANDS.items():
        seen.setdefault(name, Candidate(name, description))
    for name, description in OWN_SCREENS.items():  # ours, whatever the CLI lists
        seen[name] = Candidate(name, description)
    # Claude Code's own panels, answered by claude-tui: the menu says what each does here.
    for name, description in menu_entries().items():
        seen[name] = Candidate(name, description)
    for name, description in THROUGH_CLI.items():
        seen.setdefault(name, Candidate(name, description))
    return sorted(seen.values(), key=lambda c: c.value)


# Commands the CLI answers in stream-json mode but does not list in its initialize
# response (seen in the recordings: /cost comes back as a <synthetic> message).
_UNLISTED_COMMANDS = {"cost": "Show the session's cost, duration and token usage"}
# Claude Code's own screens that claude-tui answers itself (the CLI has none in stream-json mode).
OWN_SCREENS = {
    "mcp": "MCP servers: state, tools; turn off/on, reconnect",
    "context": "What fills the context window",
    "permissions": "Permission rules: where each is kept; add or remove this session's",
    "hooks": "Hooks by event, matcher and source",
}
"""The slash commands claude-tui answers with its own screens (ui/manage/routing.py)."""


def _git_files(root: Path) -> list[str] | None:
    try:
        done = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=root, capture_output=True, timeout=5, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return [p for p in done.stdout.decode("utf-8", "replace").split("\0") if p][:_MAX_FILES]


def _gitignore_patterns(root: Path) -> list[str]:
    try:
        lines = (root / ".gitignore").read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    return [line.strip().rstrip("/") for line in lines if line.strip() and not line.startswith(("#", "!"))]


def _walk_files(root: Path) -> list[str]:
    patterns = _gitignore_patterns(root)

    def ignored(rel: str, name: str) -> bool:
        return any(fnmatch.fnmatch(name, pat) or fnmatch.fnmatch(rel, pat.lstrip("/")) for pat in patterns)

    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir
        dirnames[:] = sorted(d for d in dirnames if d not in _ALWAYS_SKIP and not ignored(os.path.join(rel_dir, d), d))
        for name in sorted(filenames):
            rel = os.path.join(rel_dir, name)
            if not ignored(rel, name):
                found.append(rel)
                if len(found) >= _MAX_FILES:
                    return found
    return found


def project_files(root: Path) -> list[str]:
    """Git-tracked (and untracked, not ignored) files in a repo, else a .gitignore-aware walk."""
    files = _git_files(root)
    return files if files is not None else _walk_files(root)


def mention(path: str) -> str:
    """An `@` mention Claude Code resolves: quoted when the path has spaces."""
    return f'@"{path}"' if any(c.isspace() for c in path) else f"@{path}"


def dropped_files_mention(text: str, root: Path) -> str | None:
    """`@` mentions for a paste that is only file paths (what a terminal types on drag and drop).

    Terminals paste dropped files as shell words: quoted, backslash-escaped or `file://` URLs.
    When every word is an absolute path to an existing file, the paste becomes `@path` mentions (relative to the
    project when inside it; `@"…"` when it has spaces), which Claude Code resolves itself —
    images included. Anything else returns None and is pasted as typed.
    """
    text = text.strip()
    if not text or "\n" in text or len(text) > 4096:
        return None
    try:
        words = shlex.split(text)
    except ValueError:  # an unbalanced quote: ordinary text
        return None
    try:
        project = root.resolve()
    except OSError:
        return None
    mentions: list[str] = []
    for word in words:
        if word.startswith("file://"):
            word = unquote(urlparse(word).path)
        path = Path(word).expanduser()
        if not path.is_absolute():  # drops are absolute; a pasted bare name is just text
            return None
        try:
            if not path.is_file():
                return None
            path = path.resolve()
            shown = str(path.relative_to(project)) if path.is_relative_to(project) else str(path)
        except OSError:
            return None
        mentions.append(mention(shown))
    return " ".join(mentions) + " " if mentions else None
