"""A missing server skips its tier on a developer's machine and fails it under `.ci/run`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
from tests.servers import need_program
def test_probe():
    need_program("no-such-server-xyz")
"""


def run_probe(tmp_path: Path, require: str | None) -> subprocess.CompletedProcess[str]:
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if require is not None:
        env["CLAUDE_TUI_REQUIRE_SERVERS"] = require
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-ra", "-p", "no:cacheprovider", str(probe)],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)


def test_a_missing_server_is_skipped_with_the_install_line(tmp_path: Path) -> None:
    result = run_probe(tmp_path, None)
    assert result.returncode == 0, result.stdout
    assert "1 skipped" in result.stdout
    assert "no-such-server-xyz is not installed (install: apt-get install -y no-such-server-xyz)" in result.stdout


def test_under_ci_a_missing_server_fails(tmp_path: Path) -> None:
    result = run_probe(tmp_path, "1")
    assert result.returncode == 1, result.stdout
    assert "1 failed" in result.stdout
    assert "CLAUDE_TUI_REQUIRE_SERVERS=1 requires it" in result.stdout
