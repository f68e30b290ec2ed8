"""A handler that fails half-way: what it added is still shown, and a failed result ends the turn."""

from __future__ import annotations

import pytest

from claude_tui import protocol as p
from claude_tui.protocol import decode_line
from claude_tui.session import changes as ch
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, NoteKind
from claude_tui.session.status import Activity
from claude_tui.session.streaming import Streaming
from claude_tui.session.turns import Turns
from tests.conftest import recording


def test_items_added_before_a_failure_are_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    conversation = Conversation()

    def half_way(self: Streaming, message: p.AssistantMessage) -> list[ch.Change]:
        conversation.add_note("added before the failure")  # in the log, its change not yet returned...
        raise RuntimeError("odd shape")

    monkeypatch.setattr(Streaming, "on_assistant", half_way)
    announced: list[ch.Change] = []
    for line in recording("text"):
        announced += conversation.apply(decode_line(line))
    added = {id(change.item) for change in announced if isinstance(change, ch.ItemAdded)}
    missing = [item for item in conversation.items if id(item) not in added]
    assert not missing, f"in the log but never shown: {missing}"
    assert any(isinstance(i, NoteItem) and i.text == "added before the failure" for i in conversation.items)
    notes = [i for i in conversation.items if isinstance(i, NoteItem) and i.kind is NoteKind.ERROR]
    assert notes and "could not be shown" in notes[0].text


def test_a_failed_result_still_ends_the_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    conversation = Conversation()

    def broken(self: Turns, message: p.ResultMessage) -> list[ch.Change]:
        raise RuntimeError("odd result")

    monkeypatch.setattr(Turns, "on_result", broken)
    for line in recording("text"):
        conversation.apply(decode_line(line))
        if conversation.status.turn_running:
            running_seen = True
    assert running_seen
    assert conversation.status.activity is Activity.IDLE
