"""Session browser speed: listing (cold/warm), full-text search, transcript loading.

Builds its own synthetic tree from the recorded transcripts in
``tests/fixtures/claude-code-2.1.330/sessions`` (ids renamed, extra turns
added, some sessions large), then measures against the goals of issue 7:

- first paint of the list with a warm index <= 100 ms (2,000 sessions / ~700 MB)
- a cold listing in at most half the time of ``claude_agent_sdk.list_sessions()``
  on the same tree, measured in the same run
- full-text search p95 <= 50 ms
- loading a 5,000-message transcript for resume <= 1 s (the load; painting is the UI's)

Usage: python benchmarks/sessions.py [--sessions 2000] [--projects 50] [--dir DIR] [--keep]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from claude_tui.history.index import SessionIndex  # noqa: E402
from claude_tui.history.names import NameStore  # noqa: E402
from claude_tui.history.synth import build_tree, make_session, read_records  # noqa: E402
from claude_tui.history.transcript import load_transcript  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures" / "claude-code-2.1.330" / "sessions" / "-home-user-project"
QUERIES = ["kw", "follow-up after resume", "Edit", "a.txt", "scheduler", "renderer snapshot", "tok", "hello",
           "zzzznotthere", "platypus"]


def tree_size(root: Path) -> tuple[int, int]:
    n = total = 0
    for p in (root / "projects").rglob("*.jsonl"):
        n += 1
        total += p.stat().st_size
    return n, total


def timed(fn, repeat: int = 1) -> tuple[float, object]:
    best = float("inf")
    result = None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=2000)
    ap.add_argument("--projects", type=int, default=50)
    ap.add_argument("--large-every", type=int, default=50, help="every Nth session is large")
    ap.add_argument("--large-turns", type=int, default=4000)
    ap.add_argument("--dir", type=Path, help="reuse/keep the tree here")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()

    work = args.dir or Path(tempfile.mkdtemp(prefix="ctui-bench-"))
    root = work / "claude"
    templates = [read_records(p) for p in sorted(FIXTURES.glob("*.jsonl"))]
    try:
        if not (root / "projects").is_dir():
            t, _ = timed(lambda: build_tree(root, templates, sessions=args.sessions, projects=args.projects,
                                            large_every=args.large_every, large_turns=args.large_turns))
            print(f"built tree in {t:.1f}s")
        for stale in work.glob("*.sqlite*"):
            stale.unlink()
        n, total = tree_size(root)
        print(f"tree: {n} sessions, {total / 1e6:.0f} MB, {args.projects} projects under {root}")

        # -- claude_agent_sdk.list_sessions() on the same tree ------------------------
        os.environ["CLAUDE_CONFIG_DIR"] = str(root)
        try:
            from claude_agent_sdk import list_sessions
        except ImportError:
            list_sessions = None
        sdk_t = None
        if list_sessions is not None:
            sdk_t, sdk_rows = timed(list_sessions, repeat=3)
            print(f"sdk list_sessions():            {sdk_t * 1000:8.1f} ms ({len(sdk_rows)} sessions)")

        # -- cold listing: empty index -------------------------------------------------
        names = NameStore(work / "names.json")
        cold_times = []
        for i in range(3):
            db = work / f"cold-{i}.sqlite"

            def cold(db: Path = db) -> int:
                with SessionIndex(db, root=root, names=names) as idx:
                    return len(idx.list_sessions(all_projects=True))

            t, count = timed(cold)
            cold_times.append(t)
            db.unlink()
        cold_t = statistics.median(cold_times)
        print(f"cold listing (index build):     {cold_t * 1000:8.1f} ms ({count} sessions)")

        # -- warm index -----------------------------------------------------------------
        db = work / "warm.sqlite"
        idx = SessionIndex(db, root=root, names=names)
        idx.list_sessions(all_projects=True)
        paint_t, rows = timed(lambda: idx.sessions(), repeat=5)
        print(f"warm first paint (index query): {paint_t * 1000:8.1f} ms ({len(rows)} rows)")
        reval_t, rows = timed(lambda: idx.list_sessions(all_projects=True), repeat=5)
        print(f"warm listing (revalidate+list): {reval_t * 1000:8.1f} ms")
        proj = idx.project_dirs("/home/user/work/project-1")
        proj_t, prow = timed(lambda: idx.list_sessions("/home/user/work/project-1"), repeat=5)
        print(f"warm listing, one project:      {proj_t * 1000:8.1f} ms ({len(prow)} rows)")

        # -- content index + search --------------------------------------------------------
        build_t, done = timed(lambda: idx.index_content())
        print(f"full-text index build:          {build_t:8.2f} s  ({done} files, background worker)")
        latencies = []
        for _ in range(20):
            for q in QUERIES:
                t = time.perf_counter()
                idx.search(q)
                latencies.append(time.perf_counter() - t)
        for q in QUERIES:
            t = time.perf_counter()
            idx.search(q, proj)
            latencies.append(time.perf_counter() - t)
        latencies.sort()
        p50 = latencies[len(latencies) // 2]
        p95 = latencies[int(len(latencies) * 0.95)]
        print(f"search latency: p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
              f"max {latencies[-1] * 1000:.1f} ms ({len(latencies)} queries)")
        # incremental: touch one file
        victim = Path(rows[len(rows) // 2].path)
        with open(victim, "a") as fh:
            fh.write('{"type":"user","uuid":"bench-append","message":{"role":"user","content":"appended platypus"}}\n')
        inc_t, _ = timed(lambda: (idx.refresh(), idx.index_content()))
        print(f"one appended file: revalidate + reindex {inc_t * 1000:.1f} ms")
        idx.close()

        # -- resume: a 5,000-message transcript -----------------------------------------------
        big = make_session(work / "resume", templates[0], extra_turns=2500)
        load_t, tr = timed(lambda: load_transcript(big), repeat=3)
        n_msgs = len(tr.messages())
        print(f"load {n_msgs}-message transcript ({big.stat().st_size / 1e6:.1f} MB): {load_t * 1000:.0f} ms")

        print()
        print("goals:")
        print(f"  {verdict(paint_t <= 0.100)}  warm first paint {paint_t * 1000:.1f} ms <= 100 ms")
        print(f"  {verdict(reval_t <= 0.100)}  warm revalidate+list {reval_t * 1000:.1f} ms <= 100 ms"
              " (stricter reading)")
        if sdk_t is not None:
            print(f"  {verdict(cold_t <= sdk_t / 2)}  cold listing {cold_t * 1000:.0f} ms"
                  f" <= half of sdk {sdk_t * 1000:.0f} ms (ratio {cold_t / sdk_t:.2f})")
        else:
            print("  SKIP  cold listing vs claude_agent_sdk (not installed: pip install claude-agent-sdk)")
        print(f"  {verdict(p95 <= 0.050)}  search p95 {p95 * 1000:.1f} ms <= 50 ms")
        print(f"  {verdict(load_t <= 1.0 and n_msgs >= 5000)}  load {n_msgs}-message transcript"
              f" {load_t * 1000:.0f} ms <= 1000 ms")
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
