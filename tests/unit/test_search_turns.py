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
