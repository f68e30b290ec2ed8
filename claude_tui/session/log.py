"""One agent's log of items (the main conversation, or a subagent's), and the logs of a conversation."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from claude_tui.session.changes import Change, ItemAdded, ItemChanged
from claude_tui.session.items import Item, NoteItem, NoteKind, TextItem, ThinkingItem, ToolItem, ToolState


def as_int(value: Any) -> int:
    """An int from untrusted JSON (a block index, a retry count); 0 for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return 0
    try:
        return int(value)
    except (ValueError, OverflowError):
        return 0


class Log:
    """The items of one agent's conversation (the main one, or a subagent's)."""

    def __init__(self, scope: str | None) -> None:
        self.scope = scope
        self.items: list[Item] = []
        self.tools: dict[str, ToolItem] = {}
        # (message id, block index) -> the item a stream is filling.
        self.streaming: dict[tuple[str, int], Item] = {}
        # Items streamed but not yet confirmed by their `assistant` message, per message id.
        self.unconfirmed: dict[str, deque[Item]] = {}
        # The id of the response streaming now, from its `message_start` (for stream events that
        # carry no `api_message_id`: every CLI before 2.1.295).
        self.stream_message_id = ""

    def add(self, item: Item, changes: list[Change]) -> Item:
        self.items.append(item)
        if isinstance(item, ToolItem):
            self.tools[item.tool_use_id] = item
        changes.append(ItemAdded(item, self.scope))
        return item

    def note(self, text: str, kind: NoteKind, title: str = "") -> list[Change]:
        changes: list[Change] = []
        self.add(NoteItem(kind=kind, text=text, title=title), changes)
        return changes

    def cut(self, item: Item) -> list[Item]:
        """Drop `item` and everything after it (a rewind); returns what was dropped."""
        try:
            index = next(i for i, own in enumerate(self.items) if own is item)
        except StopIteration:
            return []
        dropped, self.items = self.items[index:], self.items[:index]
        for gone in dropped:
            if isinstance(gone, ToolItem) and self.tools.get(gone.tool_use_id) is gone:
                del self.tools[gone.tool_use_id]
        self.streaming.clear()
        self.unconfirmed.clear()
        return dropped

    def stop(self, changes: list[Change]) -> None:
        """The process is gone: unfinished tools were cut off, streams end, nothing gets confirmed."""
        for tool in self.tools.values():
            if not tool.finished:
                tool.state = ToolState.INTERRUPTED
                changes.append(ItemChanged(tool, self.scope))
        for item in self.streaming.values():
            if isinstance(item, (TextItem, ThinkingItem)):
                item.streaming = False
                changes.append(ItemChanged(item, self.scope))
        self.streaming.clear()
        # A dead process never confirms what it streamed; left here, a later
        # message reusing the id would overwrite these items' text.
        self.unconfirmed.clear()


class Logs:
    """The main log and one log per subagent (keyed by its Task call's tool_use_id)."""

    def __init__(self) -> None:
        self.main = Log(None)
        self.subagents: dict[str, Log] = {}

    def __iter__(self) -> Iterator[Log]:
        yield self.main
        yield from self.subagents.values()

    def log_for(self, scope: str | None) -> Log:
        if scope is None:
            return self.main
        log = self.subagents.get(scope)
        if log is None:
            log = self.subagents[scope] = Log(scope)
        return log

    def tool(self, tool_use_id: str) -> ToolItem | None:
        found = self.main.tools.get(tool_use_id)
        if found is None:
            for log in self.subagents.values():
                if tool_use_id in log.tools:
                    return log.tools[tool_use_id]
        return found

    def scope_of(self, tool: ToolItem) -> str | None:
        """The subagent whose log holds `tool` (None for the main log)."""
        for scope, log in self.subagents.items():
            if tool.tool_use_id in log.tools:
                return scope
        return None

    def note(self, text: str, kind: NoteKind = NoteKind.INFO, title: str = "") -> list[Change]:
        """A note in the main log."""
        return self.main.note(text, kind, title)
