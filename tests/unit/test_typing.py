"""`mypy --strict` holds for the headless layers that are typed through and through.

Only `session/` here so far (h-types adds protocol, transport, history and diff). Each package is
checked with `--follow-imports=silent`: the modules it imports are read for their types, while
their own errors are reported by their own entry in `STRICT`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRICT = ["session"]


def mypy_strict(*paths: str | Path) -> tuple[int, str]:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary",
         *map(str, paths)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    return result.returncode, result.stdout + result.stderr


@pytest.mark.parametrize("package", STRICT)
def test_mypy_strict_is_clean(package: str) -> None:
    code, output = mypy_strict(f"claude_tui/{package}")
    assert code == 0, output


def test_the_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "untyped.py"
    bad.write_text("def f(x):\n    return x.y\n")
    code, output = mypy_strict(bad)
    assert code != 0 and "no-untyped-def" in output


@pytest.mark.parametrize("package", STRICT)
def test_every_ignore_names_its_error(package: str) -> None:
    """No blanket `# type: ignore`: each one names the error code it silences (and says why beside it)."""
    bare = re.compile(r"#\s*type:\s*ignore(?!\[)")
    found = [f"{path.relative_to(ROOT)}:{number}" for path in sorted((ROOT / "claude_tui" / package).rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if bare.search(line)]
    assert not found, found
