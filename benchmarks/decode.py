"""Decode throughput: claude_tui.protocol.decode_line vs the official SDK (json.loads + parse_message).

Run: .venv/bin/python benchmarks/decode.py [--min-ratio 2.5] [--lines 60000] [--rounds 7]

Both sides get the same bytes lines (as read from the CLI's stdout). Lines the SDK cannot type
(parse_message raises, or returns None because it skips that message type, e.g. control_request /
control_response / keep_alive) are counted, reported and left out of BOTH timed sets, so the ratio
compares like with like. Exits 1 when our/SDK throughput ratio is below --min-ratio.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
FIXTURES = ROOT / "tests" / "fixtures" / "claude-code-2.1.330"

from pydantic_core import from_json  # noqa: E402

from claude_tui.protocol import UnknownBase, decode_line  # noqa: E402


def load_sdk():
    try:
        from claude_agent_sdk._internal.message_parser import parse_message
    except ImportError:  # pragma: no cover
        sys.exit("claude-agent-sdk is not installed: pip install -e '.[bench]'")
    return parse_message


def best_of(fn, lines, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        gc.collect()
        t0 = time.perf_counter()
        fn(lines)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--min-ratio", type=float, default=2.5)
    ap.add_argument("--lines", type=int, default=60_000)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    parse_message = load_sdk()

    base = [ln for f in sorted(FIXTURES.glob("*.stdout.ndjson")) for ln in f.read_bytes().splitlines() if ln.strip()]
    kept, skipped = [], Counter()
    for ln in base:
        obj = json.loads(ln)
        try:
            ok = parse_message(obj) is not None
            why = "returns None (type not handled)"
        except Exception as exc:  # noqa: BLE001 - we only classify
            ok, why = False, f"raises {type(exc).__name__}"
        if ok:
            kept.append(ln)
        else:
            skipped[f"{obj.get('type')}: {why}"] += 1
        m = decode_line(ln)
        if isinstance(m, UnknownBase):
            print(f"warning: we decode a fixture line as {type(m).__name__}", file=sys.stderr)
    lines = kept * max(1, -(-args.lines // len(kept)))

    def ours(ls):
        for ln in ls:
            decode_line(ln)

    def sdk(ls):
        loads = json.loads
        for ln in ls:
            parse_message(loads(ln))

    def parse_only(ls):  # the floor: Rust JSON parsing into plain dicts, no models at all
        for ln in ls:
            from_json(ln)

    ours(lines[:2000])
    sdk(lines[:2000])
    t_ours = best_of(ours, lines, args.rounds)
    t_sdk = best_of(sdk, lines, args.rounds)
    t_floor = best_of(parse_only, lines, args.rounds)
    n = len(lines)
    ratio = t_sdk / t_ours
    print(f"fixture lines: {len(base)} ({len(kept)} typed by the SDK, repeated to {n} lines)")
    for why, count in sorted(skipped.items()):
        print(f"  skipped for both sides: {count:4d} x {why}")
    print(f"claude_tui decode_line      : {n / t_ours:12,.0f} lines/s  (best of {args.rounds})")
    print(f"SDK json.loads+parse_message: {n / t_sdk:12,.0f} lines/s  (best of {args.rounds})")
    print(f"(reference) pydantic_core.from_json only, untyped: {n / t_floor:12,.0f} lines/s "
          f"= {t_sdk / t_floor:.2f}x the SDK")
    print(f"ratio: {ratio:.2f}x (goal >= {args.min_ratio}x)")
    if ratio < args.min_ratio:
        print("FAIL: below the goal", file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
