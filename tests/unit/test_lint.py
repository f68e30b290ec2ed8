"""The code passes the project's pinned ruff configuration (pyproject.toml, [tool.ruff]).

Pinned in the test extra, so the same findings show on every machine; a finding fails here
with ruff's own message naming the file and line.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _ruff() -> list[str]:
    beside = Path(sys.executable).with_name("ruff")  # the venv's, installed by the test extra
    found = str(beside) if beside.exists() else shutil.which("ruff")
    assert found, "ruff is missing: install the test extra (pip install -e '.[test]')"
    return [found]


def test_ruff_finds_nothing() -> None:
    result = subprocess.run([*_ruff(), "check", "--no-cache", "claude_tui", "tests", "benchmarks"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
