"""The conversation state machine, driven by what the real CLI printed."""

from __future__ import annotations

from typing import Any

import pytest

from claude_tui.protocol import decode_line
from claude_tui.session import changes as ch
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, NoteKind, TextItem, ThinkingItem, ToolItem, ToolState, UserItem
from claude_tui.session.status import Activity
from tests.conftest import recording


def play(name: str, conversation: Conversation | None = None) -> tuple[Conversation, list[object]]:
    conversation = conversation or Conversation()
    changes: list[object] = []
    for line in recording(name):
        changes += conversation.apply(decode_line(line))
    return conversation, changes


def kinds(conversation: Conversation) -> list[type]:
    return [type(item) for item in conversation.items]


def test_plain_text_streams_then_final_message_is_authoritative() -> None:
    conversation, changes = play("text")
    texts = [item for item in conversation.items if isinstance(item, TextItem)]
    assert len(texts) == 1
    assert texts[0].streaming is False
    final = [line for line in recording("text") if '"type": "assistant"' in line or '"type":"assistant"' in line]
    assert final, "recording has an assistant message"
    assert texts[0].text.strip()
    appended = "".join(c.text for c in changes if isinstance(c, ch.TextAppended))
    assert appended.strip() and texts[0].text.startswith(appended[:5])
    assert conversation.status.activity is Activity.IDLE
    assert conversation.status.cost_total > 0
    assert conversation.status.context_window == 1_000_000
    assert conversation.status.session_id


def test_thinking_block_then_text() -> None:
    conversation, _ = play("thinking")
    thinking = [i for i in conversation.items if isinstance(i, ThinkingItem)]
    assert thinking and thinking[0].text.startswith("Let me think")
    assert not thinking[0].streaming
    text = [i for i in conversation.items if isinstance(i, TextItem)]
    assert text[-1].text == "Thought about it: **42**. "


def test_bash_allow_tool_card_gets_result_and_permission_request() -> None:
    conversation, changes = play("bash-allow")
    asked = [c for c in changes if isinstance(c, ch.PermissionAsked)]
    assert len(asked) == 1
    request = asked[0].request
    assert request.tool_name == "Bash" and request.blocked_path.endswith("touched")
    assert len(request.suggestions) == 3
    tool = next(i for i in conversation.items if isinstance(i, ToolItem))
    assert tool.name == "Bash"
    assert tool.input["command"].startswith("touch ")
    assert tool.state is ToolState.DONE
    assert tool.structured["stdout"] == "hello-from-bash"


def test_bash_deny_marks_tool_denied() -> None:
    conversation, _ = play("bash-deny")
    tool = next(i for i in conversation.items if isinstance(i, ToolItem))
    assert tool.state in (ToolState.DENIED, ToolState.ERROR)
    assert tool.result_is_error


def test_edit_result_carries_structured_patch() -> None:
    conversation, _ = play("edit-allow")
    edit = next(i for i in conversation.items if isinstance(i, ToolItem) and i.name == "Edit")
    assert edit.structured["structuredPatch"][0]["lines"] == [" alpha", "-beta", "+BETA", " gamma"]


def test_interrupt_during_permission_cancels_and_marks() -> None:
    conversation, changes = play("interrupt-permission")
    closed = [c for c in changes if isinstance(c, ch.PermissionClosed)]
    assert closed and closed[0].reason == "cancelled"
    notes = [i for i in conversation.items if isinstance(i, NoteItem)]
    assert any(n.kind is NoteKind.INTERRUPT for n in notes)
    # An interrupt is not an error notice.
    assert not any(n.kind is NoteKind.ERROR for n in notes)
    assert conversation.permissions == {}


def test_max_turns_is_a_notice() -> None:
    conversation, _ = play("max-turns")
    notes = [i for i in conversation.items if isinstance(i, NoteItem) and i.kind is NoteKind.ERROR]
    assert notes and "maximum number of turns" in notes[0].text


def test_slash_cost_is_a_local_command_note() -> None:
    conversation, _ = play("slash-cost")
    notes = [i for i in conversation.items if isinstance(i, NoteItem)]
    assert any(n.kind is NoteKind.LOCAL_COMMAND and "cost" in n.text.lower() for n in notes)
    assert not any(isinstance(i, TextItem) for i in conversation.items)


