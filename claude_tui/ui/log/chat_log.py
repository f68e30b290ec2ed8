"""The scrolling conversation: one widget per log item, with a bounded number mounted.

A 5,000-message session must append as cheaply as a 50-message one, so only a
window of about `max_mounted` consecutive items has widgets; the others keep
their data in the session `Log` and get widgets again when the window reaches
them. Usually the window ends at the newest item (the live tail) and older
items are dropped from its top as new ones arrive. Find (F3) and select mode
can ask for any item: a far one moves the window there instead of mounting
everything in between, and an "↓ N later items" line then stands for what
follows. New items are not mounted while the window is elsewhere (they are in
the log data); End, sending a prompt, or scrolling down past the last page
brings the window back to the tail, which the view then follows again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.events import Click
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import Static

from claude_tui.session.items import (
    Item,
    NoteItem,
    NoteKind,
    ShellItem,
    TextItem,
    ThinkingItem,
    ToolItem,
    UserItem,
)
from claude_tui.session.log import Log
from claude_tui.ui.log.assistant_text import AssistantText
from claude_tui.ui.log.items import (
    NoteLine,
    PlainCommandOutput,
    ThinkingBlock,
    UserPrompt,
    looks_like_markdown,
)
from claude_tui.ui.log.log_window import EarlierMarker, LaterMarker, PlaceKeepingScroll
from claude_tui.ui.log.tool_card import ToolCard

__all__ = ["ChatLog", "EarlierMarker", "LaterMarker", "widget_for"]

MAX_MOUNTED_CHARS = 30_000
"""About this much text has widgets at a time (besides `max_mounted` items): a window of 80
long answers costs seconds to lay out and hundreds of MB, one of 80 short ones nothing."""
_warmed = False
"""Whether the Markdown renderer was warmed up in this process (once is enough)."""
WELCOME_MARGIN = 4
"""Rows above and below the welcome box when the log has room (its CSS margin)."""
_OTHER_WEIGHT = 300
"""What an item without a text (a tool card) counts for."""


def weight(item: Item) -> int:
    """Roughly what an item costs to render: its text's length."""
    text = getattr(item, "text", None)
    return max(1, len(text)) if isinstance(text, str) else _OTHER_WEIGHT


def widget_for(item: Item, show_thinking: bool = False, project_dir: Callable[[], str] | None = None) -> Widget | None:
    if isinstance(item, UserItem):
        return UserPrompt(item)
    if isinstance(item, TextItem):
        return AssistantText(item)
    if isinstance(item, ThinkingItem):
        return ThinkingBlock(item, expanded=show_thinking)
    if isinstance(item, ToolItem):
        return ToolCard(item, project_dir)
    if isinstance(item, ShellItem):
        from claude_tui.ui.log.shell_card import ShellCard

        return ShellCard(item)
    if isinstance(item, NoteItem):
        if item.kind is NoteKind.LOCAL_COMMAND:
            if not looks_like_markdown(item.text):
                return PlainCommandOutput(item)
            from claude_tui.ui.log.command_output import CommandOutput  # see markdown_part.py

            return CommandOutput(item)
        return NoteLine(item)
    return None


