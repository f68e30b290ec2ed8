"""Resuming a large session: transcript -> history on screen, and peak memory, without the CLI.

Generates a transcript of `--mb` MB (turns of a long Markdown answer, every third with an Edit
tool call; the last answer ends with the word `resumedendx`), then times, in one process:
reading it into a conversation (what `claude-tui --resume ID` does before the app starts) and
the app's first screen showing that last word (painted: see benchmarks/replay.py's hook), and
reports the peak RSS of the process (VmHWM). Goal (issue 16): on screen <= 1 s, peak <= 200 MB.

    python benchmarks/resume.py [--mb 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.replay import PaintWatch, WatchedApp  # noqa: E402
from claude_tui.history.synth import turn_records, write_jsonl  # noqa: E402
from claude_tui.resume import load_conversation  # noqa: E402

MARKER = "resumedendx"


def answer_text(tokens: int = 400) -> str:
    """Markdown shaped like the e2e stand-in's long answer: headings, words, code fences."""
    out = []
    for i in range(tokens):
        if i % 50 == 0:
            out.append(f"\n\n## Section {i // 50}\n\n")
        elif i % 17 == 0:
            out.append("\n\n```python\nprint('x')\n```\n\n")
        else:
            out.append(f"token{i} ")
    return "".join(out)


def make_transcript(directory: Path, megabytes: float, cwd: str = "/home/user/project") -> tuple[str, Path, int]:
    """A transcript of about `megabytes` MB; returns (session id, path, records)."""
    sid = str(uuid.uuid4())
    records: list[dict] = []
    parent = None
    answer = answer_text()
    size, turn, goal = 0, 0, megabytes * 1_000_000
    while size < goal:
        last = size + 2 * len(answer) > goal
        turn_recs = turn_records(sid, parent, f"question {turn}", answer + (f"\n\n{MARKER}" if last else ""),
                                 tool="Edit" if turn % 3 == 0 and not last else None,
                                 file_path=f"/home/user/project/f{turn}.py")
        for record in turn_recs:
            record["cwd"] = cwd
        records.extend(turn_recs)
        parent = turn_recs[-1]["uuid"]
        size += sum(len(json.dumps(r)) + 1 for r in turn_recs)
        turn += 1
    return sid, write_jsonl(directory / f"{sid}.jsonl", records), len(records)


def peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def measure(path: Path, sid: str) -> dict[str, float]:
    began = time.perf_counter()
    conversation = load_conversation(sid, path=path)
    assert conversation is not None
    loaded = time.perf_counter() - began
    watch = PaintWatch()
    watch.expect(MARKER)
    app = WatchedApp(watch, conversation)
    async with app.run_test(size=(120, 40)) as pilot:
        while watch.wanted[MARKER] is None:
            if time.perf_counter() - began > 60:
                raise SystemExit("the resumed history's last answer was not painted in 60 s")
            await asyncio.sleep(0.005)
        shown = watch.wanted[MARKER] - began  # type: ignore[operator]
        await pilot.pause(0.3)
    return {"load_s": loaded, "shown_s": shown, "items": len(conversation.items), "peak_mb": peak_mb()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=20)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="resume-bench-") as tmp:
        sid, path, records = make_transcript(Path(tmp), ns.mb)
        size = path.stat().st_size / 1e6
        before = peak_mb()
        result = asyncio.run(measure(path, sid))
    print(f"transcript        {size:.1f} MB, {records:,} records, {int(result['items']):,} items")
    print(f"read              {result['load_s']:.3f} s")
    print(f"history on screen {result['shown_s']:.3f} s   (goal <= 1.0 s)")
    print(f"peak RSS          {result['peak_mb']:.0f} MB (before reading: {before:.0f} MB; goal <= 200 MB)")
    ok = result["shown_s"] <= 1.0 and result["peak_mb"] <= 200
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
