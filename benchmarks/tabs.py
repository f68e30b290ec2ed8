"""Tabs (issue 19): what several open sessions cost, against the issue's budgets.

Three measurements, each in the running app (headless, 120x40, animations off):

* **idle**: one tab, then 8, each with its own fake CLI (`claude_tui.fakecli`, answering the
  handshake like the real one), all idle. RSS of claude-tui (not its CLIs) with 1 and with 8 tabs
  -> what each extra tab adds; then the CPU claude-tui uses over `--idle-seconds` with 8 idle tabs.
  Budgets: < 1 % of a core in total; <= 40 MB per extra tab.
* **switch**: two tabs of 2,000 messages each (1,000 prompts and long Markdown answers, opened the
  way a resumed session is), Alt+1 / Alt+2 back and forth: key -> the new tab's last answer
  painted. Budget: <= 50 ms (median and p95 printed).
* **typing**: typing in the tab in view (a key every 30 ms) while another tab streams 1,000
  deltas/s in the background: key -> the new prompt text painted; p99, against the same typing
  with nothing streaming. Budget: p99 <= 50 ms.

"Painted" is what the compositor hands to the driver, as in benchmarks/replay.py (whose hook on
Textual's private `App._display` this reuses; benchmark only). Keys are posted as
`events.Key` messages, as the driver posts them.

    python benchmarks/tabs.py [--only idle|switch|typing] [--idle-seconds 10] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import string
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._app import INERT_CLI, rss_mb  # noqa: E402
from benchmarks.replay import PaintWatch, WatchedApp  # noqa: E402
from benchmarks.resume import answer_text  # noqa: E402
from benchmarks.stream import answer_deltas, event  # noqa: E402
from claude_tui import fakecli  # noqa: E402
from claude_tui.config import Config  # noqa: E402
from claude_tui.protocol import decode_obj  # noqa: E402
from claude_tui.session.conversation import Conversation  # noqa: E402
from claude_tui.session.status import Activity  # noqa: E402
from claude_tui.transport.options import CliOptions  # noqa: E402
from claude_tui.ui.app.app import ClaudeTuiApp  # noqa: E402
from claude_tui.ui.chat.connection import CliConnection  # noqa: E402
from claude_tui.ui.chat.session import fresh_options  # noqa: E402
from claude_tui.ui.chat.view import ChatView  # noqa: E402

SIZE = (120, 40)
TABS = 8
MESSAGES = 2000
BUDGET_IDLE_CPU = 0.01  # of one core, all tabs together
BUDGET_RSS_PER_TAB_MB = 40.0
BUDGET_SWITCH_S = 0.050
BUDGET_KEY_P99_S = 0.050
ANSWER = answer_text(200)


async def wait_until(predicate: Any, what: str, timeout: float = 60.0) -> None:
    deadline = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > deadline:
            raise SystemExit(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.01)


def views(app: ClaudeTuiApp) -> list[ChatView]:
    screen = app.chat_screen
    assert screen is not None
    return screen.views


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


# -- idle ---------------------------------------------------------------------------------------
async def measure_idle(idle_seconds: float) -> dict[str, float]:
    project = Path(tempfile.mkdtemp(prefix="claude-tui-bench-tabs-"))
    options = CliOptions(cwd=str(project), command=fakecli.command(), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    app = ClaudeTuiApp(options, Config())
    app.animation_level = "none"

    def all_idle() -> bool:
        return all(view.session.conversation.status.activity is Activity.IDLE for view in views(app))

    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: app.chat_screen is not None and views(app) and all_idle(), "the first tab ready")
        await pilot.pause(2.0)
        gc.collect()
        rss_one = rss_mb()
        cpu_one = await idle_cpu(idle_seconds)
        for _ in range(TABS - 1):
            await app.open_session(fresh_options(app.options), new_tab=True)
            await wait_until(lambda: all_idle(), "the new tab ready")
        await wait_until(lambda: len(views(app)) == TABS and all_idle(), f"{TABS} idle tabs")
        await pilot.pause(2.0)  # the turn-end sweeps and the first paints are over
        gc.collect()
        rss_all = rss_mb()
        cpu = await idle_cpu(idle_seconds)
    return {"rss_one_mb": rss_one, "rss_all_mb": rss_all, "per_tab_mb": (rss_all - rss_one) / (TABS - 1),
            "idle_cpu_one": cpu_one, "idle_cpu": cpu, "tabs": TABS}


async def idle_cpu(seconds: float) -> float:
    """claude-tui's CPU time over `seconds` of doing nothing, as a fraction of one core."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    await asyncio.sleep(seconds)
    return (time.process_time() - cpu0) / (time.perf_counter() - wall0)


