"""Nothing in ui/ reaches into the app by name: `getattr(self.app, "config")`, `cast(ChatHost, app)`.

A part gets what it needs typed: handed in (a constructor), through `ui/chat/app_host.py`
(`app_host(node)`, which mypy checks the app satisfies) or `ui/kit/app_config.py` (the config's
context variable). A getattr or a cast hides from mypy what the part depends on, and it breaks
quietly when the app renames the attribute.
"""

from __future__ import annotations

import re
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "claude_tui" / "ui"

_APP = r"(?:self\.app|self\._app|app|self\.screen\.app)\b"
REACH_AROUNDS = [
    re.compile(rf"\b(?:getattr|hasattr)\(\s*{_APP}\s*,"),
    re.compile(rf"\bcast\(\s*[\w.\[\]\"' |]+,\s*{_APP}\s*\)"),
]

ALLOWED: dict[tuple[str, str], str] = {
    ("kit/attention.py", 'getattr(app, "_driver"'):
        "Textual's driver has no public name; this is the one allow-listed wrapper "
        "(tests/unit/test_no_private_textual.py), not an attribute of our app.",
}
"""(file inside ui/, the text that matched, up to its first argument) -> why it stays."""


def reach_arounds(root: Path) -> list[str]:
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in REACH_AROUNDS:
                for match in pattern.finditer(line):
                    if not any(rel == file and line[match.start():].startswith(text) for file, text in ALLOWED):
                        found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_ui_reaches_into_the_app_by_no_name() -> None:
    found = reach_arounds(UI)
    assert not found, "typed access instead (see this test's docstring):\n" + "\n".join(found)


def test_the_scan_can_fail(tmp_path: Path) -> None:
    (tmp_path / "part.py").write_text(
        'config = getattr(self.app, "config", None)\n'
        "chat = getattr(app, 'chat', None)\n"
        "host = cast(ChatHost, self.app)\n"
        "ok = cast(int, value)\n"
        "also_ok = getattr(widget, 'name', None)\n",
        encoding="utf-8")
    assert [line.split(": ", 1)[0] for line in reach_arounds(tmp_path)] == ["part.py:1", "part.py:2", "part.py:3"]
