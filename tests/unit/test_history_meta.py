from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from claude_tui.history import meta as meta_mod
from claude_tui.history.meta import read_meta
from claude_tui.history.synth import read_records, turn_records, write_jsonl

FIXTURES = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "sessions" / "-home-user-project"
SID = "11111111-2222-3333-4444-555555555555"


def fixture(name: str) -> list[dict]:
    return read_records(next(FIXTURES.glob(f"{name}*.jsonl")))


def test_real_fixture_metadata() -> None:
    m = read_meta(FIXTURES / "1371d147-61d8-4b34-beff-86ba0e32e82d.jsonl")
    assert m is not None
    assert m.session_id == "1371d147-61d8-4b34-beff-86ba0e32e82d"
    assert m.entrypoint == "sdk-cli"  # stream-json sessions are listed, not hidden
    # The first prompt, not the CLI's last-prompt record (which follows every new turn).
    assert m.title == "kw:edit the file" and m.title_source == "first-prompt"
    assert m.last_prompt == "follow-up after resume"
    assert m.cwd == "/home/user/project" and m.git_branch == "HEAD"
    assert m.model == "claude-opus-5-5"
    assert m.cost_usd == pytest.approx(0.04242)
    assert m.created is not None and m.size == os.path.getsize(m.path)


def _session(tmp_path: Path, extra: list[dict], prompt: str = "the first prompt") -> Path:
    recs = turn_records(SID, None, prompt, "answer")
    return write_jsonl(tmp_path / f"{SID}.jsonl", recs + extra)


@pytest.mark.parametrize(
    ("extra", "title", "source"),
    [
        ([{"type": "custom-title", "customTitle": "My name"}, {"type": "ai-title", "aiTitle": "AI"},
          {"type": "summary", "summary": "S", "leafUuid": "x"}, {"type": "last-prompt", "lastPrompt": "lp"}],
         "My name", "custom"),
        ([{"type": "ai-title", "aiTitle": "AI"}, {"type": "summary", "summary": "S"},
          {"type": "last-prompt", "lastPrompt": "lp"}], "the first prompt", "first-prompt"),
        ([{"type": "last-prompt", "lastPrompt": "lp"}], "the first prompt", "first-prompt"),
        ([], "the first prompt", "first-prompt"),
        ([{"type": "last-prompt", "lastPrompt": "<command-name>/clear</command-name>"}], "the first prompt", "first-prompt"),
    ],
)
def test_title_precedence(tmp_path: Path, extra: list[dict], title: str, source: str) -> None:
    m = read_meta(_session(tmp_path, extra))
    assert m is not None and (m.title, m.title_source) == (title, source)


@pytest.mark.parametrize(
    ("extra", "title", "source"),
    [
        ([{"type": "ai-title", "aiTitle": "AI"}, {"type": "summary", "summary": "S"},
          {"type": "last-prompt", "lastPrompt": "lp"}], "AI", "ai"),
        ([{"type": "summary", "summary": "S"}, {"type": "last-prompt", "lastPrompt": "lp"}], "S", "summary"),
        ([{"type": "last-prompt", "lastPrompt": "lp"}], "lp", "last-prompt"),
    ],
)
def test_title_without_a_first_prompt(tmp_path: Path, extra: list[dict], title: str, source: str) -> None:
    recs = turn_records(SID, None, "<command-name>/clear</command-name>", "answer")
    m = read_meta(write_jsonl(tmp_path / f"{SID}.jsonl", recs + extra))
    assert m is not None and (m.title, m.title_source) == (title, source)


def test_title_stays_the_first_prompt_after_a_follow_up(tmp_path: Path) -> None:
    first = turn_records(SID, None, "kw:think what is six times seven", "42")
    second = turn_records(SID, first[-1]["uuid"], "and now what is seven times eight", "56")
    path = write_jsonl(tmp_path / f"{SID}.jsonl", first + [{"type": "last-prompt", "lastPrompt": "kw:think what is six times seven"}])
    assert read_meta(path).title == "kw:think what is six times seven"
    path = write_jsonl(path, first + second + [{"type": "last-prompt", "lastPrompt": "and now what is seven times eight"}])
    assert read_meta(path).title == "kw:think what is six times seven"


