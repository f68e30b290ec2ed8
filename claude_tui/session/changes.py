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


def compact(changes: list[Change]) -> list[Change]:
    """The changes of a whole batch of CLI lines, for drawing once after all of them are applied.

    A change names a live item, and drawing reads the item as it is *then*: a widget made for an
    `ItemAdded` already holds every delta the batch went on to append, so those `TextAppended`
    are dropped (drawn again, the first words showed twice). Adjacent deltas to one item become
    one append, and an item changed several times is redrawn once, where it last changed: one
    pass over the widgets per batch instead of one per line (a 2,000-delta answer arrives in a
    few dozen batches).
    """
    added: set[tuple[str | None, str]] = set()
    last_change: dict[tuple[str | None, str], int] = {}
    for index, change in enumerate(changes):
        if isinstance(change, ItemChanged):
            last_change[(change.scope, change.item.id)] = index
    out: list[Change] = []
    flagged: set[type] = set()
    for index, change in enumerate(changes):
        if isinstance(change, ItemAdded):
            added.add((change.scope, change.item.id))
        elif isinstance(change, TextAppended):
            key = (change.scope, change.item.id)
            if key in added:
                continue
            previous = out[-1] if out else None
            if isinstance(previous, TextAppended) and (previous.scope, previous.item.id) == key:
                out[-1] = TextAppended(change.item, previous.text + change.text, change.scope)
                continue
        elif isinstance(change, ItemChanged):
            if last_change[(change.scope, change.item.id)] != index:
                continue
        elif isinstance(change, (StatusChanged, TasksChanged)):
            if type(change) in flagged:
                continue  # drawn once per batch whatever their number (the drawer redraws the bar, the board)
            flagged.add(type(change))
        out.append(change)
    return out
