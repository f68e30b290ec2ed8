"""What you see, turn after turn: a recorded 2,000-delta Markdown burst replayed into the app 100 times.

No CLI: the real CLI's recorded stdout (`tests/fixtures/claude-code-2.1.330/long-stream.stdout.ndjson`,
2,000 text deltas with headings and code fences) is posted into the running app the way the
connection worker posts it, as fast as the CLI prints it (64 lines due every 3 ms: the whole answer
in ~0.1 s, as measured from the real CLI; lines that fell due while the app was busy are posted
together, as a read of the pipe finds them). Each turn gets its own message id and words: the
tokens of turn N read `wNx1 wNx2 ...` (first text is the first paint showing one), the last is followed by `endN`.

What counts is what is *painted*: the app runs headless, and every screen update the compositor hands
to the driver is searched for the markers (an update held back by `batch_update` is not painted and
does not count). Printed per 10 turns (medians): Enter -> first answer text on screen, Enter -> last
token on screen, RSS, CPU per turn; then the idle CPU after the run. Lines are 120 columns, 40 rows.

    python benchmarks/replay.py [--turns 100] [--json]

The hook reads `App._display`, Textual's private hand-over of a compositor update to the driver:
there is no public "frame painted" event (benchmark only; the app does not use it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._app import INERT_CLI, rss_mb  # noqa: E402
from claude_tui.config import Config  # noqa: E402
from claude_tui.protocol import decode_line  # noqa: E402
from claude_tui.session.status import Activity  # noqa: E402
from claude_tui.transport.options import CliOptions  # noqa: E402
from claude_tui.ui.app.app import ClaudeTuiApp  # noqa: E402
from claude_tui.ui.chat.connection import CliConnection  # noqa: E402
from tests.pilot.helpers import frame_text  # noqa: E402

RECORDING = ROOT / "tests" / "fixtures" / "claude-code-2.1.330" / "long-stream.stdout.ndjson"
BATCH = 64
BATCH_GAP = 0.003
MAX_POSTED = 256
"""The most lines the connection puts in one message (`connection._MAX_BATCH`)."""
_TOKEN = re.compile(r"token(\d)")


class PaintWatch:
    """Times when given strings are first painted."""

    def __init__(self) -> None:
        self.wanted: dict[str, float | None] = {}
        self.frames = 0

    def expect(self, *needles: str) -> None:
        self.wanted = {needle: None for needle in needles}

    def painted(self, update: Any) -> None:
        self.frames += 1
        pending = [needle for needle, seen in self.wanted.items() if seen is None]
        if not pending:
            return
        text = frame_text(update)
        now = time.perf_counter()
        for needle in pending:
            if needle in text:
                self.wanted[needle] = now


class WatchedApp(ClaudeTuiApp):
    def __init__(self, watch: PaintWatch, conversation: Any = None) -> None:
        super().__init__(CliOptions(cwd="/", command=INERT_CLI), Config(), conversation=conversation)
        self.animation_level = "none"
        self.watch = watch

    def _display(self, screen: Any, renderable: Any) -> None:  # see the module docstring
        if renderable is not None and not self._batch_count:
            self.watch.painted(renderable)
        super()._display(screen, renderable)


def turn_lines(turn: int) -> list[Any]:
    """The recorded stream for one turn, decoded, with this turn's ids and markers."""
    raw = RECORDING.read_text().splitlines()[2:]  # from the status line: the handshake is once per process
    out = []
    for line in raw:
        line = (line.replace("msg_34", f"msg_t{turn}").replace('"uuid":"', f'"uuid":"t{turn}-')
                .replace("token1999 ", f"token1999 end{turn} "))
        line = _TOKEN.sub(f"w{turn}x\\1", line)
        out.append(decode_line(line))
    return out


