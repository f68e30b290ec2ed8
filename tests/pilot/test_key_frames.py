"""A keystroke alone on the screen is painted at once; with anything else to paint it waits for the grid.

Textual paints on a grid (`UPDATE_PERIOD`, 1/60 s): made a second long here, a key typed right after
a frame would wait for most of it unless it is painted at once (`ui/window/key_frames.py`).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
import textual.screen
from textual import events
from textual._compositor import Compositor

from claude_tui.ui.panels.composer import PromptInput
from claude_tui.ui.panels.status_bar import StatusBar
from claude_tui.ui.window import screen as window_screen
from claude_tui.ui.window.key_frames import paint_keystroke_now
from tests.pilot.helpers import chat, make_app, wait_for


async def test_a_key_right_after_a_frame_is_painted_without_waiting_for_the_grid(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 1.0)
    frames: list[float] = []
    textuals = Compositor.render_update

    def render_update(self: Compositor, *args: object, **kwargs: object) -> object:
        frames.append(time.monotonic())
        return textuals(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Compositor, "render_update", render_update)
    # What else waited for a frame each time the screen went idle: a key that lands while the status
    # bar or the footer waits too is rightly left to the grid (a loaded machine makes that likely), so
    # such a try is taken again; a key that waited with nothing else to paint fails.
    others: list[tuple[float, list[str]]] = []
    painted = window_screen.paint_keystroke_now

    def paint(screen: textual.screen.Screen[object], prompt: type[PromptInput]) -> bool:
        waiting = [type(widget).__name__ for widget in screen._dirty_widgets if not isinstance(widget, prompt)]
        others.append((time.monotonic(), waiting))
        return painted(screen, prompt)

    monkeypatch.setattr(window_screen, "paint_keystroke_now", paint)
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="the CLI ready")
        prompt = view.query_one("#prompt", PromptInput)
        prompt.focus()
        await pilot.press("a")  # the first key changes the footer's hints too: that frame is the grid's
        typed_keys = "a"
        painted_at_once = 0
        for key in "bcdefghijk":
            if painted_at_once == 4:
                break
            while app.screen._dirty_widgets:
                await asyncio.sleep(0.01)
            # Posted as the terminal would, not with `pilot.press`: the pilot paints a frame itself.
            typed = time.monotonic()
            app.post_message(events.Key(key, key))
            typed_keys += key
            while not (frames and frames[-1] > typed) and time.monotonic() - typed < 5:
                await asyncio.sleep(0.005)
            # Each key lands just after the last one's frame: on the grid it would wait about 1 s.
            if frames[-1] - typed < 0.5:
                painted_at_once += 1
                continue
            busy = sorted({name for at, waiting in others if at > typed for name in waiting})
            assert busy, f"{key} waited {frames[-1] - typed:.2f} s for its frame with nothing else to paint"
        assert painted_at_once == 4, "the screen was never quiet enough to paint a key at once"
        await wait_for(pilot, lambda: prompt.text == typed_keys, what=f"the prompt reading {typed_keys!r}")


async def test_with_anything_else_to_paint_the_frame_is_left_to_the_grid(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive, what="the CLI")
        screen = app.screen
        prompt = view.query_one("#prompt", PromptInput)
        await pilot.pause()
        screen._dirty_widgets.update({prompt, view.query_one(StatusBar)})
        assert not paint_keystroke_now(screen, PromptInput)  # an answer streaming, the status bar: the grid
        assert screen._dirty_widgets
        screen._dirty_widgets.discard(view.query_one(StatusBar))
        assert paint_keystroke_now(screen, PromptInput)
        assert not screen._dirty_widgets