def test_lone_surrogates_are_replaced_in_every_field(tmp_path: Path) -> None:
    recs = turn_records(SID, None, "cut emoji \ud83d here", "answer")
    recs[0]["cwd"] = "/home/\ud83d"
    lines = [json.dumps(r) for r in recs]  # json.dumps writes the escape, as a Node CLI does
    lines.append(json.dumps({"type": "custom-title", "customTitle": "title \udc00 cut"}))
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    m = read_meta(path)
    assert m is not None and m.title == "title \ufffd cut" and m.first_prompt == "cut emoji \ufffd here"
    for value in m.to_dict().values():
        if isinstance(value, str):
            value.encode("utf-8")  # would raise on a lone surrogate

def test_latest_custom_title_wins(tmp_path: Path) -> None:
    m = read_meta(_session(tmp_path, [{"type": "custom-title", "customTitle": "old"},
                                      {"type": "custom-title", "customTitle": "new"}]))
    assert m is not None and m.title == "new"


def test_first_prompt_skips_meta_tool_results_wrappers_interruptions(tmp_path: Path) -> None:
    base = {"type": "user", "isSidechain": False, "sessionId": SID}
    recs = [
        {**base, "uuid": "a", "isMeta": True, "message": {"role": "user", "content": "Caveat: meta"}},
        {**base, "uuid": "b", "message": {"role": "user", "content": "<command-name>/model</command-name>"}},
        {**base, "uuid": "c", "message": {"role": "user", "content": "<local-command-stdout>Set model</local-command-stdout>"}},
        {**base, "uuid": "d", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]}},
        {**base, "uuid": "e", "message": {"role": "user", "content": [{"type": "text", "text": "[Request interrupted by user]"}]}},
        {**base, "uuid": "f", "isCompactSummary": True, "message": {"role": "user", "content": "This session is being continued"}},
        {**base, "uuid": "g", "message": {"role": "user", "content": [{"type": "text", "text": "  real\n question\x1b[31m "}]}},
    ]
    m = read_meta(write_jsonl(tmp_path / f"{SID}.jsonl", recs))
    assert m is not None
    assert m.first_prompt == "real question [31m"  # control chars (ESC) removed
    assert m.title_source == "first-prompt"


def test_command_only_session_falls_back_to_command(tmp_path: Path) -> None:
    recs = [{"type": "user", "uuid": "b", "message": {"role": "user",
             "content": "<command-name>/init</command-name><command-args>now</command-args>"}}]
    m = read_meta(write_jsonl(tmp_path / f"{SID}.jsonl", recs))
    assert m is not None and m.title == "/init now" and m.title_source == "command"


def test_corrupt_lines_and_unknown_types_skipped(tmp_path: Path) -> None:
    path = tmp_path / f"{SID}.jsonl"
    recs = turn_records(SID, None, "hello prompt", "hi")
    with open(path, "w") as fh:
        fh.write("{not json\n")
        fh.write(json.dumps({"type": "brand-new-record", "payload": [1, 2]}) + "\n")
        fh.write("[1,2,3]\n\x00\x01garbage\n")
        for r in recs:
            fh.write(json.dumps(r) + "\n")
        fh.write('{"type":"cost-state","totalCostUSD":1.5}\n')
        fh.write('{"type":"last-prompt","lastPr')  # truncated final line
    m = read_meta(path)
    assert m is not None and m.title == "hello prompt" and m.cost_usd == 1.5


def test_empty_and_missing_files(tmp_path: Path) -> None:
    (tmp_path / "e.jsonl").write_bytes(b"")
    assert read_meta(tmp_path / "e.jsonl") is None
    assert read_meta(tmp_path / "missing.jsonl") is None


class _CountingFile(io.RawIOBase):
    def __init__(self, fh, counter: list[int]) -> None:
        self.fh, self.counter = fh, counter

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.fh.close()

    def fileno(self) -> int:
        return self.fh.fileno()

    def seek(self, *a):
        return self.fh.seek(*a)

    def read(self, n: int = -1) -> bytes:
        data = self.fh.read(n)
        self.counter[0] += len(data)
        return data


