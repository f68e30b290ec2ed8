"""A cold usage report scans the transcripts in forked workers: the same report, no worker left, never
forked beside another thread."""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
from pathlib import Path

import pytest

from claude_tui.history.index import SessionIndex
from claude_tui.history.synth import build_tree, read_records
from claude_tui.history.usage import pool as usage_pool
from claude_tui.history.usage.command import usage_report
from claude_tui.transport.keeper import die_with_parent

FIXTURES = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "sessions" / "-home-user-project"
USAGE = {"input_tokens": 1200, "output_tokens": 42, "cache_read_input_tokens": 30000,
         "cache_creation_input_tokens": 500,
         "cache_creation": {"ephemeral_5m_input_tokens": 500, "ephemeral_1h_input_tokens": 0}}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pool") / "claude"
    templates = [read_records(p) for p in sorted(FIXTURES.glob("*.jsonl"))]
    build_tree(root, templates, sessions=160, projects=4, large_every=0, usage=USAGE)
    return root


def _report(tree: Path, db: Path) -> str:
    with SessionIndex(db, root=tree) as index:
        return json.dumps(usage_report(index, by="session").to_json())


def test_the_workers_report_what_one_process_reports(tree: Path, tmp_path: Path, monkeypatch) -> None:
    forked: list[int] = []
    real_fork = os.fork
    monkeypatch.setattr(usage_pool.os, "fork", lambda: forked.append(1) or real_fork())
    pooled = _report(tree, tmp_path / "pooled.sqlite")
    workers = usage_pool.workers_for(160)
    assert len(forked) == (workers if workers > 1 else 0)  # one fork a worker (none on one core)
    monkeypatch.setattr(usage_pool, "MIN_FILES", 10_000)
    alone = _report(tree, tmp_path / "alone.sqlite")
    assert len(forked) == (workers if workers > 1 else 0) and json.loads(pooled)["total"]["input_tokens"] > 0
    assert pooled == alone


def test_a_worker_that_dies_leaves_its_files_to_this_process(tree: Path, tmp_path: Path, monkeypatch) -> None:
    whole = _report(tree, tmp_path / "whole.sqlite")
    me, real_scan = os.getpid(), usage_pool.scan_usage
    victims = sorted(str(p) for p in tree.rglob("*.jsonl"))[::7]

    def dying_scan(path: str, *args: object) -> object:
        if os.getpid() != me and path in victims:
            os._exit(3)  # a worker killed in the middle of its share
        return real_scan(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(usage_pool, "scan_usage", dying_scan)
    assert usage_pool.workers_for(160) == 1 or _report(tree, tmp_path / "died.sqlite") == whole


def test_no_worker_is_left_after_a_report(tree: Path, tmp_path: Path) -> None:
    before = _children()  # another test's process may still be ending: only new ones count
    _report(tree, tmp_path / "u.sqlite")
    assert multiprocessing.active_children() == []
    assert _children() - before == set()


def _children() -> set[str]:
    me = str(os.getpid())
    return {p for p in os.listdir("/proc") if p.isdigit() and _ppid(p) == me}


def test_no_fork_while_another_thread_runs(tree: Path) -> None:
    assert usage_pool.workers_for(1000) >= 1
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert usage_pool.workers_for(1000) == 1  # the app: Textual's threads are running
    finally:
        stop.set()
        other.join()
    assert usage_pool.workers_for(usage_pool.MIN_FILES - 1) == 1


def test_a_worker_dies_with_its_parent(tmp_path: Path) -> None:
    # A forked worker armed as the pool arms it is SIGKILLed when the process that forked it ends.
    read, write = os.pipe()
    armed_r, armed_w = os.pipe()
    middle = os.fork()
    if middle == 0:  # the "app", which forks a worker and is then killed
        os.close(read)
        worker = os.fork()
        if worker == 0:
            die_with_parent(os.getppid())
            os.write(write, f"{os.getpid()}\n".encode())
            os.write(armed_w, b"x")
            threading.Event().wait(30)
            os._exit(0)
        os.read(armed_r, 1)  # the worker is armed: now the app dies
        os.kill(os.getpid(), 9)
    os.close(armed_w)
    os.close(write)
    with os.fdopen(read) as fh:
        worker_pid = int(fh.readline())
    os.waitpid(middle, 0)
    for _ in range(200):
        if not Path(f"/proc/{worker_pid}").exists() or _state(worker_pid) == "Z":
            break
        threading.Event().wait(0.02)
    assert not Path(f"/proc/{worker_pid}").exists() or _state(worker_pid) == "Z"


def _ppid(pid: str) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
    except OSError:
        return None


def _state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None
