"""The browser's preview replays only a transcript's newest turns, and shows what a full replay shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_tui.history.transcript import load_transcript
from claude_tui.session.items import Item, NoteItem, TextItem, ToolItem, UserItem
from claude_tui.session.replay import replay
from claude_tui.ui.browser.preview import (
    PREVIEW_TURNS,
    load_session_preview,
    preview_of,
    tail_start,
    visible_records,
)
from tests.conftest import FIXTURES


class Transcript:
    """Writes a chained transcript (uuid / parentUuid) the way the CLI does."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def _add(self, kind: str, message: dict[str, Any], **extra: Any) -> None:
        parent = self.records[-1]["uuid"] if self.records else None
        self.records.append({"type": kind, "uuid": f"u{len(self.records)}", "parentUuid": parent,
                             "sessionId": "s1", "isSidechain": False, "message": message, **extra})

    def prompt(self, text: str) -> None:
        self._add("user", {"role": "user", "content": text})

    def answer(self, index: int, text: str) -> None:
        self._add("assistant", {"id": f"m{index}", "role": "assistant", "model": "claude-x",
                                "content": [{"type": "text", "text": text}]})

    def tool(self, index: int, tool_id: str, command: str, output: str) -> None:
        self._add("assistant", {"id": f"t{index}", "role": "assistant", "model": "claude-x",
                                "content": [{"type": "tool_use", "id": tool_id, "name": "Bash",
                                             "input": {"command": command}}]})
        self.result(tool_id, output)

    def result(self, tool_id: str, output: str) -> None:
        self._add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id,
                                                         "content": output}]},
                  toolUseResult={"stdout": output, "stderr": "", "interrupted": False})

    def write(self, path: Path) -> Path:
        path.write_text("".join(json.dumps(record) + "\n" for record in self.records))
        return path


def long_transcript(turns: int) -> Transcript:
    transcript = Transcript()
    for turn in range(turns):
        transcript.prompt(f"question {turn}")
        transcript.tool(turn, f"toolu_{turn}", f"ls dir{turn}", f"file{turn}.py")
        transcript.answer(turn, f"answer {turn}")
    return transcript


def shown(items: list[Item]) -> list[tuple[str, str]]:
    def text(item: Item) -> str:
        if isinstance(item, ToolItem):
            return f"{item.name} {item.input} {item.state.value} {item.result_text}"
        return getattr(item, "text", "")
    return [(type(item).__name__, text(item)) for item in items]


def full_preview(path: Path) -> list[tuple[str, str]]:
    transcript = load_transcript(path, with_subagent_files=False)
    return shown(preview_of(replay(visible_records(transcript.records), None)).log.items)


def test_a_long_transcript_is_replayed_from_its_last_turns_only(tmp_path: Path) -> None:
    path = long_transcript(300).write(tmp_path / "long.jsonl")
    records = visible_records(load_transcript(path, with_subagent_files=False).records)
    start = tail_start(records)
    assert 0 < start < len(records) - 3 * PREVIEW_TURNS, "only the newest turns are replayed"
    preview = load_session_preview(str(path))
    assert preview is not None
    assert shown(preview.log.items) == full_preview(path)
    assert [i.text for i in preview.log.items if isinstance(i, UserItem)] == \
        ["question 297", "question 298", "question 299"]


def test_tail_that_is_not_enough_falls_back_to_the_whole_transcript(tmp_path: Path) -> None:
    transcript = long_transcript(50)
    # Candidates that are not prompts: the last "turns" are interruption markers and a
    # background task notice, so a tail of five candidates holds fewer than three prompts.
    for _ in range(4):
        transcript.prompt("[Request interrupted by user]")
    transcript.prompt("<task-notification><summary>Background task done</summary></task-notification>")
    path = transcript.write(tmp_path / "notes.jsonl")
    preview = load_session_preview(str(path))
    assert preview is not None
    assert shown(preview.log.items) == full_preview(path)
    assert sum(isinstance(i, UserItem) for i in preview.log.items) == PREVIEW_TURNS
    assert any(isinstance(i, NoteItem) for i in preview.log.items)


def test_a_result_for_an_older_call_makes_the_whole_transcript_replay(tmp_path: Path) -> None:
    transcript = long_transcript(40)
    transcript._add("assistant", {"id": "bg", "role": "assistant", "model": "claude-x",
                                  "content": [{"type": "tool_use", "id": "toolu_bg", "name": "Bash",
                                               "input": {"command": "sleep 100"}}]})
    for turn in range(40, 46):
        transcript.prompt(f"question {turn}")
        transcript.answer(turn, f"answer {turn}")
    transcript.result("toolu_bg", "slept")  # arrives long after its call
    transcript.answer(99, "the sleep ended")
    path = transcript.write(tmp_path / "late.jsonl")
    preview = load_session_preview(str(path))
    assert preview is not None
    assert shown(preview.log.items) == full_preview(path)
    # Not a stray card for an unknown "tool": the late result updates the call it answers.
    assert not [i for i in preview.log.items if isinstance(i, ToolItem)]


def test_real_transcripts_preview_as_a_full_replay_would() -> None:
    for path in sorted((FIXTURES / "sessions").rglob("*.jsonl")):
        if "subagents" in path.parts:
            continue
        preview = load_session_preview(str(path))
        assert preview is not None, path
        assert shown(preview.log.items) == full_preview(path), path
        assert any(isinstance(i, (UserItem, TextItem)) for i in preview.log.items), path


def test_a_preview_no_longer_wanted_stops_during_the_replay(tmp_path: Path) -> None:
    path = long_transcript(400).write(tmp_path / "long.jsonl")
    asked: list[int] = []

    def should_stop() -> bool:
        asked.append(1)
        return len(asked) > 1  # wanted when loading starts, not any more once replaying

    assert load_session_preview(str(path), should_stop) is None
    assert len(asked) == 2
