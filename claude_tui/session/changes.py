"""What `Conversation.apply` reports back, so the UI can update only what changed."""

from __future__ import annotations

from dataclasses import dataclass

from claude_tui.session.items import Item
from claude_tui.session.permissions import PermissionRequest


@dataclass(frozen=True)
class ItemAdded:
    item: Item
    scope: str | None = None
    """None for the main conversation, else the Task tool_use_id of a subagent."""


@dataclass(frozen=True)
class ItemChanged:
    item: Item
    scope: str | None = None


@dataclass(frozen=True)
class TextAppended:
    """A streamed delta; cheaper for the UI than re-rendering the whole item."""

    item: Item
    text: str
    scope: str | None = None


@dataclass(frozen=True)
class StatusChanged:
    pass


@dataclass(frozen=True)
class TasksChanged:
    pass


@dataclass(frozen=True)
class PermissionAsked:
    request: PermissionRequest


@dataclass(frozen=True)
class PermissionClosed:
    request_id: str
    reason: str
    """"cancelled" by the CLI, "answered", or "exited"."""


@dataclass(frozen=True)
class TurnEnded:
    subtype: str
    is_error: bool
    cost_delta: float


Change = (ItemAdded | ItemChanged | TextAppended | StatusChanged | TasksChanged | PermissionAsked | PermissionClosed
          | TurnEnded)