def test_set_model_echo_is_a_note_not_a_prompt() -> None:
    conversation, _ = play("modes")
    assert not any(isinstance(i, UserItem) for i in conversation.items)
    assert conversation.status.permission_mode == "acceptEdits"
    assert any(isinstance(i, NoteItem) and "Set model" in i.text for i in conversation.items)


def test_subagent_messages_stay_out_of_the_main_log() -> None:
    conversation, _ = play("subagent")
    main_texts = [i.text for i in conversation.items if isinstance(i, TextItem)]
    assert "Subagent here, exploring. " not in main_texts
    assert "toolu_msg_21_1" in conversation.subagents
    sub = conversation.subagents["toolu_msg_21_1"]
    assert any(isinstance(i, TextItem) and "Subagent here" in i.text for i in sub.items)
    agent = next(iter(conversation.tasks.agents.values()))
    assert agent.status == "completed" and agent.description == "Explore tree"


def test_tasks_build_the_board() -> None:
    conversation, _ = play("tasks")
    board = conversation.tasks
    assert [t.subject for t in board.visible_tasks] == ["Read the code", "Fix the bug"]
    assert board.tasks["1"].status == "completed"
    assert board.tasks["2"].status == "in_progress"
    assert board.progress() == (1, 2)
    todo = next(i for i in conversation.items if isinstance(i, ToolItem) and i.name == "TodoWrite")
    assert todo.state is ToolState.ERROR


def test_queued_prompt_is_marked_until_its_turn_starts() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    conversation.add_user_prompt("first")
    conversation.add_user_prompt("second")
    users = [i for i in conversation.items if isinstance(i, UserItem)]
    assert [u.queued for u in users] == [False, True]
    lines = recording("text")  # one turn: the first prompt's
    for line in lines:
        conversation.apply(decode_line(line))
    # That turn's init arrived after "second" was queued: it must not take it for its own.
    assert users[1].queued is True
    assert conversation.status.activity is Activity.THINKING  # the CLI will start it next
    conversation.apply(decode_line(next(line for line in lines if '"subtype":"init"' in line)))
    assert users[1].queued is False  # the second turn's system/init picked it up


@pytest.mark.parametrize("name", ["ask-single", "ask-multi", "plan-exit", "write-create", "write-overwrite",
                                  "interrupt-stream", "long-stream", "untrusted-text", "resume", "slash-context"])
def test_every_recording_applies_without_error(name: str) -> None:
    conversation, _ = play(name)
    assert conversation.items
    assert conversation.status.activity is Activity.IDLE


def test_plan_request_carries_the_plan_text() -> None:
    _, changes = play("plan-exit")
    request = next(c.request for c in changes if isinstance(c, ch.PermissionAsked))
    assert request.tool_name == "ExitPlanMode"
    assert request.input == {}
    assert request.plan.strip()


def test_file_changes_are_collected_for_the_what_changed_panel() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    conversation.add_user_prompt("kw:edit the file")
    for line in recording("edit-allow"):
        conversation.apply(decode_line(line))
    files = conversation.changes.session
    assert [f.path for f in files] == ["/home/user/project/a.txt"]
    assert (files[0].added, files[0].removed) == (1, 1)
    assert conversation.changes.turn and conversation.changes.turn[0].path == files[0].path
    conversation.add_user_prompt("next")
    assert conversation.changes.turn == [] and len(conversation.changes.session) == 1
    # The card shows the very diff the panel counts: built once, not again per render.
    tool = next(i for i in conversation.items if isinstance(i, ToolItem) and i.name == "Edit")
    assert tool.diff is not None and tool.diff is files[0].diffs[0]


def test_an_edited_input_replaces_what_the_card_shows() -> None:
    conversation = Conversation()
    request_id = ""
    for line in recording("bash-allow"):
        for change in conversation.apply(decode_line(line)):
            if isinstance(change, ch.PermissionAsked):
                request_id = change.request.request_id
        if request_id:
            break
    conversation.record_decision(request_id, "Allowed with edited input", denied=False,
                                 updated_input={"command": "echo edited"})
    tool = next(i for i in conversation.items if isinstance(i, ToolItem))
    assert tool.input["command"] == "echo edited"
    assert tool.input["description"] == "Touch a file and greet"


