"""claude_tui uses no private Textual API: private names break silently on a Textual upgrade.

What the check catches (an AST scan of every module under `claude_tui/`):

- importing a private name or module from Textual: `from textual.keys import _character_to_key`,
  `from textual._doc import …`, `import textual._compositor`;
- reading or calling an attribute whose name is private *in Textual* (`self._replace_via_keyboard`,
  `screen._modal_binding_chain`, `app._driver`), and `getattr`/`hasattr`/`setattr` with such a
  name as a string constant (`getattr(app, "_keymap")`). "Private in Textual" means: a `_name`
  (not a dunder) that Textual's own source defines — a `def`, an assignment or an annotation,
  at module, class or `self.` level — read from the installed Textual.

What it cannot see, by construction:

- a name that claude_tui defines itself as well (our own `self._timer`, or an override such as
  `_on_key` and its `super()._on_key(event)`) is taken to be ours: the scan has no types, so it
  cannot tell whose object an attribute belongs to;
- `module._name` on a module imported with `import` (`os._exit`) is skipped as not Textual's;
- dynamic access (`getattr(obj, name)` with a computed name, `vars(widget)`), and private
  *behaviour* reached through public calls;
- tests and benchmarks (only `claude_tui/` is scanned).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import textual

PKG = Path(__file__).resolve().parents[2] / "claude_tui"
TEXTUAL = Path(textual.__file__).resolve().parent

ALLOWED: set[tuple[str, str]] = {
    # Textual has no public way to write an escape sequence to the terminal (App.bell itself goes
    # through the driver); the desktop notification does it here only, guarded and commented.
    ("ui/kit/attention.py", "_driver"),
    # Textual's input thread wakes ten times a second for good (its parser's escape timeout); ours
    # sleeps while the terminal is quiet and needs the same parser, which Textual keeps private.
    # quiet_driver's own tests cover it (a lone Esc, keys, stopping the thread).
    ("ui/app/quiet_driver.py", "textual._xterm_parser"),
    # Textual writes a partial update from the start of each widget's strip, not from the dirty
    # cells (a TODO in its compositor), and offers no hook for another update class: the one method
    # is replaced in that module, held to Textual's output by tests/unit/test_narrow_spans.py.
    ("ui/app/narrow_spans.py", "textual._compositor"),
    # Textual paints only on its 60 Hz grid and has no public "paint now": a keystroke alone on the
    # screen is painted at once there (its dirty set read, the grid's own paint called).
    # tests/pilot/test_key_frames.py holds both.
    ("ui/window/key_frames.py", "_dirty_widgets"),
    ("ui/window/key_frames.py", "_on_timer_update"),
}
"""(module path relative to claude_tui/, private name) pairs tolerated for now."""

_NAME_FUNCTIONS = {"getattr", "hasattr", "setattr", "delattr"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _defined_names(tree: ast.AST) -> set[str]:
    """Private names a module defines: functions, classes, assigned or annotated names and attributes."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return {name for name in names if _private(name)}


def _parse(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@cache
def _textual_private_names() -> frozenset[str]:
    names: set[str] = set()
    for path in TEXTUAL.rglob("*.py"):
        names |= _defined_names(_parse(path))
    return frozenset(names)


def _other_modules(tree: ast.AST) -> set[str]:
    """Names bound by `import x` / `import x as y` of modules other than Textual (`os._exit` is not ours to judge)."""
    return {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
            for alias in node.names if alias.name.split(".")[0] != "textual"}


def private_uses(tree: ast.AST, textual_private: frozenset[str], ours: set[str]) -> Iterator[tuple[int, str]]:
    """(line, name) of every private Textual name `tree` imports or reaches."""
    other_modules = _other_modules(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and \
                node.module.split(".")[0] == "textual":
            for part in node.module.split("."):
                if _private(part):
                    yield node.lineno, node.module
            for alias in node.names:
                if _private(alias.name):
                    yield node.lineno, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "textual" and any(_private(part) for part in parts):
                    yield node.lineno, alias.name
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            if isinstance(node.value, ast.Name) and node.value.id in other_modules:
                continue
            if node.attr in textual_private and node.attr not in ours:
                yield node.lineno, node.attr
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NAME_FUNCTIONS \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str) and _private(node.args[1].value):
            name = node.args[1].value
            if name in textual_private and name not in ours:
                yield node.lineno, name


def test_claude_tui_uses_no_private_textual_api() -> None:
    modules = {path: _parse(path) for path in sorted(PKG.rglob("*.py"))}
    ours: set[str] = set()
    for tree in modules.values():
        ours |= _defined_names(tree)
    textual_private = _textual_private_names()
    found = []
    for path, tree in modules.items():
        relative = path.relative_to(PKG).as_posix()
        for line, name in private_uses(tree, textual_private, ours):
            if (relative, name) not in ALLOWED:
                found.append(f"claude_tui/{relative}:{line}: {name}")
    assert not found, "private Textual API (find a public way, or wrap it in one place with a test):\n" + \
        "\n".join(found)


def test_the_allow_list_is_still_needed() -> None:
    """An entry that no longer matches anything is stale: remove it."""
    textual_private = _textual_private_names()
    used = set()
    for path in sorted(PKG.rglob("*.py")):
        relative = path.relative_to(PKG).as_posix()
        used |= {(relative, name) for _, name in private_uses(_parse(path), textual_private, set())}
    assert ALLOWED <= used, ALLOWED - used


def test_the_check_can_fail() -> None:
    source = '''
from textual.keys import _character_to_key, format_key
from textual._doc import take_svg_screenshot
import textual._compositor
import os

class Prompt(TextArea):
    def _own_helper(self):
        return self._own_state

    def paste(self, text):
        self._replace_via_keyboard(text, *self.selection)
        keymap = getattr(self.app, "_keymap", {})
        os._exit(0)  # another module's private name: not Textual's
        return self.app._driver, self.size, self.__class__
'''
    textual_private = _textual_private_names()
    tree = ast.parse(source)
    found = sorted(name for _, name in private_uses(tree, textual_private, _defined_names(tree)))
    assert found == sorted(["_character_to_key", "textual._doc", "textual._compositor", "_replace_via_keyboard",
                            "_keymap", "_driver"]), found