# -- switching ----------------------------------------------------------------------------------
def long_conversation(tab: str, messages: int) -> Conversation:
    """`messages` messages: prompts and long Markdown answers; the last answer ends with `{tab}endx`."""
    conversation = Conversation()
    for index in range(messages // 2):
        last = index == messages // 2 - 1
        conversation.add_user_prompt(f"question {index} in {tab}")
        conversation.apply(decode_obj({
            "type": "assistant", "session_id": f"bench-{tab}", "parent_tool_use_id": None,
            "message": {"id": f"msg_{tab}_{index}", "role": "assistant", "model": "claude-opus-5-5",
                        "content": [{"type": "text", "text": ANSWER + (f"\n\n{tab}endx" if last else "")}]}}))
        conversation.apply(decode_obj({
            "type": "result", "subtype": "success", "is_error": False, "session_id": f"bench-{tab}",
            "total_cost_usd": 0.001 * index, "num_turns": 1, "result": "ok"}))
    conversation.status.activity = Activity.IDLE
    return conversation


async def measure_switch(messages: int, switches: int) -> dict[str, float]:
    watch = PaintWatch()
    first = long_conversation("taba", messages)
    app = WatchedApp(watch, conversation=first)
    times: list[float] = []
    cpu: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        watch.expect("tabaendx")
        await wait_until(lambda: watch.wanted["tabaendx"] is not None, "tab 1's last answer painted")
        watch.expect("tabbendx")
        second = long_conversation("tabb", messages)
        gc.collect()
        rss_before = rss_mb()
        await app.open_session(CliOptions(cwd="/", command=INERT_CLI), second, new_tab=True)
        await wait_until(lambda: watch.wanted["tabbendx"] is not None, "tab 2's last answer painted")
        await pilot.pause(1.0)
        gc.collect()
        rss_tab = rss_mb() - rss_before  # the tab's widgets and caches (its conversation existed before)
        for view in views(app):
            view.session.conversation.status.activity = Activity.IDLE  # the inert CLI never says so
        await pilot.pause(1.0)
        for turn in range(switches):
            key, marker = ("alt+1", "tabaendx") if turn % 2 == 0 else ("alt+2", "tabbendx")
            watch.expect(marker)
            cpu0, start = time.thread_time(), time.perf_counter()
            await pilot.press(key)
            await wait_until(lambda marker=marker: watch.wanted[marker] is not None,  # type: ignore[misc]
                             f"{marker} painted after {key}", 10)
            times.append(watch.wanted[marker] - start)  # type: ignore[operator]
            await pilot.pause(0.3)  # what the switch still does after its first frame counts as its work too
            # The event loop's own work (its thread's CPU), whatever else the machine runs; less the
            # pause's idle wake-ups, which are negligible (no timer runs in idle tabs).
            cpu.append(time.thread_time() - cpu0)
    return {"median_s": statistics.median(times), "p95_s": percentile(times, 0.95), "max_s": max(times),
            "cpu_median_s": statistics.median(cpu), "switches": len(times), "messages": messages,
            "rss_tab_mb": rss_tab}


# -- typing while another tab streams ----------------------------------------------------------
async def type_and_time(app: ClaudeTuiApp, watch: PaintWatch, keys: int, gap: float) -> list[float]:
    from textual import events

    prompt = app.chat.prompt_area.prompt  # type: ignore[union-attr]
    rng = random.Random(19)
    typed = ""
    delays: list[float] = []
    for _ in range(keys):
        if len(typed) >= 60:  # stay on one line of the prompt
            prompt.clear()
            typed = ""
            await asyncio.sleep(0.1)
        character = rng.choice(string.ascii_lowercase)
        typed += character
        needle = typed[-12:] if len(typed) >= 6 else None
        if needle:
            watch.expect(needle)
        start = time.perf_counter()
        app.post_message(events.Key(character, character))
        if needle:
            deadline = start + 5
            while watch.wanted[needle] is None and time.perf_counter() < deadline:
                await asyncio.sleep(0.0005)
            seen = watch.wanted[needle]
            delays.append((seen if seen is not None else deadline) - start)
        await asyncio.sleep(max(0.0, start + gap - time.perf_counter()))
    return delays


async def measure_typing(rate: int, keys: int, gap: float) -> dict[str, float]:
    watch = PaintWatch()
    app = WatchedApp(watch)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        await app.open_session(CliOptions(cwd="/", command=INERT_CLI), new_tab=True)
        await pilot.pause(0.3)
        for view in views(app):
            view.session.conversation.status.activity = Activity.IDLE
        background, foreground = views(app)[1], views(app)[0]
        await pilot.press("alt+1")
        await wait_until(lambda: app.chat is foreground, "tab 1 in view")
        await pilot.pause(0.3)

        quiet = await type_and_time(app, watch, keys, gap)

        # The background tab streams an answer at `rate` deltas/s, batched as the worker batches.
        await background.show_changes(background.session.conversation.add_user_prompt("stream please"))
        deltas = answer_deltas(int(rate * (keys * gap + 2)))
        items = [decode_obj(event("message_start", message={"id": "msg_bench", "usage": {}})),
                 decode_obj(event("content_block_start", index=0, content_block={"type": "text", "text": ""}))]
        items += [decode_obj(event("content_block_delta", index=0, delta={"type": "text_delta", "text": text}))
                  for text in deltas]
        sent = 0
        streaming = True

        async def stream() -> None:
            nonlocal sent
            begin = time.perf_counter()
            batch: list[Any] = []
            for index, item in enumerate(items):
                if not streaming:
                    break
                batch.append(item)
                due = begin + (index + 1) / rate
                now = time.perf_counter()
                if due > now or len(batch) >= 64:
                    background.post_message(CliConnection.Events(batch))
                    sent += len(batch)
                    batch = []
                    await asyncio.sleep(max(0.0, due - now))

        streamer = asyncio.create_task(stream())
        await asyncio.sleep(0.5)
        began = time.perf_counter()
        busy = await type_and_time(app, watch, keys, gap)
        elapsed = time.perf_counter() - began
        sent_during = sent
        streaming = False
        await streamer
    return {"quiet_p50_s": statistics.median(quiet), "quiet_p99_s": percentile(quiet, 0.99),
            "busy_p50_s": statistics.median(busy), "busy_p99_s": percentile(busy, 0.99),
            "busy_max_s": max(busy), "samples": len(busy), "rate": sent_during / max(elapsed + 0.5, 1e-9)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("idle", "switch", "typing"))
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--messages", type=int, default=MESSAGES)
    parser.add_argument("--switches", type=int, default=20)
    parser.add_argument("--rate", type=int, default=1000, help="background deltas per second")
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    ok = True
    if not ns.json:  # on a shared machine, wall-clock figures follow the load: say what it was
        print(f"tabs benchmark, {SIZE[0]}x{SIZE[1]}; load average {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} CPUs")
    if ns.only in (None, "idle"):
        idle = results["idle"] = asyncio.run(measure_idle(ns.idle_seconds))
        if not ns.json:
            print(f"idle, {idle['tabs']:.0f} tabs each with its own fake CLI:")
            print(f"  RSS 1 tab {idle['rss_one_mb']:.0f} MB, {idle['tabs']:.0f} tabs {idle['rss_all_mb']:.0f} MB: "
                  f"{idle['per_tab_mb']:.1f} MB per extra tab (budget {BUDGET_RSS_PER_TAB_MB:.0f}; "
                  f"{idle['per_tab_mb'] / BUDGET_RSS_PER_TAB_MB:.2f}x)")
            print(f"  CPU while idle over {ns.idle_seconds:.0f} s: {idle['idle_cpu'] * 100:.2f} % of a core with "
                  f"{idle['tabs']:.0f} tabs (budget {BUDGET_IDLE_CPU * 100:.0f} %; "
                  f"{idle['idle_cpu'] / BUDGET_IDLE_CPU:.2f}x), {idle['idle_cpu_one'] * 100:.2f} % with one")
        ok = ok and idle["per_tab_mb"] <= BUDGET_RSS_PER_TAB_MB and idle["idle_cpu"] < BUDGET_IDLE_CPU
    if ns.only in (None, "switch"):
        switch = results["switch"] = asyncio.run(measure_switch(ns.messages, ns.switches))
        if not ns.json:
            print(f"switch between two tabs of {ns.messages:,} messages ({switch['switches']:.0f} switches), "
                  "key -> the new tab painted:")
            print(f"  median {switch['median_s'] * 1000:.1f} ms, p95 {switch['p95_s'] * 1000:.1f} ms, "
                  f"max {switch['max_s'] * 1000:.1f} ms (budget {BUDGET_SWITCH_S * 1000:.0f} ms; "
                  f"p95 {switch['p95_s'] / BUDGET_SWITCH_S:.2f}x)")
            print(f"  the event loop's CPU per switch, until it settles: median {switch['cpu_median_s'] * 1000:.1f} ms")
            print(f"  RSS the second tab added to claude-tui (its view of {ns.messages:,} messages): "
                  f"{switch['rss_tab_mb']:.1f} MB")
        ok = ok and switch["p95_s"] <= BUDGET_SWITCH_S
    if ns.only in (None, "typing"):
        typing = results["typing"] = asyncio.run(measure_typing(ns.rate, ns.keys, 0.03))
        if not ns.json:
            print(f"typing in the tab in view, a key every 30 ms ({typing['samples']:.0f} keys), key -> painted:")
            print(f"  nothing streaming:  p50 {typing['quiet_p50_s'] * 1000:.1f} ms, "
                  f"p99 {typing['quiet_p99_s'] * 1000:.1f} ms")
            print(f"  a background tab streaming {typing['rate']:,.0f} deltas/s: p50 {typing['busy_p50_s'] * 1000:.1f} "
                  f"ms, p99 {typing['busy_p99_s'] * 1000:.1f} ms, max {typing['busy_max_s'] * 1000:.1f} ms "
                  f"(budget p99 {BUDGET_KEY_P99_S * 1000:.0f} ms; {typing['busy_p99_s'] / BUDGET_KEY_P99_S:.2f}x; "
                  f"vs quiet {typing['busy_p99_s'] / typing['quiet_p99_s']:.2f}x)")
        ok = ok and typing["busy_p99_s"] <= BUDGET_KEY_P99_S and typing["rate"] >= ns.rate * 0.9
    if ns.json:
        print(json.dumps(results))
    else:
        print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
