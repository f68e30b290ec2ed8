"""`QuietFooter` rebuilds its keys when what it shows changes, and only then."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Input, Static
from textual.widgets._footer import FooterKey

from claude_tui.ui.kit.quiet_footer import QuietFooter
from tests.pilot.helpers import frame_text, make_app, wait_for


class Pane(Static, can_focus=True):
    BINDINGS = [Binding("ctrl+o", "noop", "Open")]

    def action_noop(self) -> None:
        pass


class FooterApp(App[None]):
    BINDINGS = [Binding("ctrl+g", "noop", "Go")]

    def __init__(self, footer: type[Footer]) -> None:
        super().__init__()
        self.footer_type = footer

    def compose(self) -> ComposeResult:
        yield Input(id="field")
        yield Pane("pane", id="pane")
        yield self.footer_type()

    def action_noop(self) -> None:
        pass


def labels(app: App[None]) -> list[str]:
    return [str(key.description) for key in app.screen.query(FooterKey)]


@pytest.mark.parametrize("footer", [QuietFooter, Footer])
async def test_the_same_keys_are_not_rebuilt_and_other_keys_are_shown(footer: type[Footer]) -> None:
    app = FooterApp(footer)
    async with app.run_test(size=(80, 10)) as pilot:
        app.query_one("#field").focus()
        await wait_for(pilot, lambda: "Go" in labels(app))
        await pilot.pause(0.1)
        before = list(app.screen.query(FooterKey))
        for _ in range(3):
            app.screen.refresh_bindings()  # what every focus move and binding check does
            await pilot.pause(0.05)
        rebuilt = list(app.screen.query(FooterKey)) != before
        assert rebuilt == (footer is Footer), "Textual's footer rebuilds the same keys; ours keeps them"
        app.query_one("#pane").focus()
        await wait_for(pilot, lambda: "Open" in labels(app))
        app.query_one("#field").focus()
        await wait_for(pilot, lambda: "Open" not in labels(app))


async def test_the_chat_screens_first_frame_has_the_keys(tmp_path: Path) -> None:
    """Textual's footer composes its keys after the screen's first frame (it waits for a refresh), so
    the chat screen was first painted with an empty footer and the keys came a frame (~25 ms of the
    launch) later; ours composes them at once when the bindings settle before that frame."""
    app = make_app(tmp_path)
    frames: list[str] = []
    display = app._display

    def record(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            frames.append(frame_text(renderable))
        display(screen, renderable)

    app._display = record  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: frames and "Sessions" in frames[-1], what="the footer painted")
        assert "Sessions" in frames[0], frames[0]