class ChatLog(PlaceKeepingScroll):
    """Renders a session `Log` (the main conversation or a subagent's)."""

    DEFAULT_CSS = """
    ChatLog {
        height: 1fr;
        scrollbar-size-vertical: 1;

        .welcome {
            width: 1fr;
            margin: 4 2;
            padding: 1 2;
            color: $text-muted;
            border: round $primary 40%;
            text-align: center;
        }

        /* The current find match and the selected message: a tint and a coloured edge (no outline:
           it cannot draw around one-line items). A tool card's state edge and a queued prompt's
           edge keep showing (same specificity; their rules come later: an item mounts after its
           log); an error note's edge gives way to the highlight. */
        .-find-current {
            background: $warning 25%;
            border-left: outer $warning;
        }
        .-selected {
            background: $accent 20%;
            border-left: outer $accent;
        }
        NoteLine.-find-current {
            border-left: outer $warning;
        }
        NoteLine.-selected {
            border-left: outer $accent;
        }
    }
    """

    now: var[float] = var(0.0, init=False)
    """The clock (bound to the chat view's `now`): a running tool's elapsed time follows it."""

    def __init__(self, log: Log, *, max_mounted: int = 80, page: int = 40, show_thinking: bool = False,
                 max_chars: int = MAX_MOUNTED_CHARS, id: str | None = None, classes: str | None = None,
                 project_dir: Callable[[], str] | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.log_data = log
        self.project_dir = project_dir
        """The session's directory, now (tool cards show paths inside it relative to it); None: unknown."""
        self.max_mounted = max_mounted
        self.max_chars = max_chars
        self.page = page
        self.show_thinking = show_thinking
        self.verbose = False
        """Ctrl+O: every tool card and thinking block shown open (`set_verbose`)."""
        self._widgets: dict[str, Widget] = {}
        self._first = 0
        """Index in `log_data.items` of the first item of the window."""
        self._end: int | None = None
        """Index just after the window's last item; None while the window reaches the newest (live tail)."""
        self._follow = False
        """Whether the owner anchored the log (the chat does; the browser's preview does not)."""
        self._marker = EarlierMarker(classes="earlier-marker")
        self._later = LaterMarker(classes="later-marker")
        self._welcome: Static | None = None
        self._scroll_retries = 0

    def compose(self) -> ComposeResult:
        yield self._marker
        yield self._later

    def show_welcome(self, text: Text) -> None:
        """A first-screen hint, removed when the conversation starts."""
        if self.log_data.items or self._welcome is not None:
            return
        self._welcome = Static(text, classes="welcome")
        self.mount(self._welcome, before=self._later)
        self.call_after_refresh(self.fit_welcome)

    def on_resize(self) -> None:
        if self._welcome is not None:
            self.call_after_refresh(self.fit_welcome)

    def fit_welcome(self) -> None:
        """A short log (60×20 with tabs) gives the welcome box less margin, and shows its top when it
        is taller than the log: following the end cut off its top edge."""
        welcome = self._welcome
        if welcome is None or not welcome.is_mounted:
            return
        box = welcome.outer_size.height - welcome.styles.margin.top - welcome.styles.margin.bottom
        room = self.scrollable_content_region.height
        margin = max(0, min(WELCOME_MARGIN, (room - box) // 2))
        if not welcome.size.height:
            return  # not laid out (a tab in the background): its Resize comes when it is shown
        if welcome.styles.margin.top != margin:
            welcome.styles.margin = (margin, 2)
            self.call_after_refresh(self.fit_welcome)  # measured again with its new margin
            return
        if box > room:
            self.anchor(False)
            self.scroll_home(animate=False, immediate=True)

    def on_mount(self) -> None:
        self._marker.show_count(0)
        self._later.show_count(0)
        self.anchor()
        # Resumed history or a subagent that already ran: show the newest page.
        self._show_window(self._tail_start(), None)

    def warm_up(self) -> None:
        """Load and exercise the Markdown renderer once per process, in a thread, after the next paint
        (the view asks once its CLI is ready: before the first paint or the CLI's handshake, the
        thread held the GIL through them, ~40 ms each)."""
        global _warmed
        if not _warmed:
            _warmed = True
            # A thread: it touches no widget, and the UI stays free for the first keys meanwhile.
            self.call_after_refresh(self.run_worker, _warm_up, thread=True, group="warm-up", exit_on_error=False)

    def _back_from(self, end: int, count: int, chars: int) -> int:
        """The start of at most `count` items ending before `end`, weighing at most `chars` (one at least)."""
        items = self.log_data.items
        start, total = end, 0
        while start > 0 and end - start < count:
            total += weight(items[start - 1])
            if total > chars and start < end:
                break
            start -= 1
        return start

    def _tail_start(self) -> int:
        """Where a window showing the newest items starts."""
        return self._back_from(len(self.log_data.items), self.max_mounted, self.max_chars)

    def _mounted_weight(self) -> int:
        first, end = self.window
        return sum(weight(item) for item in self.log_data.items[first:end])

    def _make(self, item: Item) -> Widget | None:
        widget = widget_for(item, self.show_thinking or self.verbose, self.project_dir)
        if widget is not None:
            self._widgets[item.id] = widget
            if self.verbose and isinstance(widget, ToolCard):
                widget.expanded = True
        return widget

    def set_verbose(self, verbose: bool) -> None:
        """Ctrl+O, Claude Code's verbose transcript: every tool card and thinking block open (closed
        again on the next press), the ones mounted later too."""
        self.verbose = verbose
        for widget in list(self._widgets.values()):
            if isinstance(widget, (ToolCard, ThinkingBlock)):
                widget.set_expanded(verbose or (isinstance(widget, ThinkingBlock) and self.show_thinking))

    def _make_range(self, start: int, end: int) -> list[Widget]:
        return [w for w in (self._make(item) for item in self.log_data.items[start:end]) if w is not None]

    @property
    def mounted_count(self) -> int:
        return len(self._widgets)

    @property
    def window(self) -> tuple[int, int]:
        """The items that may have widgets: `log_data.items[start:end]`."""
        return self._first, len(self.log_data.items) if self._end is None else self._end

    @property
    def at_tail(self) -> bool:
        """Whether the window reaches the newest item (new items are mounted as they come)."""
        return self._end is None

    def _show_counts(self) -> None:
        self._marker.show_count(self._first)
        self._later.show_count(len(self.log_data.items) - self.window[1])

    def is_place_holder(self, widget: Widget) -> bool:
        return widget is not self._marker and widget is not self._later

    # -- changes from the session -----------------------------------------------------
    def add_item(self, item: Item) -> None:
        if self._welcome is not None:
            self._welcome.remove()
            self._welcome = None
            if not self._follow:  # let go only to show a tall welcome's top
                self.anchor()
        if self._end is not None:
            # The window shows older items: the new one is in the log data and gets a
            # widget when the window comes back to the tail.
            self._show_counts()
            return
        widget = self._make(item)
        if widget is None:
            return
        # At the bottom, follow again even if a reveal or a scroll released the anchor there
        # (Textual takes it back only when the scroll position itself reaches the end).
        follow = self._follow and self.is_anchored_to_end
        self.mount(widget, before=self._later)
        if follow:
            super().anchor()
        # Prune in batches: one removal (and one relayout) per `page` appends
        # instead of one per append.
        if self.is_anchored_to_end:
            if len(self._widgets) > self.max_mounted + self.page:
                self._prune_oldest(len(self._widgets) - self.max_mounted)
            elif self._mounted_weight() > self.max_chars * 3 // 2:
                self._prune_oldest(self._tail_start() - self._first)

    @property
    def is_anchored_to_end(self) -> bool:
        # A log that fits is at its end. Textual anchors a short log with scroll_y below 0 (its content
        # sits at the bottom), so a distance to max_scroll_y would say "scrolled up" there.
        return self._at_end(slack=2)

    @property
    def follows_end(self) -> bool:
        # At the very end (no slack): one wheel notch up (2 rows) lets go of Textual's anchor, and
        # rows changing height above would then move the text.
        return self._follow and self.is_mounted and self._at_end(slack=0)

    def _at_end(self, slack: int) -> bool:
        """Whether the view shows the end of the conversation, give or take `slack` rows (not mounted:
        yes, unless the window was moved back)."""
        if self._end is not None:
            return False  # the bottom of an older window is not the end of the conversation
        return not self.is_mounted or self.max_scroll_y == 0 or self.scroll_y >= self.max_scroll_y - slack

    def anchor(self, anchor: bool = True) -> None:
        """Follow the end of the conversation (sending a prompt does this), bringing the window back to it."""
        self._follow = anchor
        if anchor and self._end is not None and self.is_mounted:
            self._show_window(self._tail_start(), None)
        super().anchor(anchor)

    async def update_item(self, item: Item) -> None:
        widget = self._widgets.get(item.id)
        if widget is not None:
            result = widget.refresh_from(item)  # type: ignore[attr-defined]  # every item widget has it (no common base)
            if result is not None:  # a command's Markdown output is rebuilt asynchronously
                await result

    async def append_text(self, item: Item, text: str) -> None:
        widget = self._widgets.get(item.id)
        if isinstance(widget, (AssistantText, ThinkingBlock)):
            widget.append_text(text)

    async def show_tail(self) -> None:
        """Show the newest page again after the log lost items (a rewind), following its end."""
        for pending in self._show_window(self._tail_start(), None):
            await pending
        self.anchor()

    def widget_for_item(self, item_id: str) -> Widget | None:
        return self._widgets.get(item_id)

    # -- the window ----------------------------------------------------------------------
    def _show_window(self, start: int, end: int | None) -> list[Awaitable[Any]]:
        """Replace the mounted items with `items[start:end]` (`end` None: up to the newest).

        Returns the removal and the mounting, for callers that can wait for them.
        """
        items = self.log_data.items
        old = list(self._widgets.values())
        self._widgets.clear()
        pending: list[Awaitable[Any]] = [self.remove_children(old)] if old else []
        self._first = start
        self._end = end if end is not None and end < len(items) else None
        widgets = self._make_range(start, self.window[1])
        self._show_counts()
        self._away_from_tail()
        if widgets:
            pending.append(self.mount_all(widgets, before=self._later))
        return pending

    def _away_from_tail(self) -> None:
        if self._end is not None:
            # Textual's anchor would hold the view at this window's bottom and skip the pages
            # loaded below it; it is taken again at the tail (`_back_at_tail`).
            super().anchor(False)

    def _back_at_tail(self) -> None:
        if self._end is None and self._follow and not self.is_anchored and self.scroll_y >= self.max_scroll_y:
            super().anchor()

    def _prune_oldest(self, count: int) -> None:
        """Drop the widgets of the window's first items (they scrolled far above the view)."""
        items = self.log_data.items
        doomed: list[Widget] = []
        index, end = self._first, self.window[1]
        while len(doomed) < count and index < end:
            widget = self._widgets.pop(items[index].id, None)
            if widget is not None:
                doomed.append(widget)
            index += 1
        self._first = index
        if doomed:
            self.remove_children(doomed)
        self._show_counts()

    def _prune_newest(self, count: int) -> None:
        """Drop the widgets of the window's last items (the reader went far back)."""
        items = self.log_data.items
        doomed: list[Widget] = []
        end = self.window[1]
        while len(doomed) < count and end > self._first:
            widget = self._widgets.pop(items[end - 1].id, None)
            if widget is not None:
                doomed.append(widget)
            end -= 1
        self._end = end if end < len(items) else None
        if doomed:
            self.remove_children(doomed)
        self._show_counts()
        self._away_from_tail()

    def _too_many(self) -> int:
        """How many widgets to drop to get back to `max_mounted` (0 until a page over it)."""
        extra = len(self._widgets) - self.max_mounted
        return extra if extra > self.page else 0

    def _extend_up(self, start: int) -> list[Awaitable[Any]]:
        widgets = self._make_range(start, self._first)
        self._first = start
        self._show_counts()
        return [self.mount_all(widgets, after=self._marker)] if widgets else []

    def _extend_down(self, end: int) -> list[Awaitable[Any]]:
        widgets = self._make_range(self.window[1], end)
        self._end = end if end < len(self.log_data.items) else None
        self._show_counts()
        return [self.mount_all(widgets, before=self._later)] if widgets else []

    def show_earlier(self) -> int:
        """Mount up to a page of older items above the current ones; return how many.

        The view stays on what the reader was looking at (see `PlaceKeepingScroll`);
        a window grown a page past `max_mounted` drops its newest items.
        """
        if self._first == 0:
            return 0
        before = len(self._widgets)
        self._extend_up(self._back_from(self._first, self.page, self.max_chars // 2))
        added = len(self._widgets) - before
        if self._too_many():
            self._prune_newest(self._too_many())
        return added

    def show_later(self) -> int:
        """Mount up to a page of the items after the window; return how many."""
        if self._end is None:
            return 0
        before = len(self._widgets)
        self._extend_down(min(len(self.log_data.items), self._end + self.page))
        added = len(self._widgets) - before
        if self._too_many():
            self._prune_oldest(self._too_many())
        return added

    async def reveal(self, item_id: str) -> Widget | None:
        """The widget of `item_id`, moving the window to it if needed.

        A target within a page of the window extends it; a farther one replaces it by
        about `max_mounted` items around the target, so the cost does not depend on how
        far back the target is.
        """
        widget = self._widgets.get(item_id)
        if widget is not None:
            return widget
        items = self.log_data.items
        index = next((i for i in range(len(items) - 1, -1, -1) if items[i].id == item_id), None)
        first, end = self.window
        if index is None or first <= index < end:
            return None  # not in this log, or an item that has no widget
        if first - self.page <= index < first:
            pending = self._extend_up(index)
            if self._too_many():
                self._prune_newest(self._too_many())
        elif end <= index < end + self.page:
            pending = self._extend_down(index + 1)
            if self._too_many():
                self._prune_oldest(self._too_many())
        else:
            start = max(0, min(index - self.max_mounted // 2, len(items) - self.max_mounted))
            pending = self._show_window(start, start + self.max_mounted)
        for awaitable in pending:
            await awaitable
        return self._widgets.get(item_id)

    def scroll_to_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> bool:
        # A widget just mounted by `reveal` may not be arranged at the refresh the caller waited
        # for (answers lay out in one pass now, so no later relayout comes to the rescue):
        # scroll once it has a place.
        if widget.is_mounted and not widget.region and self._scroll_retries < 5:
            self._scroll_retries += 1
            self.call_after_refresh(self.scroll_to_widget, widget, *args, **kwargs)
            return False
        self._scroll_retries = 0
        return super().scroll_to_widget(widget, *args, **kwargs)

    # -- the reader moving -----------------------------------------------------------------
    @on(Click, ".earlier-marker")
    def _clicked_marker(self) -> None:
        self.show_earlier()

    @on(Click, ".later-marker")
    def _clicked_later(self) -> None:
        self.show_later()

    def has_earlier(self) -> bool:
        return self._first > 0

    def has_later(self) -> bool:
        return self._end is not None

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)  # which loads pages at the edges
        if self._end is None:
            self._back_at_tail()
            if self.is_anchored_to_end and self._too_many():
                # Back at the bottom after reading history: drop what scrolled far away.
                self.call_after_refresh(self._prune_oldest, len(self._widgets) - self.max_mounted)

    def action_scroll_end(self) -> None:
        """End: the newest item, wherever the window is."""
        if self._end is not None:
            self._show_window(self._tail_start(), None)
        if self._follow:
            super().anchor()
        else:
            self.scroll_end(animate=False)

    def action_scroll_home(self) -> None:
        """Home: the first item of the conversation."""
        if self._first > 0:
            self._show_window(0, min(len(self.log_data.items), self.max_mounted))
        self.scroll_home(animate=False)

    def watch_now(self) -> None:
        self.tick()

    def tick(self) -> None:
        for widget in self._widgets.values():
            if isinstance(widget, ToolCard):
                widget.tick()


def _warm_up() -> None:
    # In the worker thread: loading the Markdown renderer (~45 ms, see markdown_part.py) is part of it.
    from claude_tui.ui.render.markdown_lines import warm_up

    warm_up()
