"""Install (once) and locate the pinned ccusage, the usage tool `claude-tui usage` is checked against.

    python -m tests.e2e.ccusage_install      # installs if missing, prints the binary path

ccusage 20.x is a native binary shipped as a platform package beside the npm wrapper; 20.0.26 ships
without one, so 20.0.24 is pinned, with its linux-x64 package named explicitly (npm does not always
pull the optional platform package into a --prefix install). It lands in
$XDG_CACHE_HOME/claude-tui-e2e/ccusage-<version>, beside the pinned CLI.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

from tests.e2e.cli_install import _install_lock, cache_root

VERSION = "20.0.24"
INSTALL_TIMEOUT = 600


class CcusageInstallError(RuntimeError):
    """ccusage could not be found or installed; the message says why."""


def packages() -> list[str]:
    arch = {"x86_64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine(), platform.machine())
    return [f"ccusage@{VERSION}", f"@ccusage/ccusage-{sys.platform}-{arch}@{VERSION}"]


def install_dir() -> Path:
    return cache_root() / f"ccusage-{VERSION}"


def install_line() -> str:
    return f"npm install --prefix {install_dir()} --no-audit --no-fund {' '.join(packages())}"


def binary_path() -> Path:
    return install_dir() / "node_modules" / ".bin" / "ccusage"


def ensure_ccusage() -> Path:
    """Path of a working pinned ``ccusage``, installing it with npm if missing."""
    npm = shutil.which("npm")
    binary = binary_path()
    with _install_lock(install_dir()):
        if not binary.exists():
            if npm is None:
                raise CcusageInstallError("npm is not on PATH")
            argv = [npm, "install", "--prefix", str(install_dir()), "--no-audit", "--no-fund", "--loglevel=error",
                    *packages()]
            try:
                proc = subprocess.run(argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT,
                                      stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired as exc:
                raise CcusageInstallError(f"npm install timed out after {INSTALL_TIMEOUT}s") from exc
            if proc.returncode != 0:
                raise CcusageInstallError(f"npm install exited {proc.returncode}: "
                                          f"{(proc.stderr or proc.stdout).strip()[-1500:]}")
        try:
            proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60,
                                  stdin=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"})
        except OSError as exc:
            raise CcusageInstallError(f"{binary} does not run: {exc}") from exc
    if VERSION not in proc.stdout + proc.stderr:
        raise CcusageInstallError(f"{binary} --version says {(proc.stdout + proc.stderr).strip()[:200]!r}, "
                                  f"expected {VERSION}")
    return binary


def main() -> int:
    try:
        print(ensure_ccusage())
    except CcusageInstallError as exc:
        # Not fatal for the README's test command: the parity test then skips and says why.
        print(f"ccusage_install: {exc} (the ccusage parity test will skip; install with: {install_line()})",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
