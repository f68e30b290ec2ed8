"""The row of tabs above the chat: number (Alt+N), state, name, cost, and a mark on a tab that needs you.

State flows down: the screen sets `tabs` (one `TabSummary` per open session, in order) and
`active`; the bar only draws them. Events flow up: a click posts `TabBar.Selected`. The bar
never takes focus, so keys stay in the prompt.

It has no timer of its own. An idle bar is drawn once per change of what it shows; while a tab
streams, the owner bumps `frame` on news and the spinner turns (at most `SPIN_HZ` a second).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive, var
from textual.widget import Widget

from claude_tui.protocol import units
from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.chat.tab_summary import TabState, TabSummary
from claude_tui.ui.window.tab_layout import SPINNER, Cell, lay_out, state_role


class TabBar(Widget):
    """One row: a cell per tab, left to right in tab order (see `tab_layout` for how it fits)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "tab-bar--tab", "tab-bar--active", "tab-bar--attention", "tab-bar--separator", "tab-bar--more",
        "tab-bar--number", "tab-bar--name", "tab-bar--cost", "tab-bar--attention-mark",
        *(f"tab-bar--{state_role(state)}" for state in TabState),
    }

    DEFAULT_CSS = """
    TabBar {
        height: 1;
        width: 1fr;
        background: $panel;
        color: $text-muted;
    }
    TabBar > .tab-bar--active {
        background: $primary-muted;
        color: $foreground;
        text-style: bold;
    }
    TabBar > .tab-bar--attention {
        background: $warning-muted;
        color: $foreground;
    }
    TabBar > .tab-bar--attention-mark {
        color: $text-warning;
        text-style: bold;
    }
    TabBar > .tab-bar--number { text-style: bold; }
    TabBar > .tab-bar--cost { text-style: dim; }
    TabBar > .tab-bar--separator { color: $text-disabled; }
    TabBar > .tab-bar--more { color: $text-muted; }
    TabBar > .tab-bar--starting { color: $text-muted; }
    TabBar > .tab-bar--streaming { color: $text-success; text-style: bold; }
    TabBar > .tab-bar--waiting { color: $text-warning; text-style: bold; }
    TabBar > .tab-bar--idle { color: $text-muted; }
    TabBar > .tab-bar--error { color: $text-error; text-style: bold; }
    TabBar > .tab-bar--exited { color: $text-disabled; }
    """

    tabs: var[tuple[TabSummary, ...]] = var(())
    """Every open tab, in order. The bar redraws only when something it shows changes: a session
    refreshes its summary on every batch from its CLI (`last_activity` moves), the bar need not."""
    active: reactive[str] = reactive("")
    """The `tab_id` of the tab in view."""
    frame: var[int] = var(0)
    """Bumped by the owner on news (no timer here); the spinner turns at most `SPIN_HZ` times a
    second, and only while a tab streams."""

    SPIN_HZ: ClassVar[float] = 8.0
    clock: ClassVar[Callable[[], float]] = staticmethod(time.monotonic)
    """The spinner's clock (seconds). Tests replace it."""

    class Selected(Message):
        """A tab was clicked: show it (the bar does not change `active` itself)."""

        def __init__(self, bar: TabBar, tab_id: str) -> None:
            super().__init__()
            self.bar = bar
            self.tab_id = tab_id

        @property
        def control(self) -> TabBar:
            return self.bar

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._spans: list[tuple[int, int, str]] = []
        """(start, end, tab_id) of each drawn tab, from the last render: what a click hits."""
        self._spin = 0
        """The spinner frame drawn: advances by one per turn shown, however often `frame` is bumped."""
        self._spun_at = float("-inf")

    def watch_tabs(self, old: tuple[TabSummary, ...], new: tuple[TabSummary, ...]) -> None:
        if _drawn(old) != _drawn(new):
            self.refresh()

    def watch_frame(self) -> None:
        if not any(summary.state is TabState.STREAMING for summary in self.tabs):
            return
        now = type(self).clock()
        if now - self._spun_at >= 1 / self.SPIN_HZ:  # a CLI batch can come 100 times a second
            self._spun_at = now
            self._spin += 1
            self.refresh()

    def _spinner(self) -> str:
        if self.is_attached and self.app.animation_level == "none":
            return ""  # the still glyph
        return SPINNER[self._spin % len(SPINNER)]

    def render(self) -> Content:
        cells = lay_out(self.tabs, self.active, self.content_region.width, self._spinner())
        self._spans = []
        pieces: list[Content] = []
        x = 0
        for cell in cells:
            pieces.append(self._draw(cell))
            if cell.tab_id is not None:
                self._spans.append((x, x + cell.width, cell.tab_id))
            x += cell.width
        return Content("").join(pieces)

    def _draw(self, cell: Cell) -> Content:
        # The cell's look resolved against the bar (an opaque background, even from a "50%" theme
        # colour), then each part's own colour on top.
        base = self.get_visual_style(f"tab-bar--{cell.look}")
        # Content.styled never parses markup: names are untrusted (and arrive already printable).
        return Content("").join(
            Content.styled(part.text, base + self.get_visual_style(f"tab-bar--{part.role}", partial=True)
                           if part.role else base)
            for part in cell.parts)

    def tab_at(self, x: int) -> str | None:
        """The tab drawn at column `x` of the content (None: a separator, a marker or nothing)."""
        return next((tab_id for start, end, tab_id in self._spans if start <= x < end), None)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        tab_id = self.tab_at(offset.x) if offset is not None else None
        if tab_id is not None:
            event.stop()
            self.post_message(self.Selected(self, tab_id))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """The full name (and what the tab waits for) as a tooltip: names are cut when tabs are many."""
        offset = event.get_content_offset(self)
        tab_id = self.tab_at(offset.x) if offset is not None else None
        summary = next((s for s in self.tabs if s.tab_id == tab_id), None)
        self.tooltip = None if summary is None else describe(summary)


def _drawn(tabs: tuple[TabSummary, ...]) -> tuple[tuple[object, ...], ...]:
    """What the bar shows of each tab (the rest, like `last_activity`, is the overview's)."""
    return tuple((t.tab_id, t.name, t.host, t.state, units.cost(t.cost_usd), t.attention) for t in tabs)


def describe(summary: TabSummary) -> Content:
    """One tab in words, for a tooltip: name, state, cost, and the question waiting, if any."""
    parts: list[str | tuple[str, str]] = [(printable_name(summary.name), "bold"), f" · {summary.state.value}"]
    if summary.host:
        parts.append(f" · on {printable_name(summary.host)}")
    if cost := units.cost(summary.cost_usd):
        parts.append(f" · {cost}")
    if summary.pending:
        parts.append(f"\n{printable_name(summary.pending)}")
    return Content.assemble(*parts)
