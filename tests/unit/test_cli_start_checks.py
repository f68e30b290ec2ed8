"""What the session checks when a CLI starts: its permission mode, its version, and system messages it
does not know (recorded lines from 2.1.290 and 2.1.332)."""

from __future__ import annotations

import json
from pathlib import Path

from claude_tui.protocol import decode_line, decode_obj
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, NoteKind

FIXTURES = Path(__file__).parent.parent / "fixtures"


def lines(version: str, name: str) -> list[str]:
    path = FIXTURES / f"claude-code-{version}" / f"{name}.stdout.ndjson"
    return [line for line in path.read_text().splitlines() if line.strip()]


def play(conversation: Conversation, raw_lines: list[str]) -> None:
    for line in raw_lines:
        message = json.loads(line)
        if message.get("type") == "control_response" and message["response"].get("request_id", "").startswith(
                "req_initialize"):
            conversation.apply_initialize(message["response"]["response"])
        else:
            conversation.apply(decode_line(line))


def notes(conversation: Conversation, kind: NoteKind | None = None) -> list[NoteItem]:
    return [i for i in conversation.items if isinstance(i, NoteItem) and (kind is None or i.kind is kind)]


def test_a_cli_running_another_mode_than_asked_is_a_warning() -> None:
    """2.1.290 started without --permission-mode runs in auto: said loudly, once."""
    conversation = Conversation().expect_mode(None)
    assert conversation.status.permission_mode == "default"
    play(conversation, lines("2.1.290", "no-mode-flag"))
    warnings = [n for n in notes(conversation, NoteKind.ERROR) if n.title == "Permission mode differs"]
    assert len(warnings) == 1 and "'auto'" in warnings[0].text and "'default'" in warnings[0].text
    assert conversation.status.permission_mode == "auto"


def test_the_asked_mode_reported_back_says_nothing() -> None:
    for version, name in (("2.1.290", "bash-allow"), ("2.0.77", "bash-allow"), ("2.1.332", "text")):
        conversation = Conversation().expect_mode("default")
        play(conversation, lines(version, name))
        assert not [n for n in notes(conversation) if n.title == "Permission mode differs"], version


def test_a_switch_the_cli_confirmed_is_not_a_difference() -> None:
    conversation = Conversation().expect_mode("default")
    conversation.mode_switched("acceptEdits")  # Shift+Tab before the first turn
    conversation.apply(decode_obj({"type": "system", "subtype": "init", "permissionMode": "acceptEdits",
                                   "session_id": "s"}))
    assert not notes(conversation)
    # `manual` is what newer CLIs call the ask-each-time mode
    other = Conversation().expect_mode("default")
    other.apply_initialize({"current_permission_mode": "manual"})
    assert not notes(other)


def test_versions_in_range_say_nothing_outside_a_note_once() -> None:
    inside = Conversation()
    play(inside, lines("2.0.77", "text"))  # its initialize names no version: system/init does
    assert inside.status.cli_version == "2.0.77"
    assert not notes(inside)
    old = Conversation()
    old.apply_initialize({}, installed_version="1.0.128")
    old.apply(decode_obj({"type": "system", "subtype": "init", "claude_code_version": "1.0.128",
                          "session_id": "s"}))
    said = [n for n in notes(old) if n.title == "Claude Code version"]
    assert len(said) == 1 and "1.0.128" in said[0].text and "older" in said[0].text
    assert old.status.cli_version == "1.0.128"


def test_unknown_system_messages_become_notes() -> None:
    conversation = Conversation()
    play(conversation, lines("2.1.290", "text"))  # carries a system/informational message
    info = [n for n in notes(conversation, NoteKind.INFO) if "auto mode" in n.text]
    assert len(info) == 1
    for _ in range(2):
        conversation.apply(decode_obj({"type": "system", "subtype": "brand_new_thing", "session_id": "s"}))
    named = [n for n in notes(conversation) if "brand_new_thing" in n.text]
    assert len(named) == 1  # a wordless one is named once, not on every line
    conversation.apply(decode_obj({"type": "system", "subtype": "x", "content": "\x1b[31mred\x1b[0m alert"}))
    assert "\x1b" not in notes(conversation)[-1].text


def test_wordless_system_messages_say_what_happened_or_nothing() -> None:
    conversation = Conversation()
    conversation.apply(decode_obj({"type": "system", "subtype": "agents_killed", "session_id": "s", "uuid": "u"}))
    assert notes(conversation)[-1].text == "Claude Code stopped the background agents."
    before = len(conversation.items)
    conversation.apply(decode_obj({"type": "system", "subtype": "session_state_changed", "state": "idle"}))
    assert len(conversation.items) == before  # bookkeeping: nothing to read