async def feed(screen: Any, messages: list[Any]) -> None:
    """Post the lines on the CLI's clock, not the app's: `BATCH` lines are due every `BATCH_GAP` s
    from the start, and whatever is due when the app lets the feeder run is posted at once, as the
    connection posts what a read of the pipe found (a long frame does not slow the CLI down)."""
    start, sent = time.perf_counter(), 0
    while sent < len(messages):
        due = min(len(messages), BATCH * (1 + int((time.perf_counter() - start) / BATCH_GAP)))
        while sent < due:
            chunk = messages[sent:min(due, sent + MAX_POSTED)]
            screen.post_message(CliConnection.Events(chunk))
            sent += len(chunk)
        await asyncio.sleep(max(0.0, start + (sent // BATCH) * BATCH_GAP - time.perf_counter()))


def cpu_seconds() -> float:
    return time.process_time()


async def measure(turns: int, wait: float = 60.0) -> dict[str, Any]:
    watch = PaintWatch()
    app = WatchedApp(watch)
    rows: list[dict[str, float]] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        screen = app.chat
        assert screen is not None
        screen.session.conversation.status.activity = Activity.IDLE
        rss0 = rss_mb()
        for turn in range(1, turns + 1):
            messages = turn_lines(turn)
            first, last = f"w{turn}x", f"end{turn}"
            watch.expect(first, last, "idle")
            cpu0 = cpu_seconds()
            start = time.perf_counter()
            await screen.prompt_area.send_prompt(f"question {turn}")
            await feed(screen, messages)
            while watch.wanted[last] is None or watch.wanted[first] is None:
                if time.perf_counter() - start > wait:
                    break
                await asyncio.sleep(0.002)
            if watch.wanted[last] is None or watch.wanted[first] is None:
                print(f"turn {turn}: the answer was not painted in {wait:.0f} s: stopping here", file=sys.stderr)
                break
            while screen.session.busy or watch.wanted["idle"] is None:
                if time.perf_counter() - start > wait:
                    break
                await asyncio.sleep(0.002)
            await pilot.pause()
            idle_at = watch.wanted["idle"]
            rows.append({
                "turn": turn,
                "first_s": watch.wanted[first] - start,  # type: ignore[operator]
                "last_s": watch.wanted[last] - start,  # type: ignore[operator]
                "rss_mb": rss_mb(),
                "cpu_s": cpu_seconds() - cpu0,
                # The status bar must say the turn runs until the answer is on screen.
                "idle_early": float(idle_at is not None and idle_at < watch.wanted[last]),  # type: ignore[operator]
            })
        await pilot.pause(1.0)
        idle_from = cpu_seconds()
        await asyncio.sleep(5.0)
        idle_cpu_per_min = (cpu_seconds() - idle_from) * 12
    return {"turns": rows, "rss_start_mb": rss0, "idle_cpu_s_per_min": idle_cpu_per_min, "asked": turns}


def curve(rows: list[dict[str, float]]) -> list[dict[str, float]]:
    """Medians per block of 10 turns (the first block of a short run is what there is)."""
    out = []
    for begin in range(0, len(rows), 10):
        block = rows[begin:begin + 10]
        out.append({
            "turns": f"{block[0]['turn']}-{block[-1]['turn']}",
            "first_s": statistics.median(r["first_s"] for r in block),
            "last_s": statistics.median(r["last_s"] for r in block),
            "rss_mb": block[-1]["rss_mb"],
            "cpu_s": statistics.median(r["cpu_s"] for r in block),
        })
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    ns = parser.parse_args()
    began = time.perf_counter()
    result = asyncio.run(measure(ns.turns))
    rows = result["turns"]
    if ns.json:
        print(json.dumps(result))
        return 0
    print(f"replay: {ns.turns} turns of a 2,000-delta Markdown burst, 120x40, pid {os.getpid()}")
    print(f"{'turns':>8} {'first text':>11} {'last token':>11} {'RSS':>8} {'CPU/turn':>9}")
    blocks = curve(rows)
    for block in blocks:
        print(f"{block['turns']:>8} {block['first_s']:>10.3f}s {block['last_s']:>10.3f}s "
              f"{block['rss_mb']:>6.0f}MB {block['cpu_s']:>8.3f}s")
    early = sum(int(r["idle_early"]) for r in rows)
    print(f"turns whose status bar said idle before the last token was painted: {early}")
    print(f"RSS at start {result['rss_start_mb']:.0f} MB; idle CPU after the run "
          f"{result['idle_cpu_s_per_min']:.2f} s/min; wall {time.perf_counter() - began:.1f} s")
    ok = len(rows) == result["asked"] and not early
    if len(blocks) >= 3:
        tenth, end = blocks[0], blocks[-1]
        flat = end["last_s"] / tenth["last_s"]
        print(f"flatness, last block / first block: last token {flat:.2f}x, "
              f"CPU {end['cpu_s'] / tenth['cpu_s']:.2f}x (goal <= 1.2x)")
        ok = ok and flat <= 1.2 and end["rss_mb"] <= 200
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
