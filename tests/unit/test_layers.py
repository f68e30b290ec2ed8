"""Import direction: only claude_tui/ui may import textual; protocol and session stay sync (no asyncio)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[2] / "claude_tui"
NO_TEXTUAL = ["protocol", "diff", "session", "history", "fakecli", "transport", "git", "remote", "store"]
NO_ASYNCIO = ["protocol", "session", "diff", "git", "store"]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
            "import_module", "__import__"
        ):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.add(node.args[0].value.split(".")[0])
    return found


def _files(layer: str) -> list[Path]:
    return sorted((PKG / layer).rglob("*.py"))


def test_protocol_exists() -> None:
    assert _files("protocol"), "claude_tui/protocol must exist"


@pytest.mark.parametrize("layer", NO_TEXTUAL)
def test_no_textual(layer: str) -> None:
    if not (PKG / layer).is_dir():
        pytest.skip(f"claude_tui/{layer} does not exist yet")
    bad = [str(f.relative_to(PKG)) for f in _files(layer) if _imports(f) & {"textual"}]
    assert not bad, f"textual imported in {bad}"


@pytest.mark.parametrize("layer", NO_ASYNCIO)
def test_no_asyncio(layer: str) -> None:
    if not (PKG / layer).is_dir():
        pytest.skip(f"claude_tui/{layer} does not exist yet")
    bad = [str(f.relative_to(PKG)) for f in _files(layer) if _imports(f) & {"asyncio"}]
    assert not bad, f"asyncio imported in {bad}"


def test_checker_can_fail(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text("import os\nfrom textual.app import App\nimport asyncio.subprocess\n")
    assert {"textual", "asyncio"} <= _imports(f)
