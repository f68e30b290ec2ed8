"""Synthetic config trees built from real transcripts, for tests and benchmarks.

Copies recorded transcripts with every id renamed (so copies are distinct
sessions), optionally growing them with extra turns. Writes only where it is
told to (a temporary directory), never under a real config dir.
"""

from __future__ import annotations

import json
import os
import random
import uuid as uuidlib
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .meta import parse_timestamp
from .paths import encode_project_dir

Record = dict[str, Any]
_ID_KEYS = ("uuid", "parentUuid", "logicalParentUuid", "leafUuid", "sourceToolAssistantUUID", "promptId")
WORDS = (
    "refactor parser index cache widget migrate schema latency flaky deploy branch rebase tokenizer "
    "renderer scheduler payload socket buffer snapshot sidebar palette keymap timeout retry"
).split()


def read_records(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def renamed(records: Iterable[Record], session_id: str, cwd: str | None = None) -> list[Record]:
    """Copies of ``records`` with fresh uuids (links kept consistent) and ``session_id``."""
    mapping: dict[str, str] = {}

    def new(old: str) -> str:
        if old not in mapping:
            mapping[old] = str(uuidlib.uuid4())
        return mapping[old]

    out = []
    for rec in records:
        rec = dict(rec)
        for key in _ID_KEYS:
            if isinstance(rec.get(key), str):
                rec[key] = new(rec[key])
        if "sessionId" in rec:
            rec["sessionId"] = session_id
        if cwd is not None and "cwd" in rec:
            rec["cwd"] = cwd
        out.append(rec)
    return out


def leaf_uuid(records: list[Record]) -> str | None:
    for rec in reversed(records):
        uuid = rec.get("uuid")
        if rec.get("type") in ("user", "assistant") and isinstance(uuid, str):
            return uuid
    return None


def turn_records(session_id: str, parent: str | None, prompt: str, answer: str, *, tool: str | None = None,
                 file_path: str | None = None, msg_id: str | None = None,
                 usage: dict[str, Any] | None = None) -> list[Record]:
    """One user prompt + assistant reply (+ optional tool call and its result), chained; with ``usage``
    the reply's records carry it (and a request id), as the CLI writes them."""
    base = {"isSidechain": False, "sessionId": session_id, "userType": "external", "entrypoint": "cli",
            "cwd": "/home/user/project", "version": "2.1.330", "gitBranch": "main",
            "timestamp": "2026-11-20T10:00:00.000Z"}
    u = str(uuidlib.uuid4())
    recs: list[Record] = [{**base, "parentUuid": parent, "type": "user", "uuid": u,
                           "message": {"role": "user", "content": prompt}}]
    mid = msg_id or f"msg_{uuidlib.uuid4().hex[:12]}"
    a = str(uuidlib.uuid4())
    recs.append({**base, "parentUuid": u, "type": "assistant", "uuid": a, "message": {
        "id": mid, "type": "message", "role": "assistant", "model": "claude-opus-5-5",
        "content": [{"type": "text", "text": answer}], "stop_reason": "end_turn"}})
    if usage is not None:
        recs[-1]["message"]["usage"] = usage
        recs[-1]["requestId"] = f"req_{mid}"
    if tool:
        t = str(uuidlib.uuid4())
        tid = f"toolu_{uuidlib.uuid4().hex[:12]}"
        recs.append({**base, "parentUuid": a, "type": "assistant", "uuid": t, "message": {
            "id": mid, "type": "message", "role": "assistant", "model": "claude-opus-5-5",
            "content": [{"type": "tool_use", "id": tid, "name": tool, "input": {"file_path": file_path or "/tmp/x"}}]}})
        if usage is not None:
            recs[-1]["message"]["usage"] = usage
            recs[-1]["requestId"] = f"req_{mid}"
        r = str(uuidlib.uuid4())
        recs.append({**base, "parentUuid": t, "type": "user", "uuid": r, "sourceToolAssistantUUID": t,
                     "message": {"role": "user",
                                 "content": [{"type": "tool_result", "tool_use_id": tid, "content": "ok"}]},
                     "toolUseResult": {"filePath": file_path or "/tmp/x"}})
    return recs


def write_jsonl(path: Path, records: Iterable[Record], *, compact: bool = True) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    sep = (",", ":") if compact else (", ", ": ")
    with open(path, "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, separators=sep, ensure_ascii=False) + "\n")
    return path


def make_session(project_dir: Path, template: list[Record], *, session_id: str | None = None,
                 extra_turns: int = 0, rng: random.Random | None = None, cwd: str | None = None,
                 tail: list[Record] | None = None, mtime: float | None = None,
                 usage: dict[str, Any] | None = None) -> Path:
    """Write a renamed copy of ``template`` (+ ``extra_turns`` synthetic turns) into ``project_dir``."""
    rng = rng or random.Random(0)
    sid = session_id or str(uuidlib.uuid4())
    records = renamed(template, sid, cwd)
    parent = leaf_uuid(records)
    for i in range(extra_turns):
        words = " ".join(rng.choice(WORDS) for _ in range(12))
        turn = turn_records(sid, parent, f"turn {i}: please {words}", f"Done with {words}. " * 4,
                            tool="Edit" if i % 3 == 0 else None, file_path=f"/src/{rng.choice(WORDS)}_{i % 50}.py",
                            usage=usage)
        records.extend(turn)
        parent = turn[-1]["uuid"]
        # the bookkeeping the CLI appends after every turn
        records.append({"type": "last-prompt", "lastPrompt": turn[0]["message"]["content"], "leafUuid": parent,
                        "sessionId": sid})
        records.append({"type": "cost-state", "sessionId": sid, "totalCostUSD": round(0.01 * (i + 1), 5)})
    records.extend(tail or [])
    path = write_jsonl(project_dir / f"{sid}.jsonl", records)
    if mtime is not None:
        used_at(path, mtime)
    return path


def used_at(path: Path, when: float) -> Path:
    """Make ``path`` a session last used at ``when`` (epoch seconds): every record's timestamp moved
    by the same amount, so the last one in the file is ``when``, and the file's mtime ``when``. Last active is the
    last record's time (the CLI touches the file at every exit), so an mtime alone would not do."""
    records = read_records(path)
    stamps = [parse_timestamp(rec.get("timestamp")) for rec in records]
    last = next((stamp for stamp in reversed(stamps) if stamp is not None), None)  # in file order, as read
    if last is not None:
        for rec, stamp in zip(records, stamps):
            if stamp is not None:
                moved = datetime.fromtimestamp(stamp + when - last, UTC)
                rec["timestamp"] = moved.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moved.microsecond // 1000:03d}Z"
        write_jsonl(path, records)
    os.utime(path, (when, when))
    return path


def build_tree(root: Path, templates: list[list[Record]], *, sessions: int = 2000, projects: int = 50,
               large_every: int = 100, large_turns: int = 4000, extra_turns: int = 40, seed: int = 7,
               usage: dict[str, Any] | None = None) -> list[Path]:
    """``sessions`` transcripts spread over ``projects`` project dirs under ``root/projects``."""
    rng = random.Random(seed)
    paths = []
    now = 1_790_000_000.0
    for i in range(sessions):
        cwd = f"/home/user/work/project-{i % projects}"
        pdir = root / "projects" / encode_project_dir(cwd)
        turns = large_turns if large_every and i % large_every == 0 else rng.randint(0, extra_turns)
        paths.append(make_session(pdir, templates[i % len(templates)], extra_turns=turns, rng=rng, cwd=cwd,
                                  mtime=now - i * 60, usage=usage))
    return paths


def tree_digest(root: Path) -> dict[str, tuple[int, int, str]]:
    """``relative path → (size, mtime_ns, sha256)`` of every file under ``root``."""
    import hashlib

    out: dict[str, tuple[int, int, str]] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            st = path.stat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            out[str(path.relative_to(root))] = (st.st_size, st.st_mtime_ns, digest)
        elif path.is_dir():
            out[str(path.relative_to(root)) + "/"] = (0, 0, "dir")
    return out
