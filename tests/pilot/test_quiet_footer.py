"""`QuietFooter` rebuilds its keys when what it shows changes, and only then."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Input, Static
from textual.widgets._footer import FooterKey

from claude_tui.ui.kit.quiet_footer import QuietFooter
from tests.pilot.helpers import wait_for


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


class FirstFrameApp(FooterApp):
    """Records the text of every update the compositor hands to the driver (App._display: there is
    no public "frame painted" event)."""

    def __init__(self, footer: type[Footer]) -> None:
        super().__init__(footer)
        self.frames: list[str] = []

    def on_mount(self) -> None:
        self.query_one("#field").focus()  # as the chat screen does: the bindings are settled before the first frame

    def _display(self, screen: object, renderable: object) -> None:  # type: ignore[override]
        if renderable is not None:
            rows = []
            for line in getattr(renderable, "chops", None) or ():
                rows.append("".join(strip.text for _, strip in sorted(line.items()) if strip is not None))
            for line in getattr(renderable, "strips", None) or ():
                rows.append("".join(strip.text for strip in ([line] if hasattr(line, "text") else line)))
            self.frames.append("\n".join(rows))
        super()._display(screen, renderable)  # type: ignore[arg-type]


@pytest.mark.parametrize("footer", [QuietFooter, Footer])
async def test_the_keys_are_in_the_first_frame(footer: type[Footer]) -> None:
    """Textual's footer is empty in the screen's first frame (its keys come a frame later, ~25 ms of
    the launch); ours shows them in it."""
    app = FirstFrameApp(footer)
    async with app.run_test(size=(80, 10)) as pilot:
        await wait_for(pilot, lambda: "Go" in labels(app) and len(app.frames) > 1)
        first = app.frames[0]
        assert ("Go" in first) == (footer is QuietFooter), first
