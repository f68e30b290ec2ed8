"""`changes.compact`: a batch of CLI lines applied whole, then drawn once, draws what line-by-line did.

A model of the widgets stands in for the chat log: an added item's widget is made from the item as it
is when drawn, a delta appends, a change rebuilds a finished text. Every recording of the real CLI is
cut into batches of every size the connection makes (1 to 256 lines); drawn after each batch, the
model must hold each item's text exactly, never a delta twice.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_tui.protocol.decode import decode_obj
from claude_tui.session import changes as ch
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import TextItem, ThinkingItem, ToolItem
from tests.conftest import FIXTURES

RECORDINGS = sorted(path.name.removesuffix(".stdout.ndjson") for path in FIXTURES.glob("*.stdout.ndjson"))


class Widgets:
    """What the chat log and the agent transcripts keep for each item, drawn the way they draw it."""

    def __init__(self) -> None:
        self.text: dict[tuple[str | None, str], str] = {}

    def draw(self, changes: list[ch.Change]) -> None:
        for change in changes:
            if isinstance(change, ch.ItemAdded) and isinstance(change.item, (TextItem, ThinkingItem)):
                self.text[(change.scope, change.item.id)] = change.item.text
            elif isinstance(change, ch.TextAppended):
                self.text[(change.scope, change.item.id)] += change.text
            elif isinstance(change, ch.ItemChanged):
                item = change.item
                if isinstance(item, (TextItem, ThinkingItem)) and not item.streaming:
                    self.text[(change.scope, item.id)] = item.text  # AssistantText.refresh_from


def _lines(name: str) -> list[object]:
    return [decode_obj(json.loads(line)) for line in (FIXTURES / f"{name}.stdout.ndjson").read_text().splitlines()
            if line.strip()]


def _items(conversation: Conversation) -> dict[tuple[str | None, str], str]:
    return {(log.scope, item.id): item.text for log in conversation.logs for item in log.items
            if isinstance(item, (TextItem, ThinkingItem))}


@pytest.mark.parametrize("name", RECORDINGS)
@pytest.mark.parametrize("size", [1, 2, 7, 64, 256])
def test_a_batch_drawn_once_holds_each_text_once(name: str, size: int) -> None:
    lines = _lines(name)
    conversation = Conversation()
    widgets = Widgets()
    for start in range(0, len(lines), size):
        changes: list[ch.Change] = []
        for line in lines[start:start + size]:
            changes += conversation.apply(line)
        widgets.draw(ch.compact(changes))
        # Streaming or not, after each batch the widgets show what the conversation holds.
        expected = _items(conversation)
        assert {key: widgets.text[key] for key in expected} == expected


def test_without_compact_the_first_deltas_show_twice() -> None:
    """The bug `compact` exists for: the test above fails without it."""
    lines = _lines("long-stream")
    conversation = Conversation()
    widgets = Widgets()
    changes: list[ch.Change] = []
    for line in lines[:40]:
        changes += conversation.apply(line)
    widgets.draw(changes)
    assert widgets.text != _items(conversation)


def test_adjacent_deltas_become_one_and_status_is_drawn_once() -> None:
    item = TextItem(text="abc", streaming=True)
    other = TextItem(text="x", streaming=True)
    out = ch.compact([ch.TextAppended(item, "a"), ch.StatusChanged(), ch.TextAppended(item, "b"),
                      ch.TextAppended(item, "c"), ch.TextAppended(other, "x"), ch.StatusChanged(),
                      ch.TasksChanged()])
    assert out == [ch.TextAppended(item, "a"), ch.StatusChanged(), ch.TextAppended(item, "bc"),
                   ch.TextAppended(other, "x"), ch.TasksChanged()]


def test_an_item_changed_several_times_is_redrawn_once_where_it_last_changed() -> None:
    tool = ToolItem(tool_use_id="t1", name="Bash")
    text = TextItem(text="hi")
    out = ch.compact([ch.ItemChanged(tool), ch.ItemAdded(text), ch.ItemChanged(tool),
                      ch.PermissionClosed("r1", "answered"), ch.ItemChanged(tool, scope="agent")])
    assert out == [ch.ItemAdded(text), ch.ItemChanged(tool), ch.PermissionClosed("r1", "answered"),
                   ch.ItemChanged(tool, scope="agent")]


def test_recordings_are_found() -> None:
    assert len(RECORDINGS) >= 20 and Path(FIXTURES).is_dir()
