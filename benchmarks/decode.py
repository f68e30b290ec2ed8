"""Decode throughput: claude_tui.protocol.decode_line vs the official SDK (json.loads + parse_message).

Run: .venv/bin/python benchmarks/decode.py [--min-ratio 1.0] [--lines 60000] [--rounds 7]

Both sides get the same bytes lines (as read from the CLI's stdout). Lines the SDK cannot type
(parse_message raises, or returns None because it skips that message type, e.g. control_request /
control_response / keep_alive) are counted, reported and left out of BOTH timed sets, so the ratio
compares like with like. Exits 1 when our/SDK throughput ratio is not above --min-ratio: decode must
stay ahead of the SDK (issue 16 withdrew issue 2's 2.5x: pydantic models stay, and the floor this
benchmark prints shows no decoder building them reaches it).
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

from typing import Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter
from pydantic_core import from_json

from claude_tui.protocol import UnknownBase, decode_line


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


def pydantic_floor():
    """The least a pydantic v2 decoder can do for a text delta line and still return typed models.

    Three BaseModels (event envelope, content_block_delta, text_delta), no tag dispatch (each level
    has one class), extra keys ignored, no aliases, no Unknown fallbacks, no raw kept: everything our decoder
    does beyond this is taken away. Timing the delta lines through it shows the ceiling of any
    decoder that builds pydantic models for them.
    """

    class _M(BaseModel):
        model_config = ConfigDict(extra="ignore")

    class _TextDelta(_M):
        type: Literal["text_delta"]
        text: str

    class _BlockDelta(_M):
        type: Literal["content_block_delta"]
        index: int
        delta: _TextDelta

    class _Event(_M):
        type: Literal["stream_event"]
        event: _BlockDelta
        session_id: str | None = None
        uuid: str | None = None
        parent_tool_use_id: str | None = None

    return TypeAdapter(_Event).validator.validate_json


def is_text_delta(line: bytes) -> bool:
    obj = json.loads(line)
    ev = obj.get("event") or {}
    return obj.get("type") == "stream_event" and (ev.get("delta") or {}).get("type") == "text_delta"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--min-ratio", type=float, default=1.0, help="fail unless ours/SDK is above this (default 1.0)")
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

    # Where the time goes on the commonest line (text deltas): ours, the SDK, and the pydantic floor.
    deltas = [ln for ln in lines if is_text_delta(ln)]
    floor_validate = pydantic_floor()

    def floor(ls):
        for ln in ls:
            floor_validate(ln)

    d_ours, d_sdk, d_floor = (best_of(fn, deltas, args.rounds) / len(deltas) * 1e6 for fn in (ours, sdk, floor))
    print(f"fixture lines: {len(base)} ({len(kept)} typed by the SDK, repeated to {n} lines)")
    for why, count in sorted(skipped.items()):
        print(f"  skipped for both sides: {count:4d} x {why}")
    print(f"claude_tui decode_line      : {n / t_ours:12,.0f} lines/s  (best of {args.rounds})")
    print(f"SDK json.loads+parse_message: {n / t_sdk:12,.0f} lines/s  (best of {args.rounds})")
    print(f"(reference) pydantic_core.from_json only, untyped: {n / t_floor:12,.0f} lines/s "
          f"= {t_sdk / t_floor:.2f}x the SDK")
    print(f"text_delta lines ({len(deltas) * 100 // n}% of the set), microseconds per line:")
    print(f"  ours {d_ours:.2f}   SDK {d_sdk:.2f}   pydantic floor (3 bare models) {d_floor:.2f} "
          f"= at most {d_sdk / d_floor:.2f}x the SDK for any decoder building pydantic models")
    print(f"ratio: {ratio:.2f}x (goal > {args.min_ratio}x: ahead of the SDK)", flush=True)
    if ratio <= args.min_ratio:
        print("FAIL: below the goal", file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
