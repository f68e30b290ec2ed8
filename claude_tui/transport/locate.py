"""Finding the `claude` binary.

Order: explicit ``--claude-path`` → env ``CLAUDE_TUI_CLAUDE_PATH`` → the
configured value → ``PATH`` → the places the installers use. A value the user
gave explicitly (flag, env, config) that does not point at an executable is an
error rather than silently falling through to some other `claude`: running a
different binary than the one asked for would be surprising.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path

from claude_tui.transport.errors import ClaudeNotFoundError

__all__ = ["ENV_VAR", "ClaudeNotFoundError", "find_claude", "install_locations", "installed_version"]

ENV_VAR = "CLAUDE_TUI_CLAUDE_PATH"

INSTALL_HINT = (
    "Install Claude Code with:  npm install -g @anthropic-ai/claude-code\n"
    "or point claude-tui at it with --claude-path PATH (or CLAUDE_TUI_CLAUDE_PATH).\n"
    "To try claude-tui without Claude Code, run:  claude-tui --demo"
)


def install_locations(home: str | Path) -> list[Path]:
    """Where the official installers and common package managers put `claude`."""
    h = Path(home)
    return [
        h / ".claude" / "local" / "claude",  # `claude migrate-installer` / local install
        h / ".local" / "bin" / "claude",  # native installer
        h / ".npm-global" / "bin" / "claude",  # npm with a user prefix
        h / ".bun" / "bin" / "claude",
        h / ".volta" / "bin" / "claude",
        h / ".yarn" / "bin" / "claude",
        h / ".local" / "share" / "pnpm" / "claude",
        h / "node_modules" / ".bin" / "claude",
        Path("/usr/local/bin/claude"),
        Path("/opt/homebrew/bin/claude"),
        Path("/usr/bin/claude"),
    ]


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _resolve_given(value: str, search_path: str | None) -> Path | None:
    """A user-supplied value: a path (``~`` expanded) or a bare command name."""
    p = Path(value).expanduser()
    if _is_executable(p):
        return p
    if os.sep not in value:
        found = shutil.which(value, path=search_path)
        if found:
            return Path(found)
    return None


def find_claude(
    explicit: str | None = None,
    configured: str | None = None,
    env: Mapping[str, str] | None = None,
) -> str:
    """Return the path of the `claude` executable or raise `ClaudeNotFoundError`."""
    environ = os.environ if env is None else env
    search_path = environ.get("PATH", os.defpath)

    for label, value in (
        ("--claude-path", explicit),
        (ENV_VAR, environ.get(ENV_VAR) or None),
        ("the config file's claude_path", configured),
    ):
        if value:
            found = _resolve_given(value, search_path)
            if found is None:
                raise ClaudeNotFoundError(
                    f"{label} is set to {value!r}, but that is not an executable file.\n{INSTALL_HINT}"
                )
            return str(found)

    tried: list[str] = ["`claude` on PATH"]
    found_on_path = shutil.which("claude", path=search_path)
    if found_on_path:
        return found_on_path

    home = environ.get("HOME") or str(Path.home())
    for candidate in install_locations(home):
        tried.append(str(candidate))
        if _is_executable(candidate):
            return str(candidate)

    listing = "\n".join(f"  - {t}" for t in tried)
    raise ClaudeNotFoundError(f"Could not find the Claude Code CLI (`claude`). Looked for:\n{listing}\n{INSTALL_HINT}")


_versions: dict[tuple[str, int], str | None] = {}


def installed_version(binary: str | os.PathLike[str] | None) -> str | None:
    """The version of an npm-installed `claude`, from its package.json (no process started; cached per
    file); None when unknown (a wrapper script, another installer): the CLI then says it at start."""
    if not binary:
        return None
    try:
        real = Path(binary).resolve()
        key = (str(real), real.stat().st_mtime_ns)
    except OSError:
        return None
    if key not in _versions:
        _versions[key] = _package_version(real)
    return _versions[key]


def _package_version(real: Path) -> str | None:
    # npm: <prefix>/node_modules/@anthropic-ai/claude-code/{cli.js, bin/claude.exe}
    for folder in (real.parent, real.parent.parent):
        try:
            data = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("name") == "@anthropic-ai/claude-code":
            version = data.get("version")
            return version if isinstance(version, str) and re.fullmatch(r"\d+\.\d+\.\d+\S*", version) else None
    return None
