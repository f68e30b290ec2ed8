"""The protocol package loads its models on first use: its lazy names are the ones it imports for
type checkers, each from the module that defines it."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import claude_tui.protocol as protocol


def _typing_imports() -> dict[str, tuple[str, ...]]:
    tree = ast.parse(Path(protocol.__file__).read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If))  # `if TYPE_CHECKING:`
    return {node.module or "": tuple(alias.name for alias in node.names)
            for node in block.body if isinstance(node, ast.ImportFrom)}


def test_the_lazy_names_are_the_typed_imports() -> None:
    assert _typing_imports() == protocol._MODULES
    assert sorted(protocol.__all__) == sorted(name for names in protocol._MODULES.values() for name in names)


def test_every_name_resolves_to_its_module_s_object() -> None:
    for module, names in protocol._MODULES.items():
        home = importlib.import_module(f"claude_tui.protocol.{module}")
        for name in names:
            assert getattr(protocol, name) is getattr(home, name), name
