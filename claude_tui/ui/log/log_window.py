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

A new width rewraps the items themselves: the item at the top then says where the
text its top row showed went (`KeepsPlace`; an answer finds the same word
again), and the view puts that row at the top. A scroll key pressed at the end keeps
the view following the end (Textual let go of it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rich.text import Text
from textual.containers import VerticalScroll
from textual.events import MouseScrollDown, MouseScrollUp
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

if TYPE_CHECKING:
    from textual.layout import DockArrangeResult
    from textual.types import AnimationLevel, CallbackType, EasingFunction


@runtime_checkable
class KeepsPlace(Protocol):
    """A widget whose rows rewrap at a new width and that can say where a row's text went.

    `place_at(row)` is asked before the new layout (rows of the current width), `row_of(place)`
    after it (rows of the new width). It is also asked across a layout at the same width while
    `rows_pending` says rows above the reader's may still change (an answer that held back part of
    its drawing during a burst renders it all when the reader leaves the end)."""

    def place_at(self, row: int) -> object | None: ...

    def row_of(self, place: object) -> int | None: ...

    @property
    def rows_pending(self) -> bool:
        """Whether its rows may change at the next layout at the same width (drawing held back)."""


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
        self._arranged_width = -1
        self._edge_pending = False

    @property
    def follows_end(self) -> bool:
        """Whether the view follows the end of the content (rows above it may then change height
        without the reader seeing them move: the bottom is held)."""
        return False

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
        if new_value < old_value and not self.follows_end:
            # Leaving the end: what an answer held back must be drawn before the reader reaches it,
            # so in the layout of this very frame (where the place on top is kept).
            for child in self.children:
                # getattr, not isinstance: a runtime protocol check costs ~10 µs a child, every scroll step.
                if getattr(child, "rows_pending", False):
                    child.refresh(layout=True)
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

    def scroll_to(self, x: float | None = None, y: float | None = None, *, animate: bool = True,
                  speed: float | None = None, duration: float | None = None,
                  easing: EasingFunction | str | None = None, force: bool = False,
                  on_complete: CallbackType | None = None, level: AnimationLevel = "basic",
                  immediate: bool = False, release_anchor: bool = True) -> None:
        # A scroll to the end, or past it, is following. Textual lets go of the end on every scroll
        # (PageDown, Down) and takes it back when the position reaches the end, but at the end
        # already the position does not change: a growing answer then went on below the view.
        if release_anchor and y is not None and self.is_anchored and y >= self.max_scroll_y:
            self.scroll_end(animate=animate, speed=speed, duration=duration, easing=easing, force=force,
                            on_complete=on_complete, level=level, immediate=immediate, x_axis=x is not None)
            return
        super().scroll_to(x, y, animate=animate, speed=speed, duration=duration, easing=easing, force=force,
                          on_complete=on_complete, level=level, immediate=immediate,
                          release_anchor=release_anchor)

    # -- keeping the reader's place ---------------------------------------------------------

    def is_place_holder(self, widget: Widget) -> bool:
        """Whether `widget` can be the reference the view keeps in place (markers cannot:
        new items are mounted right after the earlier marker, which would not move)."""
        return True

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        # A new width rewraps every item: where the text at the top of the view went can only be
        # asked of the widget before its new layout (the arrangement below makes it).
        resized = not optimal and self._arranged is not None and size.width != self._arranged_width
        place = None
        if not optimal and self._arranged is not None and (resized or not self.follows_end):
            place = self._place_on_top(self._arranged, resized)
        result = super().arrange(size, optimal)
        if not optimal:
            previous, self._arranged, self._arranged_width = self._arranged, result, size.width
            if previous is not None and previous is not result:
                self._keep_place(previous, result, size, resized, place)
        return result

    def _reference(self, arranged: DockArrangeResult, top: int) -> Any:
        """The placement of the first item shown at the top of the view (None: none)."""
        for placement in arranged.placements:
            if placement.region.bottom > top and self.is_place_holder(placement.widget):
                return placement
        return None

    def _place_on_top(self, arranged: DockArrangeResult, resized: bool) -> tuple[Widget, object] | None:
        reference = self._reference(arranged, round(self.scroll_y))
        widget = reference.widget if reference is not None else None
        if isinstance(widget, KeepsPlace) and (resized or widget.rows_pending):
            place = widget.place_at(round(self.scroll_y) - reference.region.y)
            if place is not None:
                return reference.widget, place
        return None

    def _keep_place(self, previous: DockArrangeResult, result: DockArrangeResult, size: Size,
                    resized: bool = False, place: tuple[Widget, object] | None = None) -> None:
        top = round(self.scroll_y)
        if top <= 0 and self.max_scroll_y <= 0:
            return  # everything fits: nothing to keep
        reference = self._reference(previous, top)
        if reference is None:
            return
        for placement in result.placements:
            if placement.widget is reference.widget:
                break
        else:
            return  # the reference went away: nothing sensible to keep
        into = top - reference.region.y  # rows of the reference above the view's top
        row = None
        if place is not None and place[0] is reference.widget and isinstance(reference.widget, KeepsPlace):
            row = reference.widget.row_of(place[1])
        if row is None and resized and placement.region.height != reference.region.height and into > 0:
            # Rewrapped without a better guide: the same share of it (keeping the rows above would
            # show text further on, or before, by as much as it grew or shrank).
            row = round(into * placement.region.height / max(1, reference.region.height))
        if row is None:
            row = into
        highest = max(0, result.total_region.bottom - size.height)
        wanted = max(0, min(highest, placement.region.y + row))
        if wanted != top:
            # Set as Textual's anchoring does (its validator would clamp to the old height).
            self.set_reactive(VerticalScroll.scroll_y, float(wanted))
            self.set_reactive(VerticalScroll.scroll_target_y, float(wanted))
            if self.show_vertical_scrollbar:
                self.vertical_scrollbar.position = wanted
