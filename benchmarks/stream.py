"""Streaming smoothness: deltas replayed into the running app at a fixed rate.

Reports p50/p99 event-loop lag while streaming, the time from the first delta until
answer text is painted, and the catch-up time from the last delta until the last one is
painted on screen (the compositor's updates are searched for it; see benchmarks/replay.py).
Goal (issue 3): 1,000 deltas/s with p99 lag < 50 ms and catch-up <= 0.25 s.

    python benchmarks/stream.py [--rate 1000] [--deltas 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.replay import PaintWatch, WatchedApp  # noqa: E402
from claude_tui.protocol import decode_obj  # noqa: E402
from claude_tui.session.status import Activity  # noqa: E402
from claude_tui.ui.chat.connection import CliConnection  # noqa: E402

# Shaped like a model's answer: token-sized deltas, paragraphs of ~60 tokens,
# now and then a list or a fenced code block.
_PARAGRAPH = ["The ", "parser ", "reads ", "each ", "line, ", "keeps ", "**state** ", "between ", "calls ", "and "] * 6
_LIST = ["\n\n- ", "first ", "point\n- ", "second ", "point ", "with `code`\n\n"]
_CODE = ["```python\n", "def ", "f(x):\n", "    return ", "x + 1\n", "```\n\n"]


def answer_deltas(count: int) -> list[str]:
    pattern = _PARAGRAPH + ["done.\n\n"] + _PARAGRAPH + _LIST + _PARAGRAPH + ["so:\n\n"] + _CODE
    # Framed by words found nowhere else: when each is painted is what is timed.
    return ["firstwordx "] + [pattern[i % len(pattern)] for i in range(count - 2)] + [" lastwordx"]


def event(kind: str, **fields: object) -> dict[str, object]:
    return {"type": "stream_event", "event": {"type": kind, **fields}, "session_id": "bench",
            "parent_tool_use_id": None, "api_message_id": "msg_bench"}


async def measure(rate: int, count: int) -> dict[str, float]:
    watch = PaintWatch()
    app = WatchedApp(watch)
    lags: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        screen = app.chat
        assert screen is not None
        screen.session.conversation.status.activity = Activity.IDLE
        await screen.show_changes(screen.session.conversation.add_user_prompt("benchmark"))
        deltas = answer_deltas(count)
        start_msgs = [event("message_start", message={"id": "msg_bench", "usage": {}}),
                      event("content_block_start", index=0, content_block={"type": "text", "text": ""})]
        screen.post_message(CliConnection.Events([decode_obj(m) for m in start_msgs]))

        stop = False

        async def probe() -> None:
            # Event-loop lag: how late a 5 ms sleep wakes up.
            while not stop:
                before = time.perf_counter()
                await asyncio.sleep(0.005)
                lags.append(time.perf_counter() - before - 0.005)

        probe_task = asyncio.create_task(probe())
        # Decoded up front: decoding speed is benchmarks/decode.py's subject; here
        # the question is how the UI keeps up.
        messages = [decode_obj(event("content_block_delta", index=0, delta={"type": "text_delta", "text": text}))
                    for text in deltas]
        interval = 1.0 / rate
        watch.expect("firstwordx", "lastwordx")
        begin = time.perf_counter()
        batch: list[object] = []
        for index, message in enumerate(messages):
            batch.append(message)
            due = begin + (index + 1) * interval
            now = time.perf_counter()
            if due > now or len(batch) >= 64:
                # Like the worker: what arrived since the last wake-up is one batch,
                # and the reader yields to the loop between reads.
                screen.post_message(CliConnection.Events(batch))
                batch = []
                await asyncio.sleep(max(0.0, due - now))
        if batch:
            screen.post_message(CliConnection.Events(batch))
        last_sent = time.perf_counter()
        send_seconds = last_sent - begin
        while watch.wanted["lastwordx"] is None:
            if time.perf_counter() - last_sent > 30:
                raise SystemExit("the stream's last delta was not painted within 30 s")
            await asyncio.sleep(0.002)
        catch_up = watch.wanted["lastwordx"] - last_sent  # type: ignore[operator]
        first_text = watch.wanted["firstwordx"] - begin  # type: ignore[operator]
        stop = True
        await probe_task
    lags.sort()
    return {
        "deltas": count,
        "achieved_rate": count / send_seconds,
        "p50_lag_ms": statistics.median(lags) * 1000,
        "p99_lag_ms": lags[int(len(lags) * 0.99) - 1] * 1000,
        "catch_up_s": catch_up,
        "first_text_s": first_text,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=int, default=1000, help="deltas per second (default 1000)")
    parser.add_argument("--deltas", type=int, default=3000, help="number of deltas (default 3000)")
    ns = parser.parse_args()
    result = asyncio.run(measure(ns.rate, ns.deltas))
    print(f"deltas           {result['deltas']:>10,}")
    print(f"achieved rate    {result['achieved_rate']:>10,.0f} /s   (target {ns.rate:,}/s)")
    print(f"event-loop lag   p50 {result['p50_lag_ms']:.1f} ms   p99 {result['p99_lag_ms']:.1f} ms"
          "   (goal p99 < 50 ms)")
    print(f"first text       {result['first_text_s']:.3f} s after the first delta (painted)")
    print(f"catch-up         {result['catch_up_s']:.3f} s   (last delta sent -> painted; goal <= 0.25 s)")
    ok = result["p99_lag_ms"] < 50 and result["catch_up_s"] <= 0.25 and result["achieved_rate"] >= ns.rate * 0.9
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
