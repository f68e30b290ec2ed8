"""Hook runs land on the tool call or the turn they ran for (`session/hooks.py`).

The lines are the real CLI's (2.1.330, `--include-hook-events`, a PreToolUse and a PostToolUse hook on
Bash and a UserPromptSubmit hook), in the order it sent them; only ids and the command are shortened."""

from __future__ import annotations

from typing import Any

from claude_tui.protocol import decode_line, encode_line
from claude_tui.session.conversation import Conversation
from claude_tui.session.hooks import hook_words
from claude_tui.session.items import HOOK_OUTPUT_CHARS, NoteItem, NoteKind, ToolItem

SID = "f2d20908-fc70-4ffd-91d0-3c84e9c46018"


def hook(subtype: str, hook_id: str, name: str, **fields: Any) -> dict[str, Any]:
    return {"type": "system", "subtype": subtype, "hook_id": hook_id, "hook_name": name,
            "hook_event": name.partition(":")[0], "uuid": f"u-{hook_id}-{subtype}", "session_id": SID, **fields}


def ended(hook_id: str, name: str, stdout: str, stderr: str = "", exit_code: int = 0,
          outcome: str = "success") -> dict[str, Any]:
    return hook("hook_response", hook_id, name, output=stdout + stderr, stdout=stdout, stderr=stderr,
                exit_code=exit_code, outcome=outcome)


def tool_use(tool_id: str, name: str = "Bash") -> dict[str, Any]:
    return {"type": "assistant", "parent_tool_use_id": None, "session_id": SID, "uuid": f"a-{tool_id}",
            "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
                        "content": [{"type": "tool_use", "id": tool_id, "name": name,
                                     "input": {"command": "echo hello-from-bash"}}],
                        "stop_reason": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}


def tool_result(tool_id: str) -> dict[str, Any]:
    return {"type": "user", "parent_tool_use_id": None, "session_id": SID, "uuid": f"r-{tool_id}",
            "message": {"role": "user", "content": [{"tool_use_id": tool_id, "type": "tool_result",
                                                     "content": "hello-from-bash", "is_error": False}]}}


def apply(conversation: Conversation, *lines: dict[str, Any]) -> None:
    for line in lines:
        conversation.apply(decode_line(encode_line(line)))


def test_a_tools_hooks_go_on_its_card_and_the_turns_on_the_turn() -> None:
    c = Conversation()
    apply(c, hook("hook_started", "h1", "UserPromptSubmit"), ended("h1", "UserPromptSubmit", "submit-hook\n"),
          tool_use("toolu_1"),
          hook("hook_started", "h2", "PreToolUse:Bash"),
          ended("h2", "PreToolUse:Bash", "checked-by-hook\n", "warn\n"),
          hook("hook_started", "h3", "PostToolUse:Bash"), ended("h3", "PostToolUse:Bash", "post-hook\n"),
          tool_result("toolu_1"))
    tool = next(i for i in c.main.items if isinstance(i, ToolItem))
    assert [(h.event, h.exit_code, h.output, h.running) for h in tool.hooks] == [
        ("PreToolUse", 0, "checked-by-hook\nwarn\n", False), ("PostToolUse", 0, "post-hook\n", False)]
    assert hook_words(tool.hooks[0]) == "PreToolUse hook · exit 0 · checked-by-hook"
    notes = [i for i in c.main.items if isinstance(i, NoteItem) and i.title == "Hook"]
    assert [(n.text, n.kind) for n in notes] == [("UserPromptSubmit hook · exit 0 · submit-hook", NoteKind.INFO)]


def test_a_running_hook_shows_running_then_its_end() -> None:
    c = Conversation()
    apply(c, tool_use("toolu_1"), hook("hook_started", "h1", "PreToolUse:Bash"))
    tool = c.main.tools["toolu_1"]
    assert hook_words(tool.hooks[0]) == "PreToolUse hook · running"
    apply(c, hook("hook_progress", "h1", "PreToolUse:Bash", stdout="half", stderr="", output="half"))
    assert tool.hooks[0].output == "half" and tool.hooks[0].running
    apply(c, ended("h1", "PreToolUse:Bash", "", "blocked: no rm\n", exit_code=2, outcome="error"))
    assert hook_words(tool.hooks[0]) == "PreToolUse hook · exit 2 · blocked: no rm"


def test_two_calls_of_one_tool_get_their_own_hooks_in_order() -> None:
    c = Conversation()
    apply(c, tool_use("toolu_1"), tool_use("toolu_2"),
          hook("hook_started", "h1", "PreToolUse:Bash"), ended("h1", "PreToolUse:Bash", "first\n"),
          hook("hook_started", "h2", "PreToolUse:Bash"), ended("h2", "PreToolUse:Bash", "second\n"))
    assert [h.output for h in c.main.tools["toolu_1"].hooks] == ["first\n"]
    assert [h.output for h in c.main.tools["toolu_2"].hooks] == ["second\n"]


def test_a_failed_turn_hook_is_an_error_note_and_output_is_bounded() -> None:
    c = Conversation()
    apply(c, ended("h1", "Stop", "x" * (HOOK_OUTPUT_CHARS * 5), exit_code=1, outcome="error"))
    note = next(i for i in c.main.items if isinstance(i, NoteItem))
    assert note.kind is NoteKind.ERROR and note.text.startswith("Stop hook · exit 1 · xxx")
    assert len(note.text) < 300


def test_a_tool_hook_without_its_call_is_a_note() -> None:
    c = Conversation()
    apply(c, hook("hook_started", "h1", "PreToolUse:Read"), ended("h1", "PreToolUse:Read", "late\n"))
    assert [i.text for i in c.main.items if isinstance(i, NoteItem)] == ["PreToolUse hook · exit 0 · late"]
