"""A search hit's turn is the turn the resumed log (and the export's "## Turn N") shows it in: only
what the log shows as your prompt counts, not the notices the CLI writes as user records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_tui.history.scan import scan_file
from claude_tui.history.transcript import load_transcript
from claude_tui.session.items import UserItem
from claude_tui.session.replay import replay

SESSION = "5e55a7e1-0000-4000-8000-0000000000aa"


def _records() -> list[dict[str, Any]]:
    def user(uuid: str, parent: str | None, text: str) -> dict[str, Any]:
        return {"type": "user", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION, "isSidechain": False,
                "message": {"role": "user", "content": text}}

    def answer(uuid: str, parent: str, text: str) -> dict[str, Any]:
        return {"type": "assistant", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION, "isSidechain": False,
                "message": {"id": f"msg_{uuid}", "role": "assistant", "model": "m",
                            "content": [{"type": "text", "text": text}]}}

    notice = ('<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n'
              '<summary>Agent "Explore tree" finished</summary>\n</task-notification>')
    return [user("u1", None, "first question"), answer("a1", "u1", "first answer"),
            user("n1", "a1", notice), answer("a2", "n1", "noted the agent"),
            user("u2", "a2", "[Request interrupted by user]"),
            user("u3", "u2", "second question about zebras"), answer("a3", "u3", "zebras are striped")]


def test_notices_written_as_user_records_are_not_turns(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(json.dumps(record) for record in _records()) + "\n")
    transcript = load_transcript(path)
    log = [item.text for item in replay(transcript.records, transcript.subagents, session_id=SESSION).items
           if isinstance(item, UserItem)]
    docs = scan_file(path).docs
    assert [(doc.turn, doc.text) for doc in docs if doc.kind == "prompt"] == list(enumerate(log))
    assert log == ["first question", "second question about zebras"]
    assert next(doc.turn for doc in docs if "zebras are striped" in doc.text) == 1


def _user(uuid: str, parent: str | None, text: str) -> dict[str, Any]:
    return {"type": "user", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION, "isSidechain": False,
            "message": {"role": "user", "content": text}}


def _answer(uuid: str, parent: str, text: str) -> dict[str, Any]:
    return {"type": "assistant", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION, "isSidechain": False,
            "message": {"id": f"msg_{uuid}", "role": "assistant", "model": "m", "content": [{"type": "text",
                                                                                              "text": text}]}}


def _attachment(uuid: str, parent: str) -> dict[str, Any]:
    # as the CLI writes one: its parent first, its own uuid after the (unparsed) content
    return {"parentUuid": parent, "isSidechain": False, "attachment": {"type": "date", "text": "x" * 500},
            "type": "attachment", "uuid": uuid, "timestamp": "2026-12-02T06:00:00.000Z"}


FIRST = [_user("u1", None, "first question"), _attachment("t1", "u1"), _answer("a1", "t1", "first answer"),
         _user("u2", "a1", "second question"), _answer("a2", "u2", "second answer"),
         _user("u3", "a2", "third question"), _answer("a3", "u3", "third answer")]
# Rewound to before "second question": the CLI goes on from a1, after the old branch in the file
AFTER_REWIND = [_attachment("t2", "a1"), _user("u4", "t2", "second again, about yaks"), _answer("a4", "u4", "yaks")]


def _write(path: Path, records: list[dict[str, Any]], mode: str = "w") -> None:
    with path.open(mode) as fh:
        fh.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))


def test_after_a_rewind_a_hit_is_in_the_turn_of_its_own_branch(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION}.jsonl"
    _write(path, FIRST + AFTER_REWIND)
    turns = {doc.text: doc.turn for doc in scan_file(path).docs}
    assert turns["third question"] == 2  # the old branch keeps its numbers
    assert turns["second again, about yaks"] == 1 and turns["yaks"] == 1  # not 3: the live branch's second turn
    transcript = load_transcript(path)
    log = [item.text for item in replay(transcript.records, transcript.subagents, session_id=SESSION).items
           if isinstance(item, UserItem)]
    assert log.index("second again, about yaks") == 1  # the resumed log shows it there


def test_the_index_counts_the_branch_when_the_rewind_is_read_later(tmp_path: Path) -> None:
    from claude_tui.history.index import SessionIndex

    project = tmp_path / "config" / "projects" / "-p"
    project.mkdir(parents=True)
    path = project / f"{SESSION}.jsonl"
    _write(path, FIRST)
    with SessionIndex(tmp_path / "index.sqlite", root=tmp_path / "config") as index:
        index.refresh()
        index.index_content()  # the text up to here
        _write(path, AFTER_REWIND, "a")  # the rewound session goes on; the next scan starts at the old end
        index.refresh()
        index.index_content()
        hits = index.search("yaks")
    assert hits and {hit.turn for hit in hits} == {1}
