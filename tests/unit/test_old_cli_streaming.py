"""Streaming on every supported CLI: no block shows twice, whatever ids the CLI sends.

Stream events carry `api_message_id` only from CLI 2.1.295 on; older ones (recorded from
2.0.77 and 2.1.290 in tests/fixtures) name the response only in `message_start`. Every
final `assistant` block must complete the item that streamed it, never add a second one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_tui.protocol import decode_line, decode_obj
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import TextItem, ThinkingItem, ToolItem, ToolState

FIXTURES = Path(__file__).parent.parent / "fixtures"
CASES = [(version, name) for version in ("2.0.77", "2.1.290", "2.1.330", "2.1.332")
         for name in ("text", "thinking", "bash-allow", "bash-deny", "edit-allow", "ask-single")
         if (FIXTURES / f"claude-code-{version}" / f"{name}.stdout.ndjson").exists()]


def lines(version: str, name: str) -> list[str]:
    path = FIXTURES / f"claude-code-{version}" / f"{name}.stdout.ndjson"
    return [line for line in path.read_text().splitlines() if line.strip()]


def final_blocks(raw_lines: list[str]) -> list[tuple[str, str]]:
    """(kind, text or tool id) of every block the CLI printed complete, main thread only."""
    blocks = []
    for line in raw_lines:
        message = json.loads(line)
        if message.get("type") != "assistant" or message.get("parent_tool_use_id"):
            continue
        for block in message["message"]["content"]:
            if block["type"] == "text":
                blocks.append(("text", block["text"]))
            elif block["type"] == "thinking":
                blocks.append(("thinking", block["thinking"]))
            elif block["type"] == "tool_use":
                blocks.append(("tool", block["id"]))
    return blocks


def shown(conversation: Conversation) -> list[tuple[str, str]]:
    items = []
    for item in conversation.items:
        if isinstance(item, TextItem):
            items.append(("text", item.text))
        elif isinstance(item, ThinkingItem):
            items.append(("thinking", item.text))
        elif isinstance(item, ToolItem):
            items.append(("tool", item.tool_use_id))
    return items


def play(raw_lines: list[str]) -> Conversation:
    conversation = Conversation()
    for line in raw_lines:
        conversation.apply(decode_line(line))
    return conversation


def test_the_old_recordings_really_lack_api_message_id() -> None:
    """The premise: the recordings are what an old CLI prints (no id on stream events)."""
    for version in ("2.0.77", "2.1.290"):
        events = [json.loads(x) for x in lines(version, "text") if '"stream_event"' in x]
        assert events and not any("api_message_id" in e for e in events)
    assert any("api_message_id" in x for x in lines("2.1.332", "text"))


@pytest.mark.parametrize(("version", "name"), CASES)
def test_every_block_shows_once(version: str, name: str) -> None:
    raw_lines = lines(version, name)
    conversation = play(raw_lines)
    expected = final_blocks(raw_lines)
    assert expected, "the recording has assistant content"
    assert shown(conversation) == expected
    for item in conversation.items:
        if isinstance(item, (TextItem, ThinkingItem)):
            assert not item.streaming
        if isinstance(item, ToolItem):
            assert item.state is not ToolState.STREAMING, item  # the extra card stuck at "…"


def _strip_ids(message: dict) -> dict:
    message.pop("api_message_id", None)
    event = message.get("event")
    if isinstance(event, dict) and event.get("type") == "message_start":
        event["message"].pop("id", None)
    return message


@pytest.mark.parametrize("name", ["text", "thinking", "bash-allow", "edit-allow"])
def test_without_any_id_blocks_confirm_in_order(name: str) -> None:
    """A CLI that names the response nowhere in the stream: the final blocks confirm by order."""
    raw_lines = lines("2.0.77", name)
    conversation = Conversation()
    for line in raw_lines:
        conversation.apply(decode_obj(_strip_ids(json.loads(line))))
    assert shown(conversation) == final_blocks(raw_lines)


def test_a_new_response_does_not_inherit_the_previous_id() -> None:
    """message_start resets the id: a response whose start names none is not filed under the last one."""
    conversation = Conversation()

    def stream(event: dict, **extra: object) -> None:
        conversation.apply(decode_obj({"type": "stream_event", "event": event, "session_id": "s",
                                       "parent_tool_use_id": None, **extra}))

    def final(message_id: str, text: str) -> None:
        conversation.apply(decode_obj({"type": "assistant", "session_id": "s", "parent_tool_use_id": None,
                                       "message": {"id": message_id, "role": "assistant", "model": "m",
                                                   "content": [{"type": "text", "text": text}]}}))

    for message_id, text in (("msg_a", "one"), (None, "two")):
        stream({"type": "message_start", "message": {"id": message_id, "content": []}})
        stream({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
        stream({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}})
        final(message_id or "msg_b", text)
        stream({"type": "content_block_stop", "index": 0})
    assert shown(conversation) == [("text", "one"), ("text", "two")]
