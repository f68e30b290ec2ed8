"""Where a conversation rewind resumes the CLI, and what a transcript with two branches shows."""

from __future__ import annotations

import json
from pathlib import Path

from claude_tui.protocol import decode_obj
from claude_tui.resume import load_conversation
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, UserItem
from claude_tui.session.rewind_points import RewindPoint, rewind_point
from claude_tui.transport.options import CliOptions, build_argv


def _feed(conversation: Conversation, *lines: dict) -> None:  # type: ignore[type-arg]
    for line in lines:
        conversation.apply(decode_obj(line))


def _echo(text: str, uuid: str) -> dict:  # type: ignore[type-arg]
    return {"type": "user", "isReplay": True, "uuid": uuid, "session_id": "s", "parent_tool_use_id": None,
            "message": {"role": "user", "content": [{"type": "text", "text": text}]}}


def _answer(text: str, uuid: str) -> dict:  # type: ignore[type-arg]
    return {"type": "assistant", "uuid": uuid, "session_id": "s", "parent_tool_use_id": None,
            "message": {"id": f"msg_{uuid}", "role": "assistant", "content": [{"type": "text", "text": text}]}}


def test_each_prompt_resumes_at_the_answer_before_it() -> None:
    conversation = Conversation()
    for n, word in enumerate(("one", "two", "three")):
        conversation.add_user_prompt(word)
        _feed(conversation, _echo(word, f"u{n}"), _answer(f"said {word}", f"a{n}"))
    one, two, three = [i for i in conversation.items if isinstance(i, UserItem)]
    assert (one.resume_at, two.resume_at, three.resume_at) == (None, "a0", "a1")
    assert rewind_point(conversation, two) == RewindPoint(two, "a0")
    assert rewind_point(conversation, one) == RewindPoint(one, None)  # before the first: a new session
    assert conversation.rewind_to(two, "a0") == 4
    assert [i.text for i in conversation.items if isinstance(i, UserItem)] == ["one"]
    conversation.add_user_prompt("again")  # the next prompt's point is where the rewind went back to
    _feed(conversation, _echo("again", "u9"))
    assert conversation.items[-1].resume_at == "a0"  # type: ignore[attr-defined]


def test_a_prompt_without_an_id_after_answers_cannot_be_rewound() -> None:
    conversation = Conversation()
    conversation.add_user_prompt("one")
    _feed(conversation, _answer("said one", "a0"))
    conversation.add_user_prompt("two")  # never echoed
    two = conversation.items[-1]
    assert isinstance(two, UserItem) and isinstance(rewind_point(conversation, two), str)


def test_the_flag_goes_only_with_resume() -> None:
    assert build_argv(CliOptions(resume="S", resume_session_at="U"), "claude")[-4:] == [
        "--resume", "S", "--resume-session-at", "U"]
    assert "--resume-session-at" not in build_argv(CliOptions(resume_session_at="U"), "claude")


def _record(kind: str, uuid: str, parent: str | None, text: str) -> dict:  # type: ignore[type-arg]
    role = "user" if kind == "user" else "assistant"
    return {"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s", "timestamp": "2026-12-01T00:00:00Z",
            "message": {"role": role, "content": [{"type": "text", "text": text}], "id": f"m{uuid}"}}


def test_a_transcript_with_a_rewound_branch_says_what_it_does_not_show(tmp_path: Path) -> None:
    records = [_record("user", "u1", None, "one"), _record("assistant", "a1", "u1", "said one"),
               _record("user", "u2", "a1", "two"), _record("assistant", "a2", "u2", "said two"),
               _record("user", "u3", "a2", "three"), _record("assistant", "a3", "u3", "said three"),
               # typed while "three" ran: the CLI keeps it only as an attachment of that turn
               {"type": "attachment", "uuid": "q1", "parentUuid": "a3", "sessionId": "s",
                "attachment": {"type": "queued_command", "prompt": [{"type": "text", "text": "queued"}],
                               "source_uuid": "src1", "commandMode": "prompt"}},
               # --resume-session-at a1, then a new prompt: a second branch from a1, the newest
               _record("user", "u4", "a1", "two again"), _record("assistant", "a4", "u4", "said two again")]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    conversation = load_conversation("s", path=path)
    assert conversation is not None
    assert [i.text for i in conversation.items if isinstance(i, UserItem)] == ["one", "two again"]
    notes = [i for i in conversation.items if isinstance(i, NoteItem)]
    assert "“two”, “three”, “queued”" in notes[-2].text and notes[-1].text.startswith("Resumed from the transcript")
    # The session browser's preview (its last turns) ends with the same note.
    from claude_tui.ui.browser.preview import load_session_preview

    preview = load_session_preview(str(path))
    assert preview is not None
    assert any(isinstance(i, NoteItem) and "“two”, “three”" in i.text for i in preview.log.items)
