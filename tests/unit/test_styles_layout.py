"""Where styles live: every screen's CSS_PATH names files that exist, every .tcss in the package is
some screen's (or the app's), and every widget's DEFAULT_CSS and every .tcss parses with the
theme's variables — also for the widgets and screens no snapshot happens to mount."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.screen import Screen

import claude_tui.ui
from claude_tui.ui.app.app import ClaudeTuiApp

PKG = Path(claude_tui.ui.__file__).resolve().parents[1]


def _ui_classes() -> list[type[DOMNode]]:
    for module in pkgutil.walk_packages(claude_tui.ui.__path__, "claude_tui.ui."):
        importlib.import_module(module.name)
    found: list[type[DOMNode]] = []
    stack: list[type[DOMNode]] = [DOMNode]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("claude_tui."):
            found.append(cls)
    return sorted(set(found), key=lambda cls: f"{cls.__module__}.{cls.__qualname__}")


def _css_files(cls: type[DOMNode]) -> list[Path]:
    """The files `cls` itself names in CSS_PATH, resolved as Textual does (beside the class's module)."""
    css_path = cls.__dict__.get("CSS_PATH")
    if css_path is None:
        return []
    paths = css_path if isinstance(css_path, list) else [css_path]
    module_dir = Path(importlib.import_module(cls.__module__).__file__ or "").parent
    return [(module_dir / path).resolve() for path in map(Path, paths)]


def _variables() -> dict[str, str]:
    return App().get_css_variables()


def test_every_css_path_names_a_file_and_every_tcss_is_loaded() -> None:
    classes = _ui_classes()
    named = {path for cls in classes if issubclass(cls, (Screen, App)) for path in _css_files(cls)}
    assert named, "no screen names a .tcss: CSS_PATH lookup broken"
    missing = sorted(str(path) for path in named if not path.is_file())
    assert not missing, f"CSS_PATH names files that do not exist: {missing}"
    shipped = {path.resolve() for path in PKG.rglob("*.tcss")}
    orphans = sorted(str(path.relative_to(PKG)) for path in shipped - named)
    assert not orphans, f".tcss files no screen or app loads: {orphans}"
    assert Path(ClaudeTuiApp.CSS_PATH).resolve() in named  # type: ignore[arg-type]


@pytest.mark.parametrize("path", sorted(PKG.rglob("*.tcss")), ids=lambda path: path.name)
def test_every_tcss_parses(path: Path) -> None:
    stylesheet = Stylesheet(variables=_variables())
    stylesheet.read(path)
    stylesheet.parse()
    assert stylesheet.rules, f"{path} has no rules"


def test_every_default_css_parses() -> None:
    variables = _variables()
    checked = 0
    for cls in _ui_classes():
        css = cls.__dict__.get("DEFAULT_CSS", "")
        if not css:
            continue
        stylesheet = Stylesheet(variables=variables)
        stylesheet.add_source(css, read_from=(cls.__module__, cls.__qualname__), is_default_css=True,
                              scope=cls.__name__ if cls.__dict__.get("SCOPED_CSS", True) else "")
        stylesheet.parse()
        checked += 1
    assert checked >= 15, checked  # the widgets that carry their layout (ChatLog, ToolCard, DiffView, …)
