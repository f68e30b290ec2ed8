"""What a keystroke repaints: the prompt's changed cells, nothing else on the screen, and never too little.

Every byte a key costs is latency over ssh or mosh (`benchmarks/vs_claude_code.py`: bytes per
keystroke). Textual's compositor writes only the regions marked dirty, so what is marked is what is
written: these tests read the regions the screen renders after each key (`Compositor.render_update`)
and, for correctness, hold every cell of the prompt that a key changed to lie inside what it marked.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from rich.segment import Segment
from rich.style import Style
from textual._compositor import Compositor
from textual.geometry import Region

from claude_tui.ui.panels.composer import PromptInput
from tests.pilot.helpers import chat, make_app, wait_for

Cells = list[list[tuple[str, Style | None]]]


@contextmanager
def rendered_regions(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Region]]:
    """The screen regions each frame rendered while in the block."""
    seen: list[Region] = []
    textuals = Compositor.render_update

    def render_update(self: Compositor, *args: object, **kwargs: object) -> object:
        seen.extend(self._dirty_regions)
        return textuals(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Compositor, "render_update", render_update)
    yield seen
    monkeypatch.setattr(Compositor, "render_update", textuals)


def picture(prompt: PromptInput) -> Cells:
    """The prompt as it should look now, every line rendered afresh (no cache)."""
    prompt._line_cache.clear()
    prompt._styles_cache.clear()
    rows: Cells = []
    for strip in prompt.render_lines(prompt.outer_size.region):
        row: list[tuple[str, Style | None]] = []
        for segment in strip:
            for char in segment.text:
                row.append((char, segment.style))
                row.extend([("", segment.style)] * (Segment(char).cell_length - 1))
        rows.append(row)
    return rows


def union_size(regions: list[Region]) -> int:
    return len({(x, y) for region in regions for y in range(region.y, region.bottom)
                for x in range(region.x, region.right)})


async def test_a_letter_repaints_the_cells_it_changed_and_nothing_else(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="the CLI ready")
        prompt = view.query_one("#prompt", PromptInput)
        prompt.focus()
        prompt.cursor_blink = False  # the first key after the cursor went solid, the costliest
        await pilot.pause()
        row = prompt.content_region.y
        for key, text in (("a", "a"), ("b", "ab"), ("c", "abc")):
            with rendered_regions(monkeypatch) as regions:
                await pilot.press(key)
                await pilot.pause()
            assert prompt.text == text
            assert regions, "the key was drawn"
            # The letter where the cursor was and the cursor's new cell: not the prompt's border or
            # the rest of its line, not the status bar, the hints or anything else on the screen.
            assert all(region.y == row and region.height == 1 for region in regions), (key, regions)
            assert union_size(regions) <= 3, (key, regions)

        with rendered_regions(monkeypatch) as regions:
            await pilot.press("left")
            await pilot.pause()
        assert all(region.y == row for region in regions), regions
        assert union_size(regions) <= 2, regions


KEYS = [
    *"hello world", "left", "left", "left", "X", "backspace", "delete", "home", "Y", "end",
    "漢", "字", "z", "left", "left", "q", "end",
    "shift+left", "shift+left", "W", "shift+home", "end", "ctrl+j", *"second", "up", "end", "down", "ctrl+z", "ctrl+z",
    "ctrl+y", "ctrl+j", *"one two three", *["left"] * 6, "ctrl+w", "ctrl+z", "ctrl+y", "ctrl+z", "ctrl+k",
    "ctrl+j", *("long words " * 12), "home", "k", "k", "ctrl+w", "up", "home", "k", "k", "k", "ctrl+u", "ctrl+k",
]


async def test_every_cell_a_key_changes_is_repainted(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="the CLI ready")
        prompt = view.query_one("#prompt", PromptInput)
        prompt.focus()
        await pilot.pause()
        asked: list[Region] = []
        textuals = prompt._exchange_repaint_regions

        def exchange() -> object:
            regions = textuals()
            asked.extend(regions)
            return regions

        prompt._exchange_repaint_regions = exchange  # type: ignore[method-assign]
        before = picture(prompt)

        async def check(what: str, step: Callable[[], Awaitable[object]]) -> None:
            nonlocal before
            asked.clear()
            size = prompt.outer_size
            await step()
            await pilot.pause()
            after = picture(prompt)
            if prompt.outer_size == size:  # else the box grew or shrank: laid out and painted whole
                changed = {(x, y) for y, (old, new) in enumerate(zip(before, after, strict=True))
                           for x, (a, b) in enumerate(zip(old, new, strict=True)) if a != b}
                missed = {cell for cell in changed if not any(region.contains(*cell) for region in asked)}
                assert not missed, f"{what} changed cells it did not repaint: {sorted(missed)} (asked {asked})"
            before = after

        for key in KEYS:
            await check(repr(key), lambda key=key: pilot.press(key))  # type: ignore[misc]

        for text in ("ab", "cd", "a longer draft put back"):  # a history entry, a draft: not an edit
            async def load(text: str = text) -> None:
                prompt.load_text(text)

            await check(f"load_text({text!r})", load)

        for key in ("end", "ctrl+w", "ctrl+z"):
            await check(repr(key), lambda key=key: pilot.press(key))  # type: ignore[misc]

        async def redo() -> None:
            prompt.redo()  # (its Ctrl+Y is the chat's "copy the answer")

        await check("redo", redo)
