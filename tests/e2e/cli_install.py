"""Install (once) and locate the pinned Claude Code CLI for the end-to-end tier.

    python -m tests.e2e.cli_install          # installs if missing, prints the binary path

Knobs:
  CLAUDE_TUI_E2E_CLAUDE        explicit path to a ``claude`` binary (no install)
  CLAUDE_TUI_E2E_CLI_VERSION   npm version of @anthropic-ai/claude-code (default 2.1.330)
  XDG_CACHE_HOME               cache root (default ~/.cache); the CLI lands in
                               $XDG_CACHE_HOME/claude-tui-e2e/cli-<version>
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = "@anthropic-ai/claude-code"
DEFAULT_VERSION = "2.1.330"
INSTALL_TIMEOUT = 900  # seconds; npm pulls a ~100 MB native platform package


class CliInstallError(RuntimeError):
    """The CLI could not be found or installed; the message says why."""


def pinned_version() -> str:
    return os.environ.get("CLAUDE_TUI_E2E_CLI_VERSION") or DEFAULT_VERSION


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "claude-tui-e2e"


def install_dir(version: str) -> Path:
    return cache_root() / f"cli-{version}"


def binary_path(version: str) -> Path:
    return install_dir(version) / "node_modules" / ".bin" / "claude"


def cli_version(binary: Path) -> str:
    """What ``claude --version`` prints ("2.1.330 (Claude Code)"), or raises."""
    try:
        proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CliInstallError(f"{binary} --version failed: {exc}") from exc
    if proc.returncode != 0:
        raise CliInstallError(f"{binary} --version exited {proc.returncode}: "
                              f"{(proc.stderr or proc.stdout).strip()[-2000:]}")
    return proc.stdout.strip()


@contextlib.contextmanager
def _install_lock(directory: Path) -> Iterator[None]:
    """Serialize installs across processes (e.g. pytest-xdist workers)."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".install.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _npm_install(version: str) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise CliInstallError(
            "npm is not on PATH: install Node.js >= 18 with npm, or point "
            "CLAUDE_TUI_E2E_CLAUDE at an existing `claude` binary")
    target = install_dir(version)
    argv = [npm, "install", "--prefix", str(target), "--no-audit", "--no-fund",
            "--loglevel=error", f"{PACKAGE}@{version}"]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        raise CliInstallError(f"`{' '.join(argv)}` timed out after {INSTALL_TIMEOUT}s") from exc
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip()[-3000:]
        raise CliInstallError(f"`{' '.join(argv)}` exited {proc.returncode}:\n{tail}")


def ensure_cli(version: str | None = None) -> Path:
    """Path of a working pinned ``claude`` binary, installing it with npm if missing."""
    explicit = os.environ.get("CLAUDE_TUI_E2E_CLAUDE")
    if explicit:
        path = Path(explicit).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise CliInstallError(f"CLAUDE_TUI_E2E_CLAUDE={explicit} is not an executable file")
        cli_version(path)
        return path
    version = version or pinned_version()
    binary = binary_path(version)
    with _install_lock(install_dir(version)):
        if not binary.exists():
            _npm_install(version)
        if not binary.exists():
            raise CliInstallError(f"npm install finished but {binary} does not exist")
        printed = cli_version(binary)
    if version not in printed:
        raise CliInstallError(f"{binary} reports {printed!r}, expected version {version}")
    return binary


def main() -> int:
    try:
        print(ensure_cli())
    except CliInstallError as exc:
        print(f"cli_install: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
