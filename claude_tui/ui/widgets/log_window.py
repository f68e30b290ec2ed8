"""Scrolling parts of the chat log: the markers for items that are not mounted, and a
scroll container that loads more at its edges and keeps the reader's place when content
above the view changes.

Mounting a page of older items above the view, dropping items that scrolled far
away, or a Markdown block laying out late all change heights *above* what is on
screen. A plain container keeps `scroll_y` and the text under the reader's eyes
jumps. `PlaceKeepingScroll` remembers the first item on screen at each layout
and moves `scroll_y` with it, in the same frame (as browsers' scroll anchoring does),
so whatever changes above the view, the view does not move. Textual's own
bottom anchoring, when engaged, still wins: it is applied after `arrange`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.containers import VerticalScroll
from textual.events import MouseScrollDown, MouseScrollUp
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

if TYPE_CHECKING:
    from textual.layout import DockArrangeResult


class EarlierMarker(Static):
    """Stands for the items before the mounted ones; click or scroll up to see them."""

    DEFAULT_CSS = """
    EarlierMarker {
        height: 1;
        color: $text-muted;
        margin-bottom: 1;
    }
    """

    def show_count(self, count: int) -> None:
        self.display = count > 0
        self.update(Text(f"↑ {count:,} earlier item{'s' if count != 1 else ''} — scroll up or click to show",
                         style="dim italic", justify="center"))


class LaterMarker(Static):
    """Stands for the items after the mounted ones (the window moved back to find or select
    something); click, scroll down or press End to come back to the newest."""

    DEFAULT_CSS = """
    /* "↓ N later items": the log's window was moved back to an old item (find, select). */
    LaterMarker {
        height: 1;
        color: $text-muted;
        margin-top: 1;
    }
    """

    def show_count(self, count: int) -> None:
        self.display = count > 0
        self.update(Text(f"↓ {count:,} later item{'s' if count != 1 else ''} — scroll down or click to show, "
                         "End for the newest", style="dim italic", justify="center"))


class PlaceKeepingScroll(VerticalScroll):
    """A vertical scroll container whose view stays put when heights change above it, and
    that calls `show_earlier` / `show_later` when the reader goes past its top or bottom
    while `has_earlier` / `has_later` say there is more."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._arranged: DockArrangeResult | None = None
        self._edge_pending = False

    def has_earlier(self) -> bool:
        return False

    def has_later(self) -> bool:
        return False

    def show_earlier(self) -> int:
        return 0

    def show_later(self) -> int:
        return 0

    # -- more at the edges ----------------------------------------------------------------
    def _load_at_edge(self, earlier: bool) -> None:
        """Load a page at the top or bottom after this refresh (once, however many events ask)."""
        if not self._edge_pending:
            self._edge_pending = True
            self.call_after_refresh(self._edge_loaded, earlier)

    def _edge_loaded(self, earlier: bool) -> None:
        self._edge_pending = False
        if earlier:
            self.show_earlier()
        else:
            self.show_later()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value <= 0 < old_value and self.has_earlier():
            self._load_at_edge(earlier=True)
        elif old_value < new_value >= self.max_scroll_y and self.has_later():
            self._load_at_edge(earlier=False)

    # At an edge the scroll position cannot change, so the watcher above does not see
    # the wheel or key that asks for more: these do.
    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        if self.has_later() and self.scroll_y >= self.max_scroll_y:
            self._load_at_edge(earlier=False)

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        if self.has_earlier() and self.scroll_y <= 0:
            self._load_at_edge(earlier=True)

    def scroll_page_down(self, **kwargs: Any) -> None:
        if self.has_later() and self.scroll_y >= self.max_scroll_y:
            self._load_at_edge(earlier=False)
        super().scroll_page_down(**kwargs)

    def scroll_page_up(self, **kwargs: Any) -> None:
        if self.has_earlier() and self.scroll_y <= 0:
            self._load_at_edge(earlier=True)
        super().scroll_page_up(**kwargs)

    # -- keeping the reader's place ---------------------------------------------------------

    def is_place_holder(self, widget: Widget) -> bool:
        """Whether `widget` can be the reference the view keeps in place (markers cannot:
        new items are mounted right after the earlier marker, which would not move)."""
        return True

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        result = super().arrange(size, optimal)
        if not optimal:
            previous, self._arranged = self._arranged, result
            if previous is not None and previous is not result:
                self._keep_place(previous, result, size)
        return result

    def _keep_place(self, previous: DockArrangeResult, result: DockArrangeResult, size: Size) -> None:
        top = round(self.scroll_y)
        if top <= 0 and self.max_scroll_y <= 0:
            return  # everything fits: nothing to keep
        reference = None
        for placement in previous.placements:
            if placement.region.bottom > top and self.is_place_holder(placement.widget):
                reference = placement
                break
        if reference is None:
            return
        offset = reference.region.y - top
        for placement in result.placements:
            if placement.widget is reference.widget:
                break
        else:
            return  # the reference went away: nothing sensible to keep
        highest = max(0, result.total_region.bottom - size.height)
        wanted = max(0, min(highest, placement.region.y - offset))
        if wanted != top:
            # Set as Textual's anchoring does (its validator would clamp to the old height).
            self.set_reactive(VerticalScroll.scroll_y, float(wanted))
            self.set_reactive(VerticalScroll.scroll_target_y, float(wanted))
            if self.show_vertical_scrollbar:
                self.vertical_scrollbar.position = wanted
