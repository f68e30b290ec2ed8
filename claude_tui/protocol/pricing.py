"""What a transcript's API calls cost, estimated from their token counts, for transcripts with no
`cost-state` record (written by older CLIs such as 2.0.77 and 2.1.0).

Without it a resumed old session showed $0.0000 until its first new turn, and then only that turn:
those CLIs do not carry the history's cost into their totals. The estimate uses Anthropic's list
prices per million tokens (cache writes at 1.25x input for the 5-minute cache and 2x for the 1-hour
one, cache reads at 0.1x input), the way Claude Code computes its own totals; a model it cannot price
adds nothing. `claude-tui usage` prices calls the same way where a transcript records no cost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

#: When the list prices below were last checked against https://www.anthropic.com/pricing.
PRICES_AS_OF = "2026-12-01"

# (input, output) USD per million tokens; the first pattern found in the model id wins.
_PRICES: tuple[tuple[str, float, float], ...] = (
    ("opus-4-1", 15.0, 75.0),
    ("opus-4-0", 15.0, 75.0),
    ("opus-4-2025", 15.0, 75.0),
    ("3-opus", 15.0, 75.0),
    ("opus", 5.0, 25.0),  # Opus 4.5 and later
    ("sonnet", 3.0, 15.0),
    ("3-5-haiku", 0.8, 4.0),
    ("3-haiku", 0.25, 1.25),
    ("haiku", 1.0, 5.0),  # Haiku 4.5 and later
)
#: What a cache write (5-minute, 1-hour) and a cache read cost, as a multiple of the input price; and
#: the tokens a price is quoted for. `claude-tui usage` prices its sums in SQL with these same numbers.
CACHE_WRITE_5M, CACHE_WRITE_1H, CACHE_READ, PER_TOKENS = 1.25, 2.0, 0.1, 1e6


@lru_cache(maxsize=256)
def model_prices(model: str) -> tuple[float, float] | None:
    for pattern, price_in, price_out in _PRICES:
        if pattern in model:
            return price_in, price_out
    return None


def _tokens(usage: Mapping[str, Any], key: str) -> int:
    value = usage.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def cache_writes(usage: Mapping[str, Any]) -> tuple[int, int]:
    """(5-minute, 1-hour) cache writes of a call. The total is `cache_creation_input_tokens`, what
    Claude Code counts and prices; the API's `cache_creation` split (the same total, from the real
    API) only says how much of it was for an hour. Without a total, the split is the total."""
    split = usage.get("cache_creation")
    total = _tokens(usage, "cache_creation_input_tokens")
    if not isinstance(split, Mapping):
        return total, 0
    one_hour = _tokens(split, "ephemeral_1h_input_tokens")
    if "cache_creation_input_tokens" not in usage:
        total = _tokens(split, "ephemeral_5m_input_tokens") + one_hour
    one_hour = min(one_hour, total)
    return total - one_hour, one_hour


def message_cost(model: str, usage: Mapping[str, Any]) -> float:
    prices = model_prices(model)
    if prices is None:
        return 0.0
    write_5m, write_1h = cache_writes(usage)
    return counts_cost(prices, _tokens(usage, "input_tokens"), _tokens(usage, "output_tokens"),
                       _tokens(usage, "cache_read_input_tokens"), write_5m, write_1h)


def counts_cost(prices: tuple[float, float], inp: int, out: int, read: int, write_5m: int, write_1h: int) -> float:
    """A call's counts at ``prices`` (input, output per `PER_TOKENS`), in the order of operations
    `claude-tui usage`'s SQL sums them in, so the two agree to the last digit."""
    price_in, price_out = prices
    return (inp * price_in + write_5m * price_in * CACHE_WRITE_5M + write_1h * price_in * CACHE_WRITE_1H
            + read * price_in * CACHE_READ + out * price_out) / PER_TOKENS


def estimate_cost(records: Iterable[Mapping[str, Any]]) -> float | None:
    """The summed cost of the assistant messages in `records` (each message once: the CLI writes a
    record per content block, all with the message's usage); None when none could be priced."""
    seen: set[str] = set()
    total = 0.0
    priced = False
    for record in records:
        if record.get("type") != "assistant":
            continue
        message = record.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("usage"), dict):
            continue
        message_id = message.get("id")
        if isinstance(message_id, str) and message_id:
            if message_id in seen:
                continue
            seen.add(message_id)
        model = str(message.get("model") or "")
        if model_prices(model) is None:
            continue
        total += message_cost(model, message["usage"])
        priced = True
    return total if priced else None
