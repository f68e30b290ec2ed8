"""A session written by an older CLI (no cost-state record) keeps its cost on resume (recorded 2.0.77)."""

from __future__ import annotations

import json
from pathlib import Path

from claude_tui.protocol import decode_obj
from claude_tui.protocol.pricing import estimate_cost, message_cost
from claude_tui.session.replay import replay

SESSIONS = Path(__file__).parent.parent / "fixtures" / "claude-code-2.0.77" / "sessions"


def records(prefix: str) -> list[dict]:
    [path] = [p for p in SESSIONS.glob(f"{prefix}-*.jsonl") if "-agent-" not in p.name]
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_the_estimate_matches_what_the_cli_charged() -> None:
    # 2.0.77's own result for this one-request turn said total_cost_usd 0.015105 (sonnet 4.5 prices).
    transcript = records("text")
    assert not any(r.get("type") == "cost-state" for r in transcript)
    assert abs(estimate_cost(transcript) - 0.015105) < 1e-9
    # One record per content block, all carrying the message's usage: counted once.
    bash = records("bash-allow")
    ids = [r["message"]["id"] for r in bash if r.get("type") == "assistant"]
    assert len(ids) > len(set(ids))
    assert abs(estimate_cost(bash) - 0.015105 * len(set(ids))) < 1e-9


def test_unknown_models_add_nothing() -> None:
    assert message_cost("<synthetic>", {"input_tokens": 10}) == 0.0
    assert estimate_cost([{"type": "assistant", "message": {"model": "gpt", "usage": {"input_tokens": 5}}}]) is None
    assert estimate_cost([]) is None


def test_a_resumed_old_session_starts_at_its_cost_and_adds_the_clis_totals() -> None:
    conversation = replay(records("text"), session_id="s")
    status = conversation.status
    assert abs(status.cost_total - 0.015105) < 1e-9  # not $0.0000
    # The old CLI's first total counts only its own requests: added, not taken as the session's total.
    conversation.cost.mark_turn(status)
    conversation.apply(decode_obj({"type": "result", "subtype": "success", "is_error": False, "session_id": "s",
                                   "total_cost_usd": 0.01, "num_turns": 1, "result": ""}))
    assert abs(status.cost_total - 0.025105) < 1e-9
    assert abs(status.cost_last_turn - 0.01) < 1e-9


def test_a_recorded_cost_state_still_wins() -> None:
    conversation = replay(records("text"), session_id="s", cost_usd=1.5)
    assert conversation.status.cost_total == 1.5
