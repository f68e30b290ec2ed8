"""No import circles between the modules of claude_tui/.

Every import counts, wherever it is written: at the top, inside a function, under
`if TYPE_CHECKING:`, or through `importlib.import_module("...")` with a literal name. A
circle hidden in a function or a type-checking block still ties the modules together
(neither can be understood, typed or moved without the other), so hiding an import is no fix.

An edge goes to the module an import names: `import a.b` and `from a.b import c` name `a.b`,
or `a.b.c` when `c` is a submodule; relative imports are resolved against the importing
module's package. (The parent packages' `__init__` that Python also runs are not edges:
every `from pkg.mod import x` would otherwise close a circle with a `pkg/__init__.py` that
re-exports `x`.)

`ALLOWED` holds circles that exist and are being taken apart, each as its exact set of files
(empty today: the chat's 14-file circle and the four small ones are gone). The test fails on any
other circle, on an allowed one that grew or shrank, and on an allowed one that is gone, so the
list only ever gets shorter.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "claude_tui"

ALLOWED: list[frozenset[str]] = [
    # None today. A circle that must stay for a while is listed here as its exact set of files
    # (relative to claude_tui/), with why, and removed the day it is taken apart.
]

Graph = dict[str, dict[str, int]]
"""module file (relative to the package's parent dir) -> {imported module file: line of the first import}"""


def _modules(package_dir: Path) -> dict[str, Path]:
    """Dotted name -> file, for every module and package under `package_dir`."""
    base = package_dir.parent
    out: dict[str, Path] = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(base).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _package_of(dotted: str, path: Path) -> str:
    """The package a relative import starts from: the module's own for an `__init__.py`."""
    return dotted if path.name == "__init__.py" else dotted.rpartition(".")[0]


def _named(node: ast.AST, dotted: str, path: Path, modules: dict[str, Path]) -> Iterable[str]:
    """The modules of the package that one import statement (or import_module call) names."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names if alias.name in modules)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            anchor = _package_of(dotted, path).split(".")
            if node.level - 1 >= len(anchor):
                return  # beyond the top-level package: an ImportError, not an edge
            anchor = anchor[: len(anchor) - (node.level - 1)]
            source = ".".join([*anchor, *([node.module] if node.module else [])])
        else:
            source = node.module or ""
        for alias in node.names:
            if f"{source}.{alias.name}" in modules:  # `from pkg import submodule`
                yield f"{source}.{alias.name}"
            elif source in modules:
                yield source
    elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
        "import_module", "__import__"
    ):
        if node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value in modules:
            yield node.args[0].value


def import_graph(package_dir: Path) -> Graph:
    modules = _modules(package_dir)
    name_of = {path: str(path.relative_to(package_dir)) for path in modules.values()}
    graph: Graph = {}
    for dotted, path in modules.items():
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            for target in _named(node, dotted, path, modules):
                if modules[target] != path:
                    line = getattr(node, "lineno", 0)
                    edges[name_of[modules[target]]] = min(line, edges.get(name_of[modules[target]], line))
        graph[name_of[path]] = edges
    return graph


def _reach(graph: Graph, start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def circles(graph: Graph) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (each module in at most one)."""
    reach = {module: _reach(graph, module) for module in graph}
    found: list[frozenset[str]] = []
    done: set[str] = set()
    for module in sorted(graph):
        if module in done:
            continue
        group = frozenset(other for other in reach[module] if module in reach[other])
        done |= group
        if len(group) > 1:
            found.append(group)
    return found


def describe(graph: Graph, group: frozenset[str]) -> str:
    """A circle as its files and the imports that tie them (file:line -> file)."""
    edges = [f"  {a}:{graph[a][b]} -> {b}" for a in sorted(group) for b in sorted(graph[a]) if b in group]
    return f"circle of {len(group)}: {', '.join(sorted(group))}\n" + "\n".join(edges)


def problems(package_dir: Path, allowed: list[frozenset[str]]) -> list[str]:
    graph = import_graph(package_dir)
    found = circles(graph)
    out = [describe(graph, group) for group in found if group not in allowed]
    out += [
        f"allowed circle no longer exists (remove it from ALLOWED): {', '.join(sorted(group))}"
        for group in allowed if group not in found
    ]
    return out


def test_no_import_circles() -> None:
    found = problems(PKG, ALLOWED)
    assert not found, "import circles in claude_tui/:\n" + "\n".join(found)


# -- the finder itself, on small packages -------------------------------------------------------


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_finds_a_circle_through_type_checking_and_relative_imports(tmp_path: Path) -> None:
    pkg = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from pkg.b import thing\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import other\nthing = 1\n",
        "c.py": "import pkg.a\n",  # into the circle, not part of it
    })
    found = problems(pkg, [])
    assert len(found) == 1
    assert found[0].startswith("circle of 2: a.py, b.py")
    assert "a.py:1 -> b.py" in found[0] and "b.py:3 -> a.py" in found[0]


def test_finds_a_circle_through_a_function_level_import_and_a_submodule_named_in_from(tmp_path: Path) -> None:
    pkg = _package(tmp_path, {
        "__init__.py": "",
        "sub/__init__.py": "X = 1\n",
        "sub/leaf.py": "def f():\n    from ... import top\n    from .... import top\n",  # past the top: no edge
        "sub/deep.py": "def f():\n    from .. import top\n    return top\n",
        "top.py": "from pkg.sub import deep\n",  # a submodule named in `from pkg import name`
    })
    assert circles(import_graph(pkg)) == [frozenset({"sub/deep.py", "top.py"})]


def test_a_name_that_is_not_a_submodule_points_at_the_package(tmp_path: Path) -> None:
    pkg = _package(tmp_path, {
        "__init__.py": "from pkg.a import A\n",
        "a.py": "from pkg import helpers\nA = 1\n",  # helpers is a module: no edge to __init__
        "helpers.py": "from pkg import A\n",  # A is a name in __init__: an edge to it, closing a circle
    })
    graph = import_graph(pkg)
    assert graph["a.py"] == {"helpers.py": 1}
    assert circles(graph) == [frozenset({"__init__.py", "a.py", "helpers.py"})]


def test_an_allowed_circle_passes_only_while_it_exists_unchanged(tmp_path: Path) -> None:
    pkg = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "import pkg.b\n",
        "b.py": "import importlib\nimportlib.import_module('pkg.a')\n",
        "c.py": "import pkg.a\n",
    })
    assert problems(pkg, [frozenset({"a.py", "b.py"})]) == []
    grown = problems(pkg, [frozenset({"a.py", "b.py", "c.py"})])
    assert grown[0].startswith("circle of 2: a.py, b.py")
    assert grown[1].startswith("allowed circle no longer exists")
    (pkg / "b.py").write_text("")
    assert problems(pkg, [frozenset({"a.py", "b.py"})]) == [
        "allowed circle no longer exists (remove it from ALLOWED): a.py, b.py"
    ]
    assert problems(pkg, []) == []
