"""No import circles between claude_tui's files: imports inside functions and TYPE_CHECKING blocks count.

A circle ties its files together: none can be read, tested or typed alone. The chat used to be one
(app, chat screen, palette, keymap, help, state, permission flow … 14 files): the chat view and its
helpers are typed against the session object and `ui/chat/host.py`'s protocol, never the app.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "claude_tui"

ALLOWED: list[frozenset[str]] = [
    # Small circles outside the chat, being undone separately (issue 19, h-types); empty once they are.
    frozenset({"claude_tui/history/index.py", "claude_tui/history/search.py"}),
    frozenset({"claude_tui/diff/compute.py", "claude_tui/diff/results.py"}),
    frozenset({"claude_tui/ui/screens/agent_transcript.py", "claude_tui/ui/widgets/sidebar.py"}),
    frozenset({"claude_tui/cli.py", "claude_tui/ui/launch.py"}),
]


def import_graph(root: Path) -> dict[Path, set[Path]]:
    """file -> the package's files it imports (anywhere in it: top level, functions, TYPE_CHECKING)."""
    base = root.parent
    files = {path.resolve() for path in root.rglob("*.py")}

    def module_file(dotted: str) -> Path | None:
        path = base.joinpath(*dotted.split("."))
        for candidate in (path.with_suffix(".py"), path / "__init__.py"):
            if candidate.resolve() in files:
                return candidate.resolve()
        return None

    graph: dict[Path, set[Path]] = {}
    for path in files:
        found: set[Path] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found |= {target for alias in node.names if (target := module_file(alias.name))}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    anchor = path.parent
                    for _ in range(node.level - 1):
                        anchor = anchor.parent
                    module = ".".join(anchor.relative_to(base).parts + ((node.module,) if node.module else ()))
                else:
                    module = node.module or ""
                for alias in node.names:
                    target = module_file(f"{module}.{alias.name}") or module_file(module)
                    if target is not None:
                        found.add(target)
        found.discard(path)
        graph[path] = found
    return graph


def circles(root: Path) -> list[frozenset[str]]:
    """The strongly connected groups of more than one file (Tarjan, iterative), as paths from the repo."""
    graph = import_graph(root)
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on_stack: set[Path] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(frozenset(str(m.relative_to(root.parent)) for m in group))
    return found


def test_no_import_circles() -> None:
    unexpected = [sorted(group) for group in circles(PACKAGE) if group not in ALLOWED]
    assert unexpected == [], f"import circles: {unexpected}"


def test_the_check_finds_a_circle_through_type_checking_and_function_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n")
    (package / "b.py").write_text("def f():\n    from pkg import c\n")
    (package / "c.py").write_text("from .a import A\n")
    (package / "d.py").write_text("import pkg.a\n")
    assert circles(package) == [frozenset({"pkg/a.py", "pkg/b.py", "pkg/c.py"})]
