"""`claude-tui usage`: which calls count, what they cost, and the report's shapes."""

from __future__ import annotations

import csv
import io
import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from claude_tui.history.index import SessionIndex
from claude_tui.history.usage import pool as usage_pool
from claude_tui.history.usage.command import parse_day, usage_command, usage_report
from claude_tui.history.usage.index import UsageIndex
from claude_tui.history.usage.text import render
from claude_tui.protocol.pricing import message_cost
from claude_tui.protocol.sanitize import inert_json

SONNET = "claude-sonnet-4-5-20250929"
HAIKU = "claude-haiku-4-5-20251001"
USAGE = {"input_tokens": 1200, "output_tokens": 42, "cache_read_input_tokens": 30000,
         "cache_creation_input_tokens": 500,
         "cache_creation": {"ephemeral_5m_input_tokens": 500, "ephemeral_1h_input_tokens": 0}}


@pytest.fixture(autouse=True, params=["file by file", "bulk"])
def first_run(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test twice: a first report of many files inserts its rows counted and elects only the
    contested calls (`UsageIndex._contested`); it must count exactly what the file-by-file path does."""
    if request.param == "bulk":
        monkeypatch.setattr(usage_pool, "MIN_FILES", 1)


def prompt(sid: str, cwd: str, ts: str = "2026-11-20T10:00:00.000Z") -> dict[str, Any]:
    return {"type": "user", "uuid": str(uuid.uuid4()), "parentUuid": None, "sessionId": sid, "cwd": cwd,
            "timestamp": ts, "version": "2.1.330", "message": {"role": "user", "content": "hello"}}


def call(sid: str, msg: str, req: str | None, *, model: str = SONNET, ts: str = "2026-11-20T10:00:01.000Z",
         usage: dict[str, Any] | None = None, side: bool = False, **extra: Any) -> dict[str, Any]:
    record = {"type": "assistant", "uuid": str(uuid.uuid4()), "sessionId": sid, "timestamp": ts,
              "isSidechain": side, "version": "2.1.330",
              "message": {"id": msg, "model": model, "role": "assistant", "content": [{"type": "text", "text": "hi"}],
                          "usage": usage or USAGE}, **extra}
    if req is not None:
        record["requestId"] = req
    return record


def cost_state(sid: str, model: str, cost: float, n: int = 1) -> dict[str, Any]:
    return {"type": "cost-state", "sessionId": sid, "totalCostUSD": cost, "modelUsage": {model: {
        "inputTokens": 1200 * n, "outputTokens": 42 * n, "cacheReadInputTokens": 30000 * n,
        "cacheCreationInputTokens": 500 * n, "costUSD": cost}}}


class Tree:
    def __init__(self, root: Path) -> None:
        self.root = root

    compact = False  # json.dumps's spacing; the CLI writes compact lines (read without a full parse)

    def write(self, records: list[dict[str, Any]], *, cwd: str = "/work/alpha", sid: str | None = None,
              agent: str | None = None) -> Path:
        sid = sid or str(uuid.uuid4())
        pdir = self.root / "projects" / cwd.replace("/", "-")
        path = pdir / f"{sid}.jsonl" if agent is None else pdir / sid / "subagents" / f"agent-{agent}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as fh:
            for record in records:
                fh.write(json.dumps(record, separators=(",", ":") if self.compact else None) + "\n")
        return path

    def session(self, *records: dict[str, Any], cwd: str = "/work/alpha", sid: str | None = None) -> str:
        sid = sid or str(uuid.uuid4())
        self.write([prompt(sid, cwd), *records], cwd=cwd, sid=sid)
        return sid


@pytest.fixture(params=["spaced", "compact"])
def tree(tmp_path: Path, request: pytest.FixtureRequest) -> Tree:
    made = Tree(tmp_path / "claude")
    made.compact = request.param == "compact"
    return made


def cli_call(sid: str, msg: str, req: str, content: list[dict[str, Any]], model: str = SONNET) -> dict[str, Any]:
    """A reply's record with its keys in the order the CLI 2.1.330 writes them."""
    return {"parentUuid": None, "isSidechain": False, "message": {
        "id": msg, "type": "message", "role": "assistant", "model": model, "content": content,
        "stop_reason": "end_turn", "usage": USAGE}, "requestId": req, "type": "assistant", "uuid": str(uuid.uuid4()),
        "timestamp": "2026-11-20T10:00:01.000Z", "sessionId": sid, "version": "2.1.330"}


@pytest.fixture
def index(tmp_path: Path, tree: Tree):
    idx = SessionIndex(tmp_path / "index.sqlite", root=tree.root)
    yield idx
    idx.close()


ONE = message_cost(SONNET, USAGE)


def test_a_streamed_reply_is_one_call_and_its_fullest_record_stands_for_it(tree: Tree, index: SessionIndex) -> None:
    sid = str(uuid.uuid4())
    partial = dict(USAGE, output_tokens=1)
    tree.session(call(sid, "msg_1", "req_1", usage=partial), call(sid, "msg_1", "req_1"),
                 call(sid, "msg_1", "req_1", usage=partial), sid=sid)
    report = usage_report(index)
    assert report.total.output_tokens == 42
    assert report.total.cost_usd == pytest.approx(ONE)


def test_a_retried_request_is_a_second_call_but_a_sidechain_replay_is_not(tree: Tree, index: SessionIndex) -> None:
    sid = str(uuid.uuid4())
    tree.session(call(sid, "msg_1", "req_1"), call(sid, "msg_1", "req_2"),
                 call(sid, "msg_1", "req_3", side=True), call(sid, "msg_9", "req_9", side=True), sid=sid)
    report = usage_report(index)
    assert report.total.input_tokens == 3 * 1200  # req_1, req_2 and the sidechain's own msg_9


def test_a_fork_copies_its_parents_calls_without_counting_them_again(tree: Tree, index: SessionIndex) -> None:
    parent = tree.session(call("p", "msg_1", "req_1"))
    tree.session(call(parent, "msg_1", "req_1"), call("f", "msg_2", "req_2"))
    assert usage_report(index).total.input_tokens == 2 * 1200


def test_a_subagent_transcript_counts_for_its_session(tree: Tree, index: SessionIndex) -> None:
    sid = tree.session(call("s", "msg_1", "req_1"))
    tree.write([call(sid, "msg_a", "req_a", model=HAIKU, side=True)], sid=sid, agent="a1")
    report = usage_report(index, "session")
    assert [r.key for r in report.rows] == [sid]
    assert set(report.rows[0].models) == {SONNET, HAIKU}


def test_the_clis_recorded_cost_stands_where_it_covers_exactly_the_sessions_calls(
        tree: Tree, index: SessionIndex) -> None:
    tree.session(call("a", "msg_1", "req_1", model="claude-opus-5-5"), cost_state("a", "claude-opus-5-5", 0.01414))
    # A counter that restarted (/clear) covers fewer calls than the transcript holds: list prices then.
    sid = str(uuid.uuid4())
    tree.session(call(sid, "msg_2", "req_2"), call(sid, "msg_3", "req_3"), cost_state(sid, SONNET, 9.0), sid=sid)
    report = usage_report(index, "model")
    costs = {r.key: r.cost_usd for r in report.rows}
    assert costs["claude-opus-5-5"] == pytest.approx(0.01414)
    assert costs[SONNET] == pytest.approx(2 * ONE)
    assert report.recorded == 1


def test_a_model_nobody_prices_counts_its_tokens_and_is_named(tree: Tree, index: SessionIndex) -> None:
    tree.session(call("a", "msg_1", "req_1", model="gpt-9"))
    report = usage_report(index)
    assert report.total.cost_usd == 0 and report.total.input_tokens == 1200
    assert report.unpriced == ["gpt-9"]
    assert "No price for: gpt-9" in render(report)


def test_a_records_own_cost_is_used(tree: Tree, index: SessionIndex) -> None:
    tree.session(call("a", "msg_1", "req_1", costUSD=0.5))
    assert usage_report(index).total.cost_usd == pytest.approx(0.5)


def test_a_1h_cache_write_is_priced_at_twice_the_input_price() -> None:
    one_hour = dict(USAGE, cache_creation={"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 500})
    assert message_cost(SONNET, one_hour) - message_cost(SONNET, USAGE) == pytest.approx(500 * 3 * 0.75 / 1e6)


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("utc")
def test_days_weeks_months_and_the_range(tree: Tree, index: SessionIndex) -> None:
    tree.session(call("a", "m1", "r1", ts="2026-11-29T12:00:00Z"), call("a", "m2", "r2", ts="2026-11-30T12:00:00Z"),
                 call("a", "m3", "r3", ts="2026-12-02T12:00:00Z"))
    assert [r.key for r in usage_report(index, "day").rows] == ["2026-11-29", "2026-11-30", "2026-12-02"]
    assert [r.key for r in usage_report(index, "week").rows] == ["2026-11-23", "2026-11-30"]  # Mondays
    assert [r.key for r in usage_report(index, "month").rows] == ["2026-11", "2026-12"]
    ranged = usage_report(index, "day", since="2026-11-30", until="2026-11-30")
    assert [r.key for r in ranged.rows] == ["2026-11-30"]
    # A bar per row; the sparkline has a cell per day, the quiet 1 December too.
    text = render(usage_report(index, "day"))
    assert text.count("█") >= 3
    spark = next(line for line in text.splitlines() if line.startswith(SONNET))
    assert len(spark.split()[1]) == 4
    assert spark.split()[1][2] == "▁"


def test_an_appended_transcript_is_read_from_where_the_last_scan_stopped(tree: Tree, index: SessionIndex) -> None:
    sid = tree.session(call("a", "msg_1", "req_1"))
    usage = UsageIndex(index)
    assert usage.refresh() == 1
    assert usage.refresh() == 0  # unchanged: not opened
    tree.write([call(sid, "msg_2", "req_2")], sid=sid)
    assert usage.refresh() == 1
    assert usage_report(index).total.input_tokens == 2 * 1200
    path = next((tree.root / "projects").rglob(f"{sid}.jsonl"))
    path.write_text(json.dumps(prompt(sid, "/work/alpha")) + "\n" + json.dumps(call(sid, "msg_3", "req_3")) + "\n")
    assert usage_report(index).total.input_tokens == 1200  # rewritten: read again from the start


def test_the_json_has_exactly_the_issues_shape(tree: Tree, index: SessionIndex) -> None:
    tree.session(call("a", "msg_1", "req_1"))
    out = io.StringIO()
    assert usage_command("day", None, None, "json", out, index=index) == 0
    data = json.loads(out.getvalue())
    assert list(data) == ["by", "rows", "total"]
    assert list(data["rows"][0]) == ["key", "cost_usd", "input_tokens", "output_tokens", "cache_read_tokens",
                                     "cache_write_tokens", "models"]
    assert list(data["total"]) == list(data["rows"][0])[1:]
    assert data["rows"][0]["models"] == {SONNET: pytest.approx(ONE)}


def test_hostile_project_names_are_inert_in_text_and_csv(tree: Tree, index: SessionIndex) -> None:
    hostile = "=HYPERLINK(1)\x1b]52;c;aGk=\x07"
    tree.session(call("a", "msg_1", "req_1"), cwd=hostile)
    report = usage_report(index, "project")
    text = render(report)
    assert "\x1b" not in text and "\x07" not in text and "␛" in text
    rows = list(csv.reader(io.StringIO(report.to_csv())))
    assert rows[1][0].startswith("'=") and "\x1b" not in report.to_csv()
    out = io.StringIO()
    usage_command("project", None, None, "json", out, index=index)
    assert "\x1b" not in out.getvalue() and "\x07" not in out.getvalue()
    assert json.loads(out.getvalue())["rows"][0]["key"] == hostile  # the data itself unchanged
    hostile_c1 = "\x9b31m"
    assert "\x9b" not in inert_json(json.dumps({"k": hostile_c1}, ensure_ascii=False))


def test_a_bad_date_says_what_is_wrong() -> None:
    assert parse_day("20261201") == "2026-12-01"
    with pytest.raises(ValueError, match="not a date"):
        parse_day("2026-13-01")
    with pytest.raises(ValueError, match="not a date"):
        parse_day("yesterday")


def test_a_tool_input_naming_a_model_or_a_usage_is_not_the_replys(tree: Tree, index: SessionIndex) -> None:
    sid = str(uuid.uuid4())
    sneaky = {"type": "tool_use", "id": "t1", "name": "Task",
              "input": {"model": "gpt-9", "usage": {"input_tokens": 999999, "output_tokens": 9}}}
    tree.session(cli_call(sid, "msg_1", "req_1", [sneaky]), cli_call(sid, "msg_2", "req_2", [{"type": "text",
                 "text": 'say "usage":{"input_tokens":5} and "model":"x"'}], model=HAIKU), sid=sid)
    report = usage_report(index, "model")
    assert {r.key: r.input_tokens for r in report.rows} == {SONNET: 1200, HAIKU: 1200}


def test_a_forks_copy_of_its_parents_calls_is_the_parents_whichever_is_read_first(
        tree: Tree, index: SessionIndex) -> None:
    """A fork copies its parent's records, times included, after a line of its own (later)."""
    parent, fork = str(uuid.uuid4()), str(uuid.uuid4())
    copied = call(parent, "msg_1", "req_1", ts="2026-11-20T10:00:01.000Z")
    tree.write([{"type": "queue-operation", "timestamp": "2026-11-21T09:00:00.000Z", "sessionId": fork},
                prompt(fork, "/work/alpha", "2026-11-20T10:00:00.000Z"), dict(copied, sessionId=fork),
                call(fork, "msg_2", "req_2", ts="2026-11-21T09:00:02.000Z")], sid=fork)
    assert UsageIndex(index).refresh() == 1  # the fork is read (and its rows stored) first
    tree.write([prompt(parent, "/work/alpha", "2026-11-20T10:00:00.000Z"), copied], sid=parent)
    report = usage_report(index, "session")
    assert {r.key: r.input_tokens for r in report.rows} == {parent: 1200, fork: 1200}


FORKED = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "forked"


def test_a_fork_recorded_by_the_real_cli_costs_what_the_cli_says(tmp_path: Path) -> None:
    """The real CLI's fork: the parent's cost-state covers its calls, the fork's covers the copied
    calls and its own; each session gets Claude Code's figure for the calls counted for it."""
    import shutil

    root = tmp_path / "claude"
    (root / "projects" / "-p").mkdir(parents=True)
    states = {}
    for path in FORKED.glob("*.jsonl"):
        shutil.copyfile(path, root / "projects" / "-p" / path.name)
        lines = [json.loads(line) for line in path.read_text().splitlines() if '"cost-state"' in line]
        states[path.stem] = lines[-1]["modelUsage"]["claude-opus-5-5"]
    with SessionIndex(tmp_path / "index.sqlite", root=root) as index:
        report = usage_report(index, "session")
    costs = {r.key: r.cost_usd for r in report.rows}
    parent = max(states, key=lambda s: states[s]["inputTokens"])  # the one with the most calls of its own
    fork = next(s for s in states if s != parent)
    assert costs[parent] == pytest.approx(states[parent]["costUSD"])
    per_call = states[fork]["costUSD"] / (states[fork]["inputTokens"] // 1200)
    assert costs[fork] == pytest.approx(per_call)  # its one call of its own, at the CLI's price
    assert report.recorded == 2


def test_cache_writes_are_the_total_the_cli_counts_split_by_the_apis_lifetimes() -> None:
    from claude_tui.protocol.pricing import cache_writes

    assert cache_writes({"cache_creation_input_tokens": 500,
                         "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}}) == (500, 0)
    assert cache_writes({"cache_creation_input_tokens": 500,
                         "cache_creation": {"ephemeral_5m_input_tokens": 200, "ephemeral_1h_input_tokens": 300}}) == (200, 300)
    assert cache_writes({"cache_creation": {"ephemeral_5m_input_tokens": 7, "ephemeral_1h_input_tokens": 3}}) == (7, 3)
    assert cache_writes({"cache_creation_input_tokens": 9}) == (9, 0)