def test_transcript_command_wrappers_and_task_notifications_read_as_words() -> None:
    from claude_tui.protocol import decode_obj

    conversation = Conversation()
    wrapped = ("<command-name>/context</command-name>\n<command-message>context</command-message>\n"
               "<command-args></command-args>")
    notice = ("<task-notification>\n<task-id>a1</task-id>\n<summary>Agent \"Explore tree\" finished</summary>\n"
              "</task-notification>")
    for text in (wrapped, notice):
        conversation.apply(decode_obj({"type": "user", "message": {"role": "user", "content": text},
                                       "parent_tool_use_id": None}))
    user = next(i for i in conversation.items if isinstance(i, UserItem))
    assert user.text == "/context"
    note = next(i for i in conversation.items if isinstance(i, NoteItem))
    assert note.text == 'Agent "Explore tree" finished' and "<" not in note.text


def _echo(text: str, uuid: str) -> object:
    from claude_tui.protocol import decode_obj

    return decode_obj({"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": text}]},
                       "session_id": "s", "parent_tool_use_id": None, "uuid": uuid, "isReplay": True})


def test_prompt_echoes_give_prompts_their_uuid_in_order() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    conversation.add_user_prompt("same")
    conversation.add_user_prompt("same")  # queued behind the first
    conversation.add_user_prompt("other")
    assert conversation.apply(_echo("same", "u1")) == []  # nothing new to show
    conversation.apply(_echo("same", "u2"))
    conversation.apply(_echo("not sent by us", "u9"))
    prompts = [i for i in conversation.items if isinstance(i, UserItem)]
    assert [p.uuid for p in prompts] == ["u1", "u2", None]
    conversation.apply(_echo("other", "u3"))
    assert prompts[2].uuid == "u3"
    assert len([i for i in conversation.items if isinstance(i, UserItem)]) == 3


def test_a_transcript_prompt_keeps_its_uuid() -> None:
    from claude_tui.protocol import decode_obj

    conversation = Conversation()
    conversation.apply(decode_obj({"type": "user", "uuid": "t1", "session_id": "s", "parent_tool_use_id": None,
                                   "message": {"role": "user", "content": "from the transcript"}}))
    [prompt] = [i for i in conversation.items if isinstance(i, UserItem)]
    assert prompt.uuid == "t1"


def test_the_echo_marks_a_queued_prompt_as_started() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    conversation.add_user_prompt("first")
    conversation.add_user_prompt("second")
    conversation.apply(_echo("first", "u1"))
    second = [i for i in conversation.items if isinstance(i, UserItem)][1]
    assert second.queued
    changes = conversation.apply(_echo("second", "u2"))
    assert not second.queued and any(isinstance(c, ch.ItemChanged) and c.item is second for c in changes)


def _asked(conversation: Conversation, request_id: str, tool_use_id: str, tool_input: dict[str, Any]) -> list[Any]:
    from claude_tui.protocol import decode_obj

    return conversation.apply(decode_obj({
        "type": "control_request", "request_id": request_id,
        "request": {"subtype": "can_use_tool", "tool_name": "Bash", "input": tool_input,
                    "tool_use_id": tool_use_id}}))


def test_the_card_shows_the_input_the_cli_asked_about_not_the_announced_one() -> None:
    # Issue 14: the stream announced one command, the CLI asked about another: the card shows
    # what was approved (the request's input), not the earlier input.
    from claude_tui.protocol import decode_obj

    conversation = Conversation()
    conversation.apply(decode_obj({"type": "assistant", "message": {
        "id": "m1", "role": "assistant", "model": "x",
        "content": [{"type": "tool_use", "id": "tu1", "name": "Bash", "input": {"command": "ls"}}]}}))
    _asked(conversation, "r1", "tu1", {"command": "ls -la /etc"})
    conversation.record_decision("r1", "Allowed once", denied=False)
    [tool] = [i for i in conversation.items if isinstance(i, ToolItem)]
    assert tool.input == {"command": "ls -la /etc"}


def test_a_call_never_announced_is_recorded_with_its_real_input() -> None:
    conversation = Conversation()
    changes = _asked(conversation, "r2", "tu-unseen", {"command": "rm -rf build"})
    [tool] = [i for i in conversation.items if isinstance(i, ToolItem)]
    assert tool.tool_use_id == "tu-unseen" and tool.input == {"command": "rm -rf build"}
    assert tool.state is ToolState.WAITING and any(isinstance(c, ch.ItemAdded) for c in changes)
    conversation.record_decision("r2", "Denied", denied=True)
    assert tool.state is ToolState.DENIED and tool.decision == "Denied"
