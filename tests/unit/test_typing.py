"""`mypy --strict` is clean for the whole package, the UI included.

Only errors in `claude_tui/` count (mypy also reads what it imports). The mypy settings
(third-party modules without types) live in pyproject.toml; a `# type: ignore` names its code
and says why.
"""

from __future__ import annotations

from pathlib import Path

import mypy.api as mypy_api  # in the `test` extra: missing, this test fails rather than skips

ROOT = Path(__file__).resolve().parents[2]



def strict_errors(root: Path, packages: list[str], config: Path | None = None, cache: Path | None = None) -> list[str]:
    """mypy --strict's errors (with their notes) in `packages` (paths relative to `root`)."""
    root = root.resolve()
    args = ["--strict", "--no-error-summary", "--no-pretty", "--show-absolute-path"]
    if config is not None:
        args += ["--config-file", str(config)]
    if cache is not None:
        args += ["--cache-dir", str(cache)]
    stdout, stderr, status = mypy_api.run([*args, *(str(root / package) for package in packages)])
    assert status in (0, 1) and not stderr.strip(), f"mypy did not run (status {status}):\n{stderr}{stdout}"
    wanted = tuple(f"{root / package}/" for package in packages)
    lines = stdout.splitlines()
    assert status == 0 or lines, "mypy found errors but printed none"
    return [line.replace(f"{root}/", "") for line in lines if line.startswith(wanted)]


def test_the_package_is_mypy_strict_clean() -> None:
    errors = strict_errors(ROOT, ["claude_tui"], ROOT / "pyproject.toml")
    assert not errors, f"mypy --strict: {len(errors)} lines\n" + "\n".join(errors)


def test_the_check_sees_an_error_only_in_the_packages_it_holds(tmp_path: Path) -> None:
    for name, text in {
        "strict/__init__.py": "",
        "strict/bad.py": "from loose.untyped import f\n\ndef g(x):\n    return f(x)\n",
        "loose/__init__.py": "",
        "loose/untyped.py": "def f(x):\n    return x\n",
    }.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    errors = strict_errors(tmp_path, ["strict"], cache=tmp_path / "cache")
    assert errors and all(line.startswith("strict/bad.py:") for line in errors), errors
    assert any("[no-untyped-def]" in line for line in errors)
    assert strict_errors(tmp_path, ["loose"], cache=tmp_path / "cache") != []  # the same untyped code, now held to --strict
