"""Long sessions: the cost of appending a message at 50 vs 5,000 messages, and memory.

Each turn is a prompt and a long Markdown answer (~1.6 KB: headings, words, code fences);
its cost is timed until the answer's last word is painted on screen (see benchmarks/replay.py).
Goal (issue 3): append cost at 5,000 <= 1.5x that at 50. The chat log keeps a
bounded number of widgets mounted, so the cost should not grow.

    python benchmarks/long_session.py [--messages 5000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._app import rss_mb  # noqa: E402
from benchmarks.replay import PaintWatch, WatchedApp  # noqa: E402
from benchmarks.resume import answer_text  # noqa: E402
from claude_tui.protocol import decode_obj  # noqa: E402
from claude_tui.session.status import Activity  # noqa: E402
from claude_tui.ui.log.chat_log import ChatLog  # noqa: E402

ANSWER = answer_text(200)


def assistant(index: int) -> dict[str, object]:
    return {"type": "assistant", "session_id": "bench", "parent_tool_use_id": None,
            "message": {"id": f"msg_{index}", "role": "assistant", "model": "claude-opus-5-5",
                        "content": [{"type": "text", "text": f"{ANSWER}\n\nend{index}x"}]}}


def result(index: int) -> dict[str, object]:
    return {"type": "result", "subtype": "success", "is_error": False, "session_id": "bench",
            "total_cost_usd": 0.001 * index, "num_turns": 1, "result": ANSWER}


async def append_pair(screen, index: int) -> None:  # type: ignore[no-untyped-def]
    """One turn: the prompt, the answer, and the result that ends it (as in a real session)."""
    await screen.show_changes(screen.session.conversation.add_user_prompt(f"question {index}"))
    await screen.show_changes(screen.session.conversation.apply(decode_obj(assistant(index))))
    await screen.show_changes(screen.session.conversation.apply(decode_obj(result(index))))
    screen.session.conversation.status.activity = Activity.IDLE


async def measure(total: int, sample: int = 50) -> dict[str, float]:
    watch = PaintWatch()
    app = WatchedApp(watch)
    results: dict[str, float] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        screen = app.chat
        screen.session.conversation.status.activity = Activity.IDLE
        log = screen.query_one(ChatLog)
        checkpoints = {25: "at_50", total // 2 - sample // 2: "at_total"}
        pairs = total // 2
        index = 0
        rss_start = rss_mb()
        while index < pairs:
            label = checkpoints.get(index)
            if label:
                timings = []
                for _ in range(sample // 2):
                    watch.expect(f"end{index}x")
                    start = time.perf_counter()
                    await append_pair(screen, index)
                    while watch.wanted[f"end{index}x"] is None:  # until the answer's end is painted
                        if time.perf_counter() - start > 30:
                            raise SystemExit(f"answer {index} was not painted in 30 s")
                        await asyncio.sleep(0.001)
                    timings.append((watch.wanted[f"end{index}x"] - start) / 2)  # type: ignore[operator]
                    index += 1
                results[label] = statistics.median(timings)
                continue
            await append_pair(screen, index)
            index += 1
            if index % 10 == 0:  # let the log keep up: a long backlog of mounts outlasts Pilot's 30 s wait
                await pilot.pause()
        results["mounted"] = log.mounted_count
        results["messages"] = len(screen.session.conversation.items)
        results["rss_start_mb"] = rss_start
        results["rss_end_mb"] = rss_mb()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=5000)
    ns = parser.parse_args()
    result = asyncio.run(measure(ns.messages))
    ratio = result["at_total"] / result["at_50"]
    print(f"messages in the log     {int(result['messages']):>8,}")
    print(f"widgets mounted         {int(result['mounted']):>8,}")
    print(f"append cost at 50       {result['at_50'] * 1000:8.2f} ms")
    print(f"append cost at {ns.messages:<8,} {result['at_total'] * 1000:8.2f} ms   ratio {ratio:.2f} (goal <= 1.5)")
    print(f"RSS                     {result['rss_start_mb']:.0f} MB -> {result['rss_end_mb']:.0f} MB")
    print("PASS" if ratio <= 1.5 else "FAIL")
    return 0 if ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