def test_bounded_reads_on_a_50mb_transcript(tmp_path: Path, monkeypatch) -> None:
    head = turn_records(SID, None, "huge session prompt", "ok")
    filler = turn_records(SID, head[-1]["uuid"], "x" * 1_000_000, "y" * 200_000)
    path = tmp_path / f"{SID}.jsonl"
    with open(path, "w") as fh:
        for r in head:
            fh.write(json.dumps(r) + "\n")
        line = json.dumps(filler[0]) + "\n"
        for _ in range(50):
            fh.write(line)
        fh.write(json.dumps({"type": "ai-title", "aiTitle": "Big one"}) + "\n")
        fh.write(json.dumps({"type": "cost-state", "totalCostUSD": 3.25}) + "\n")
    assert path.stat().st_size > 50_000_000
    counter = [0]
    real_open = open
    monkeypatch.setattr(meta_mod, "open", lambda p, mode="r", *a, **k: _CountingFile(real_open(p, mode, *a, **k), counter), raising=False)
    m = read_meta(path)
    assert m is not None
    assert m.title == "huge session prompt" and m.ai_title == "Big one" and m.cost_usd == 3.25
    assert 0 < counter[0] <= 128 * 1024


@pytest.mark.parametrize("words", [5000, 100_000])  # 25 KB, and 500 KB: longer than the head chunk
def test_huge_first_prompt_is_truncated(tmp_path: Path, words: int) -> None:
    m = read_meta(_session(tmp_path, [{"type": "x" * 10}] * 20000, prompt="word " * words))
    assert m is not None and m.title_source == "first-prompt"
    assert m.title.startswith("word word") and len(m.title) <= 200


def test_an_old_clis_snapshot_only_file_is_not_a_session() -> None:
    """2.0.77 (and 2.1.0) write a file holding only a file-history-snapshot under a fresh id when they
    resume a session; it listed as an extra "(no prompt)" row with 0 messages."""
    resumed = Path(__file__).parent.parent / "fixtures" / "claude-code-2.0.77" / "resumed"
    phantom = resumed / "6126c910-e57c-45e6-8688-8afb98b83686.jsonl"
    assert b"file-history-snapshot" in phantom.read_bytes()
    assert read_meta(phantom) is None
    real = read_meta(resumed / "a8ae8403-3f50-4b84-8494-258cb6b2652b.jsonl")
    assert real is not None and real.title == "first kw:plain" and real.version == "2.0.77"


def test_an_old_session_without_cost_state_gets_its_estimated_cost() -> None:
    """2.0.77 writes no cost-state: the listing showed '-'. Its one request cost $0.015105 (the CLI's result)."""
    resumed = Path(__file__).parent.parent / "fixtures" / "claude-code-2.0.77" / "resumed"
    meta = read_meta(resumed / "a8ae8403-3f50-4b84-8494-258cb6b2652b.jsonl")
    assert meta is not None and meta.cost_usd is not None
    assert abs(meta.cost_usd - 2 * 0.015105) < 1e-9  # two turns, one request each


def test_last_active_is_the_last_records_time_not_the_exit_that_touched_the_file(tmp_path: Path) -> None:
    # A real-CLI transcript: its last turn at 2026-11-22T00:44:52Z, then the bookkeeping the CLI
    # appends at every exit (last-prompt, cost-state), which carry no time but touch the file.
    source = FIXTURES / "f122259a-3b96-4c04-9b7c-9b19a6582dba.jsonl"
    path = tmp_path / source.name
    path.write_bytes(source.read_bytes())
    turn = read_meta(path)
    assert turn is not None
    # Quitting claude-tui with this tab open, a day later: the CLI's exit rewrites the tail
    with path.open("a") as fh:
        fh.write(json.dumps({"type": "last-prompt", "lastPrompt": "x", "sessionId": source.stem}) + "\n")
    later = 1795400000.0
    os.utime(path, (later, later))
    m = read_meta(path)
    assert m is not None and m.mtime_ns == int(later * 1e9)
    assert m.last_active == pytest.approx(meta_mod.parse_timestamp("2026-11-22T00:44:52.228Z"))
    # a record stamped after the file's mtime (a clock set back) never reads as the future
    os.utime(path, (1795000000.0, 1795000000.0))
    m = read_meta(path)
    assert m is not None and m.last_active == pytest.approx(1795000000.0)
