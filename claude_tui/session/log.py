"""One agent's log of items (the main conversation, or a subagent's)."""

from __future__ import annotations

from collections import deque
from typing import Any

from claude_tui.session.changes import Change, ItemAdded
from claude_tui.session.items import Item, ToolItem


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
