"""How long a 20,000-line diff takes: hunks, rows, and the first screen in a headless app.

    .venv/bin/python benchmarks/diff_render.py [LINES]
"""

from __future__ import annotations

import asyncio
import sys
import time

from textual.app import App, ComposeResult

from claude_tui.diff import diff_texts, preview_write
from claude_tui.diff.model import FileDiff
from claude_tui.diff.rows import build_rows
from claude_tui.ui.render.diff_view import DiffView


def _texts(lines: int) -> tuple[str, str]:
    old = "".join(f"def handler_{i}(request):  # {i}\n" for i in range(lines))
    new = "".join(
        f"def handler_{i}(request, *, strict=True):  # {i}\n" if i % 5 == 0 else f"def handler_{i}(request):  # {i}\n"
        for i in range(lines)
    )
    return old, new


class BenchApp(App[None]):
    def __init__(self, diff: FileDiff, split: bool) -> None:
        super().__init__()
        self._diff = diff
        self._split = split

    def compose(self) -> ComposeResult:
        yield DiffView(self._diff, split=self._split)


async def _first_screen(diff: FileDiff, split: bool) -> tuple[float, float]:
    start = time.perf_counter()
    app = BenchApp(diff, split)
    async with app.run_test(size=(180, 50)) as pilot:
        await pilot.pause()
        first = time.perf_counter() - start
        view = app.query_one(DiffView)
        scroll_start = time.perf_counter()
        for y in range(0, 20_000, 2_000):
            view.scroll_to(y=y, animate=False, immediate=True)
            await pilot.pause()
        per_page = (time.perf_counter() - scroll_start) / 10
    return first, per_page


def main() -> None:
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    old, new = _texts(lines)

    start = time.perf_counter()
    hunks = diff_texts(old, new)
    t_hunks = time.perf_counter() - start
    diff = preview_write(True, old, new, path="src/handlers.py")
    patch_lines = sum(len(h.lines) for h in hunks)

    start = time.perf_counter()
    unified = build_rows([diff], split=False)
    t_unified = time.perf_counter() - start
    start = time.perf_counter()
    split = build_rows([diff], split=True)
    t_split = time.perf_counter() - start

    first_unified, page_unified = asyncio.run(_first_screen(diff, split=False))
    first_split, page_split = asyncio.run(_first_screen(diff, split=True))

    print(f"file: {lines:,} lines; patch: {len(hunks)} hunks, {patch_lines:,} lines (+{diff.added} -{diff.removed})")
    print(f"diff_texts:                 {t_hunks * 1000:8.1f} ms")
    print(f"unified rows ({len(unified):,}):     {t_unified * 1000:8.1f} ms")
    print(f"split rows ({len(split):,}):       {t_split * 1000:8.1f} ms")
    print(f"app start + first screen, unified: {first_unified * 1000:8.1f} ms")
    print(f"app start + first screen, split:   {first_split * 1000:8.1f} ms")
    print(f"scroll jump + render page, unified: {page_unified * 1000:7.1f} ms")
    print(f"scroll jump + render page, split:   {page_split * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
