"""Finding text in a chat view's log (Ctrl+F, F3) and selecting a message (Ctrl+Up / F2).

A widget above the prompt, empty (no rows) until first used: then it mounts the find or the
select bar into itself. The bars' messages come here first; this marks the item found or
selected, scrolls the log to it, copies it or rewinds to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from textual import on
from textual.containers import Vertical
from textual.widget import Widget

from claude_tui.session.conversation import Conversation
from claude_tui.session.export import find_items
from claude_tui.session.items import UserItem
from claude_tui.ui.chat.transcript_tools import Copier, describe_item, item_by_id
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.panels.find_bar import FindBar
from claude_tui.ui.panels.prompt_input import PromptInput
from claude_tui.ui.panels.select_bar import SelectBar

FIND_CLASS = "-find-current"
SELECT_CLASS = "-selected"
FIND_CONTEXT_LINES = 2  # lines shown above a match found inside a long message


def line_showing(widget: Widget, needle: str) -> int | None:
    """The first of `widget`'s own lines showing `needle` (case-insensitive), as drawn; None if none does.

    Lines as drawn: a wrapped match (or one split by Markdown styling) is not found, and the
    caller keeps the message's top in view.
    """
    folded = needle.strip().casefold()
    if not folded:
        return None
    for y in range(widget.size.height):
        if folded in widget.render_line(y).text.casefold():
            return y
    return None


class LogNavigator(Vertical):
    DEFAULT_CSS = """
    LogNavigator {
        height: auto;
    }
    """

    def __init__(self, log: ChatLog, conversation: Conversation, prompt: PromptInput, copier: Copier,
                 rewind: Callable[[UserItem], None], id: str | None = "log-navigator") -> None:
        super().__init__(id=id)
        self.chat_log = log
        self.conversation = conversation
        self.prompt = prompt
        """Where the keys go back to when a bar closes."""
        self.copier = copier
        self.rewind = rewind
        """Rewind to before one of the user's prompts (select mode's `r`)."""

    # -- highlight + reveal -------------------------------------------------------------------
    async def reveal_item(self, item_id: str | None, css_class: str, needle: str = "") -> None:
        """Mark `item_id`'s widget and scroll to it; with `needle`, to its first line showing it."""
        log = self.chat_log
        for widget in log.query(f".{css_class}"):
            widget.remove_class(css_class)
        if item_id is None:
            return
        found = await log.reveal(item_id)
        if found is None:
            return
        found.add_class(css_class)
        log.call_after_refresh(self.scroll_to_match, found, needle)

    def scroll_to_match(self, widget: Widget, needle: str, top: bool = True, tries: int = 0) -> None:
        """Scroll to `widget` (its top, with `top`); in a message taller than the log, to its line showing `needle`."""
        log = self.chat_log
        if needle and not widget.size.height and widget.is_mounted and tries < 5:
            # Not laid out yet: its lines are unknown.
            log.call_after_refresh(self.scroll_to_match, widget, needle, top, tries + 1)
            return
        if top:
            log.scroll_to_widget(widget, animate=False, top=True)
        # A long answer's top can be hundreds of lines above the match: show the match.
        tall = widget.size.height > log.scrollable_content_region.height
        line = line_showing(widget, needle) if tall and widget.parent is log else None
        if line is not None:
            log.scroll_to(y=widget.virtual_region.y + max(0, line - FIND_CONTEXT_LINES), animate=False)

    # -- find ------------------------------------------------------------------------------------
    def find_bar(self) -> FindBar:
        bars = self.query_children(FindBar)
        if bars:
            return bars.first()
        bar = FindBar(search=lambda query: find_items(self.conversation.items, query))
        self.mount(bar, before=0)  # above the select bar, as when find came first
        return bar

    def find(self) -> None:
        bar = self.find_bar()
        self.call_after_refresh(bar.open)

    def find_at(self, query: str, turn: int | None = None) -> None:
        """Open find on ``query`` at its first match in ``turn`` (0-based; a session search hit's turn).

        Session search matches words, find matches the text: when the whole query is not in the
        log as typed, its longest word is looked for instead.
        """
        items = self.conversation.items
        words = re.findall(r"\w[\w.-]*", query)
        needle = query.strip()
        if not find_items(items, needle) and words:
            needle = max(words, key=len)
        found = set(find_items(items, needle))
        in_order: list[tuple[int, str]] = []  # (turn, id) of the matches, in log order
        prompts = -1
        for item in items:
            prompts += isinstance(item, UserItem)
            if item.id in found:
                in_order.append((prompts, item.id))
        target = next((item_id for at, item_id in in_order if turn is None or at >= turn),
                      in_order[0][1] if in_order else None)
        bar = self.find_bar()

        def show() -> None:
            bar.open(needle)
            if target is not None:
                bar.run_search(keep=target)

        self.call_after_refresh(show)

    def find_next(self) -> None:
        bar = self.find_bar()
        if bar.display and bar.find_text:
            bar.action_next()
        else:
            self.call_after_refresh(bar.open)

    def narrowed(self, item_id: str, needle: str) -> None:
        widget = self.chat_log.widget_for_item(item_id)
        if widget is not None:
            self.scroll_to_match(widget, needle, top=False)

    # -- message selection --------------------------------------------------------------------------
    def select(self) -> None:
        bars = self.query_children(SelectBar)
        bar = bars.first() if bars else None
        if bar is None:
            bar = SelectBar(describe=self._describe_id)
            self.mount(bar)
        ids = [item.id for item in self.conversation.items]
        self.call_after_refresh(bar.open, ids)

    def _describe_id(self, item_id: str) -> str:
        item = item_by_id(self.conversation, item_id)
        return describe_item(item) if item is not None else ""

    def close_selection(self) -> None:
        """The selection did its job: back to the prompt, with the end of the log in view."""
        for bar in self.query_children(SelectBar):
            if bar.display:
                bar.action_close()
        self.chat_log.anchor()

    # -- the bars' messages ----------------------------------------------------------------------
    @on(FindBar.Moved)
    async def _find_moved(self, message: FindBar.Moved) -> None:
        message.stop()
        await self.reveal_item(message.item_id, FIND_CLASS, message.bar.find_text)

    @on(FindBar.Narrowed)
    def _find_narrowed(self, message: FindBar.Narrowed) -> None:
        message.stop()
        self.narrowed(message.item_id, message.bar.find_text)

    @on(FindBar.Closed)
    async def _find_closed(self, message: FindBar.Closed) -> None:
        message.stop()
        await self.reveal_item(None, FIND_CLASS)
        self.prompt.focus()

    @on(SelectBar.Moved)
    async def _select_moved(self, message: SelectBar.Moved) -> None:
        message.stop()
        await self.reveal_item(message.item_id, SELECT_CLASS)

    @on(SelectBar.CopyRequested)
    def _select_copy(self, message: SelectBar.CopyRequested) -> None:
        message.stop()
        self.copier.item(message.item_id, message.what)

    @on(SelectBar.RewindRequested)
    def _select_rewind(self, message: SelectBar.RewindRequested) -> None:
        message.stop()
        item = item_by_id(self.conversation, message.item_id)
        if not isinstance(item, UserItem):
            self.notify("Select one of your prompts to rewind to before it.", severity="warning")
            return
        self.rewind(item)

    @on(SelectBar.Closed)
    async def _select_closed(self, message: SelectBar.Closed) -> None:
        message.stop()
        await self.reveal_item(None, SELECT_CLASS)
        self.prompt.focus()
