"""Peak memory (RSS) of indexing and of resuming one large transcript (issue 15, item 5).

Builds two ~20 MB transcripts in a temporary directory, in the real CLI's record shapes:
``large`` (turns with Read/Bash calls whose results are a few KB to 40 KB, thinking,
answers: ~1,600 records) and ``many`` (the recorded fixture session grown by thousands of
short turns: ~40,000 records, where per-record overhead dominates). Each step runs in a
fresh Python process and reports its peak RSS (``VmHWM``), so one step's garbage does not
count against the next:

- ``index``: list it (head/tail metadata) and build its full-text index and count
- ``load``:  read the transcript's main chain (what a resume or export reads)
- ``resume``: read it and replay it into a conversation (what ``--resume`` shows)

Goal: each under 300 MB. Usage: python benchmarks/transcript_memory.py [--mb 20]
(before the streaming reads: load 95 MB / 167 MB and resume 96 MB / 169 MB for large / many)
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import uuid as uuidlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GOAL_MB = 300
SID = "5e551011-2222-3333-4444-555555555555"
WORDS = ("alpha beta gamma delta parser index cache widget schema latency deploy branch rebase tokenizer "
         "renderer scheduler payload socket buffer snapshot").split()


def _base() -> dict:
    return {"isSidechain": False, "sessionId": SID, "userType": "external", "entrypoint": "cli",
            "cwd": "/home/user/project", "version": "2.1.330", "gitBranch": "main",
            "timestamp": "2026-11-20T10:00:00.000Z"}


def build_many(path: Path, megabytes: float) -> int:
    """The recorded fixture session grown by short synthetic turns until it holds ``megabytes``."""
    from claude_tui.history.synth import make_session, read_records

    fixture = REPO / "tests" / "fixtures" / "claude-code-2.1.330" / "sessions" / "-home-user-project"
    template = read_records(fixture / "1371d147-61d8-4b34-beff-86ba0e32e82d.jsonl")
    turns = int(megabytes * 1e6 / 2100)  # about 2.1 KB a synthetic turn
    make_session(path.parent, template, session_id=SID, extra_turns=turns)
    return sum(1 for _ in open(path, "rb"))


def build(path: Path, megabytes: float) -> int:
    """Write turns until the file holds ``megabytes``; returns the number of records."""
    rng = random.Random(3)
    parent = None
    count = 0
    with open(path, "w", encoding="utf-8") as fh:
        def put(rec: dict) -> None:
            nonlocal count
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
            count += 1

        turn = 0
        while fh.tell() < megabytes * 1e6:
            u = str(uuidlib.uuid4())
            put({**_base(), "type": "user", "uuid": u, "parentUuid": parent,
                 "message": {"role": "user", "content": f"turn {turn}: " + " ".join(rng.choices(WORDS, k=20))}})
            mid = f"msg_{turn}"
            t = str(uuidlib.uuid4())
            put({**_base(), "type": "assistant", "uuid": t, "parentUuid": u, "message": {
                "id": mid, "role": "assistant", "model": "claude-opus-5-5", "type": "message",
                "content": [{"type": "thinking", "thinking": " ".join(rng.choices(WORDS, k=60)), "signature": "s"}]}})
            parent = t
            for call in range(rng.randint(1, 3)):
                tid = f"toolu_{turn}_{call}"
                a = str(uuidlib.uuid4())
                name = rng.choice(("Read", "Bash"))
                inp = {"file_path": f"/src/{rng.choice(WORDS)}.py"} if name == "Read" else {"command": "ls -la"}
                put({**_base(), "type": "assistant", "uuid": a, "parentUuid": parent, "message": {
                    "id": mid, "role": "assistant", "model": "claude-opus-5-5", "type": "message",
                    "content": [{"type": "tool_use", "id": tid, "name": name, "input": inp}]}})
                body = "\n".join(f"{i:5}  " + " ".join(rng.choices(WORDS, k=8)) for i in range(rng.randint(40, 700)))
                r = str(uuidlib.uuid4())
                structured = ({"type": "text", "file": {"filePath": inp.get("file_path"), "content": body}}
                              if name == "Read" else {"stdout": body, "stderr": "", "interrupted": False})
                put({**_base(), "type": "user", "uuid": r, "parentUuid": a, "sourceToolAssistantUUID": a,
                     "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tid,
                                                              "content": body}]},
                     "toolUseResult": structured})
                parent = r
            e = str(uuidlib.uuid4())
            put({**_base(), "type": "assistant", "uuid": e, "parentUuid": parent, "message": {
                "id": mid, "role": "assistant", "model": "claude-opus-5-5", "type": "message",
                "content": [{"type": "text", "text": "Done: " + " ".join(rng.choices(WORDS, k=40))}]}})
            parent = e
            put({"type": "last-prompt", "lastPrompt": f"turn {turn}", "sessionId": SID})
            turn += 1
        put({"type": "cost-state", "sessionId": SID, "totalCostUSD": 12.5})
    return count


STEPS = {
    "index": """
from claude_tui.history.index import SessionIndex
from claude_tui.history.names import NameStore
with SessionIndex(work / "i.sqlite", root=root, names=NameStore(work / "n.json")) as idx:
    rows = idx.list_sessions(all_projects=True)
    idx.index_content()
    detail = f"{idx.message_count(rows[0]):,} messages"
""",
    "load": """
from claude_tui.history.transcript import load_transcript
t = load_transcript(path)
detail = f"{len(t.records):,} chain records"
""",
    "resume": """
from claude_tui.resume import load_conversation
c = load_conversation("", path=path)
detail = f"{len(c.items):,} items"
""",
}

RUNNER = """
import sys, time
from pathlib import Path
sys.path.insert(0, {repo!r})
work, root, path = Path({work!r}), Path({root!r}), Path({path!r})
started = time.perf_counter()
{body}
# VmHWM, not ru_maxrss: on Linux ru_maxrss carries the parent's peak across fork + exec.
hwm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(hwm / 1024, time.perf_counter() - started, detail)
"""


def measure(work: Path, root: Path, path: Path) -> bool:
    baseline = subprocess.run([sys.executable, "-c", RUNNER.format(repo=str(REPO), work=str(work), root=str(root),
                               path=str(path), body="detail = ''")], capture_output=True, text=True, check=True)
    print(f"  python + imports alone: {float(baseline.stdout.split()[0]):.0f} MB")
    ok = True
    for name, body in STEPS.items():
        for stale in work.glob("i.sqlite*"):
            stale.unlink()
        code = RUNNER.format(repo=str(REPO), work=str(work), root=str(root), path=str(path), body=body)
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if run.returncode:
            print(f"  {name}: failed\n{run.stderr[-2000:]}")
            ok = False
            continue
        peak, seconds, *detail = run.stdout.split(maxsplit=2)
        good = float(peak) <= GOAL_MB
        ok &= good
        print(f"  {'PASS' if good else 'FAIL'}  {name:7} peak RSS {float(peak):6.0f} MB  ({float(seconds):.2f} s, "
              f"{' '.join(detail).strip()})  goal <= {GOAL_MB} MB")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=float, default=20.0, help="transcript size in MB (default 20)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ctui-mem-"))
    try:
        ok = True
        for shape, builder in (("large", build), ("many", build_many)):
            root = work / shape / "claude"
            path = root / "projects" / "-home-user-project" / f"{SID}.jsonl"
            path.parent.mkdir(parents=True)
            records = builder(path, args.mb)
            print(f"{shape}: transcript {path.stat().st_size / 1e6:.1f} MB, {records:,} records")
            ok &= measure(work, root, path)
        return 0 if ok else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
