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


# -- inside ui/: folders by feature, imports point down this list --------------------------------------

UI_ORDER: list[set[str]] = [
    {"app"},                            # the App, its bindings, launching, help
    {"palette", "browser", "usage", "window"},  # what the app opens; siblings never import each other
    {"chat"},                           # one session and its view
    {"manage"},                         # what Claude Code manages (MCP, context, rules, hooks) and MCP forms
    {"dialogs"},                        # the guarded frame and every dialog (a waiting dialog types on into the prompt)
    {"panels"},                         # composer, status bar, sidebar, changes, find/select
    {"log"},                            # the chat log and its items
    {"render"},                         # segments, lines, Markdown, code, diffs
    {"kit"},                            # small pieces every part uses
]
"""A module may import its own folder and any folder on a later line; nothing on its line or above."""

UI_ALLOWED_UP: dict[tuple[str, str], str] = {
    ("render/safe_markdown.py", "dialogs"):
        "a clicked link asks in ConfirmScreen wherever the Markdown is shown (a dialog, the log, an App of a "
        "test's own): a message up would leave the link dead under an App that does not answer it. "
        "Imported in the function, at the click.",
}
"""(file inside ui/, folder it imports) -> why that import runs up the order."""


def _ui_targets(path: Path, ui_root: Path) -> set[str]:
    """The ui/ folders a file imports: top-level, in functions and under TYPE_CHECKING, relative too."""
    rel = path.relative_to(ui_root).with_suffix("").parts
    package = list(rel[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                module = ".".join(["claude_tui", "ui", *base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
            "import_module", "__import__"
        ):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    found: set[str] = set()
    for name in names:
        parts = name.split(".")
        if parts[:2] == ["claude_tui", "ui"] and len(parts) > 2 and (ui_root / parts[2]).is_dir():
            found.add(parts[2])
    return found


def _ui_order_breaks(ui_root: Path, order: list[set[str]],
                     allowed: dict[tuple[str, str], str]) -> list[str]:
    level = {folder: i for i, folders in enumerate(order) for folder in folders}
    breaks: list[str] = []
    for path in sorted(ui_root.rglob("*.py")):
        rel = path.relative_to(ui_root)
        if len(rel.parts) == 1:
            if rel.name != "__init__.py":
                breaks.append(f"{rel} stands loose in ui/: put it in a folder of the order")
            continue
        folder = rel.parts[0]
        if folder not in level:
            if f"ui/{folder}/ is on no line of the order" not in breaks:
                breaks.append(f"ui/{folder}/ is on no line of the order")
            continue
        for target in sorted(_ui_targets(path, ui_root) - {folder}):
            if target not in level:
                breaks.append(f"{rel} imports ui/{target}/, which is on no line of the order")
            elif level[target] <= level[folder] and (rel.as_posix(), target) not in allowed:
                breaks.append(f"{rel} imports ui/{target}/ (not below ui/{folder}/)")
    return breaks


def test_ui_imports_point_down_the_order() -> None:
    breaks = _ui_order_breaks(PKG / "ui", UI_ORDER, UI_ALLOWED_UP)
    assert not breaks, "\n".join(breaks)


def test_ui_allowed_up_imports_still_exist() -> None:
    """An allow-listed import that is gone leaves the list with it."""
    ui_root = PKG / "ui"
    stale = [pair for pair in UI_ALLOWED_UP if pair[1] not in _ui_targets(ui_root / pair[0], ui_root)]
    assert not stale, f"no longer imported, drop from UI_ALLOWED_UP: {stale}"


def test_ui_order_check_can_fail(tmp_path: Path) -> None:
    ui = tmp_path / "ui"
    for folder in ("app", "chat", "kit", "palette", "window", "stray"):
        (ui / folder).mkdir(parents=True)
        (ui / folder / "__init__.py").write_text("")
    (ui / "app" / "app.py").write_text("from claude_tui.ui.chat import view\nfrom ..kit import theme\n")
    (ui / "kit" / "up.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from claude_tui.ui.chat.view import ChatView\n"
        "def later():\n    from claude_tui.ui.app import app\n"
    )
    (ui / "kit" / "relative.py").write_text("def f():\n    from ..window import screen\n")
    (ui / "palette" / "side.py").write_text("import claude_tui.ui.window.screen\n")
    (ui / "chat" / "dynamic.py").write_text("import importlib\nimportlib.import_module('claude_tui.ui.app.app')\n")
    (ui / "loose.py").write_text("")
    order = [{"app"}, {"palette", "window"}, {"chat"}, {"kit"}]
    breaks = _ui_order_breaks(ui, order, {})
    assert "kit/up.py imports ui/chat/ (not below ui/kit/)" in breaks      # TYPE_CHECKING
    assert "kit/up.py imports ui/app/ (not below ui/kit/)" in breaks       # in a function
    assert "kit/relative.py imports ui/window/ (not below ui/kit/)" in breaks
    assert "palette/side.py imports ui/window/ (not below ui/palette/)" in breaks  # sideways
    assert "chat/dynamic.py imports ui/app/ (not below ui/chat/)" in breaks
    assert "loose.py stands loose in ui/: put it in a folder of the order" in breaks
    assert "ui/stray/ is on no line of the order" in breaks
    assert not [b for b in breaks if b.startswith("app/")], breaks           # downwards is fine
    assert _ui_order_breaks(ui, order, {("kit/up.py", "chat"): "why", ("kit/up.py", "app"): "why"}) == [
        b for b in breaks if not b.startswith("kit/up.py")]
