"""The scrolling conversation: one widget per log item, with a bounded number mounted.

A 5,000-message session must append as cheaply as a 50-message one, so only
the newest `max_mounted` items have widgets. Older ones are unmounted (their
data stays in the session `Log`) and re-created a page at a time when the
user scrolls to the top or activates the "earlier messages" line.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.containers import VerticalScroll
from textual.events import Click
from textual.widget import Widget
from textual.widgets import Static

from claude_tui.session.conversation import Log
from claude_tui.session.items import (
    Item,
    NoteItem,
    NoteKind,
    TextItem,
    ThinkingItem,
    ToolItem,
    UserItem,
)
from claude_tui.ui.widgets.assistant_text import AssistantText
from claude_tui.ui.widgets.messages import (
    CommandOutput,
    NoteLine,
    PlainCommandOutput,
    ThinkingBlock,
    UserPrompt,
    looks_like_markdown,
)
from claude_tui.ui.widgets.tool_card import ToolCard


class EarlierMarker(Static):
    """Stands for the items that are not mounted; click or scroll up to see them."""

    def show_count(self, count: int) -> None:
        self.display = count > 0
        self.update(Text(f"↑ {count:,} earlier item{'s' if count != 1 else ''} — scroll up or click to show",
                         style="dim italic", justify="center"))


def widget_for(item: Item, show_thinking: bool = False) -> Widget | None:
    if isinstance(item, UserItem):
        return UserPrompt(item)
    if isinstance(item, TextItem):
        return AssistantText(item)
    if isinstance(item, ThinkingItem):
        return ThinkingBlock(item, expanded=show_thinking)
    if isinstance(item, ToolItem):
        return ToolCard(item)
    if isinstance(item, NoteItem):
        if item.kind is NoteKind.LOCAL_COMMAND:
            return CommandOutput(item) if looks_like_markdown(item.text) else PlainCommandOutput(item)
        return NoteLine(item)
    return None


class ChatLog(VerticalScroll):
    """Renders a session `Log` (the main conversation or a subagent's)."""

    def __init__(self, log: Log, *, max_mounted: int = 80, page: int = 40, show_thinking: bool = False,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.log_data = log
        self.max_mounted = max_mounted
        self.page = page
        self.show_thinking = show_thinking
        self._widgets: dict[str, Widget] = {}
        self._first = 0
        """Index in `log_data.items` of the first item with a widget."""
        self._marker = EarlierMarker(classes="earlier-marker")
        self._welcome: Static | None = None

    def compose(self):  # type: ignore[override]
        yield self._marker

    def show_welcome(self, text: Text) -> None:
        """A first-screen hint, removed when the conversation starts."""
        if self.log_data.items or self._welcome is not None:
            return
        self._welcome = Static(text, classes="welcome")
        self.mount(self._welcome)

    def on_mount(self) -> None:
        self._marker.show_count(0)
        self.anchor()
        # Resumed history or a subagent that already ran: show the newest page.
        items = self.log_data.items
        start = max(0, len(items) - self.max_mounted)
        self._first = start
        widgets = [w for w in (self._make(item) for item in items[start:]) if w is not None]
        if widgets:
            self.mount_all(widgets)
        self._marker.show_count(self._first)

    def _make(self, item: Item) -> Widget | None:
        widget = widget_for(item, self.show_thinking)
        if widget is not None:
            self._widgets[item.id] = widget
        return widget

    @property
    def mounted_count(self) -> int:
        return len(self._widgets)

    # -- changes from the session -----------------------------------------------------
    def add_item(self, item: Item) -> None:
        if self._welcome is not None:
            self._welcome.remove()
            self._welcome = None
        widget = self._make(item)
        if widget is None:
            return
        self.mount(widget)
        # Prune in batches: one removal (and one relayout) per `page` appends
        # instead of one per append.
        if self.is_anchored_to_end and len(self._widgets) > self.max_mounted + self.page:
            self._prune_oldest(len(self._widgets) - self.max_mounted)

    @property
    def is_anchored_to_end(self) -> bool:
        # A log that fits is at its end. Textual anchors a short log with scroll_y below 0 (its content
        # sits at the bottom), so a distance to max_scroll_y would say "scrolled up" there.
        return self.max_scroll_y == 0 or self.scroll_y >= self.max_scroll_y - 2 or not self.is_mounted

    async def update_item(self, item: Item) -> None:
        widget = self._widgets.get(item.id)
        if widget is not None:
            result = widget.refresh_from(item)  # type: ignore[attr-defined]
            if result is not None:  # AssistantText rebuilds asynchronously: in order, one at a time
                await result

    async def append_text(self, item: Item, text: str) -> None:
        widget = self._widgets.get(item.id)
        if isinstance(widget, AssistantText):
            await widget.append_text(text)
        elif isinstance(widget, ThinkingBlock):
            widget.append_text(text)

    def widget_for_item(self, item_id: str) -> Widget | None:
        return self._widgets.get(item_id)

    # -- bounded mounting --------------------------------------------------------------
    def _prune_oldest(self, count: int) -> None:
        items = self.log_data.items
        doomed: list[Widget] = []
        index = self._first
        while len(doomed) < count and index < len(items):
            widget = self._widgets.pop(items[index].id, None)
            if widget is not None:
                doomed.append(widget)
            index += 1
        self._first = index
        if doomed:
            self.remove_children(doomed)
        self._marker.show_count(self._first)

    def show_earlier(self) -> int:
        """Mount up to a page of older items above the current ones; return how many."""
        if self._first == 0:
            return 0
        items = self.log_data.items
        start = max(0, self._first - self.page)
        widgets = [w for w in (self._make(item) for item in items[start:self._first]) if w is not None]
        self._first = start
        if widgets:
            self.mount_all(widgets, after=self._marker)
        self._marker.show_count(self._first)
        return len(widgets)

    async def reveal(self, item_id: str) -> Widget | None:
        """The widget of `item_id`, mounting it (and everything after it) if it scrolled out of the window."""
        widget = self._widgets.get(item_id)
        if widget is not None:
            return widget
        items = self.log_data.items
        index = next((i for i in range(self._first - 1, -1, -1) if items[i].id == item_id), None)
        if index is None:
            return None
        widgets = [w for w in (self._make(item) for item in items[index:self._first]) if w is not None]
        self._first = index
        if widgets:
            await self.mount_all(widgets, after=self._marker)
        self._marker.show_count(self._first)
        return self._widgets.get(item_id)

    @on(Click, ".earlier-marker")
    def _clicked_marker(self) -> None:
        self.show_earlier()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value <= 0 and old_value > 0 and self._first > 0:
            self.call_after_refresh(self.show_earlier)
        elif self.is_anchored_to_end and len(self._widgets) > self.max_mounted + self.page:
            # Back at the bottom after reading history: drop what scrolled far away.
            self.call_after_refresh(self._prune_oldest, len(self._widgets) - self.max_mounted)

    def tick(self) -> None:
        for widget in self._widgets.values():
            if isinstance(widget, ToolCard):
                widget.tick()
