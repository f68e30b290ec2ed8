"""`claude-tui usage` agrees with ccusage to the cent, on transcripts the real CLI wrote.

The real CLI runs one prompt per session through the Messages API stand-in, in two projects with
three models ccusage prices (a tool call, whose reply the CLI writes as one record per content block,
and a subagent among them) and one it does not. Where the two must differ the test pins how.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.ccusage_install import CcusageInstallError, ensure_ccusage, install_line
from tests.e2e.conftest import marked_env
from tests.e2e.mock_api import MockApi
from tests.servers import REQUIRED_ENV, required

pytestmark = pytest.mark.e2e

FORKED = "claude-haiku-4-5-20251001"  # its session is forked (--resume --fork-session) after the runs
#: (project, model, prompt): the keyword picks the stand-in's script
RUNS = [
    ("alpha", "claude-sonnet-4-5-20250929", "kw:write a file please"),  # a tool call: two calls, three records
    ("alpha", FORKED, "hello"),
    ("beta", "claude-opus-4-5-20251101", "kw:agent explore"),  # a subagent with a transcript of its own
    ("beta", "claude-opus-5-5", "hello"),  # the CLI prices it; ccusage 20.0.24 does not know it
]
PRICED = {model for _, model, _ in RUNS[:3]}
UNPRICED = "claude-opus-5-5"


@pytest.fixture(scope="module")
def ccusage() -> Path:
    try:
        return ensure_ccusage()
    except CcusageInstallError as exc:
        reason = f"ccusage {exc}; install it with: {install_line()}"
        if required():  # `.ci/run` installs it through the README's test command: there it must be here
            pytest.fail(f"{reason}; {REQUIRED_ENV}=1 requires it", pytrace=False)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def written(claude_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The env the sessions were written with (its CLAUDE_CONFIG_DIR holds them), TZ pinned to UTC so
    both tools cut days alike."""
    root = tmp_path_factory.mktemp("usage")
    with MockApi() as api:
        env = marked_env(api.url, root / "cli")
        for project, model, prompt in RUNS:
            cwd = root / project
            cwd.mkdir(exist_ok=True)
            proc = subprocess.run(
                [str(claude_bin), "-p", prompt, "--model", model, "--permission-mode", "acceptEdits",
                 "--allowedTools", "Write,Task,Agent", "--output-format", "json"],
                cwd=cwd, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
            assert proc.returncode == 0, proc.stderr[-2000:]
            if model == FORKED:
                parent = json.loads(proc.stdout)["session_id"]
        # A fork of one: its transcript copies the parent's calls, which count once, for the parent.
        proc = subprocess.run(
            [str(claude_bin), "-p", "hello again", "--resume", parent, "--fork-session", "--model", FORKED,
             "--output-format", "json"],
            cwd=root / "alpha", env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stderr[-2000:]
    return {**env, "TZ": "UTC", "XDG_CACHE_HOME": str(root / "cache"), "NO_COLOR": "1", "FORK_PARENT": parent,
            "FORK": json.loads(proc.stdout)["session_id"]}


def ours(env: dict[str, str], by: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "claude_tui", "usage", "--by", by, "--json"], env=env,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def theirs(binary: Path, env: dict[str, str]) -> dict[str, Any]:
    proc = subprocess.run([str(binary), "daily", "--json", "--offline"], env=env, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def cents(value: float) -> int:
    return round(value * 100)


def test_totals_agree_with_ccusage_to_the_cent(ccusage: Path, written: dict[str, str]) -> None:
    mine, other = ours(written, "day"), theirs(ccusage, written)
    assert [r["key"] for r in mine["rows"]] == [d["period"] for d in other["daily"]]
    for row, day in zip(mine["rows"], other["daily"]):
        theirs_by_model = {m["modelName"]: m for m in day["modelBreakdowns"]}
        for model in PRICED:
            assert cents(row["models"][model]) == cents(theirs_by_model[model]["cost"]), model
            assert row["models"][model] == pytest.approx(theirs_by_model[model]["cost"], abs=1e-9), model
        assert row["input_tokens"] == day["inputTokens"]
        assert row["output_tokens"] == day["outputTokens"]
        assert row["cache_read_tokens"] == day["cacheReadTokens"]
        assert row["cache_write_tokens"] == day["cacheCreationTokens"]
    # The one difference: a model ccusage has no price for. It counts its tokens at $0 and says so;
    # we take the cost the CLI recorded for it (its cost-state), so the totals differ by exactly that.
    assert other["totals"]["unpricedModels"] == [UNPRICED]
    recorded = recorded_cost(Path(written["CLAUDE_CONFIG_DIR"]), UNPRICED)
    assert recorded > 0
    assert mine["total"]["models"][UNPRICED] == pytest.approx(recorded, abs=1e-6)
    assert cents(mine["total"]["cost_usd"] - recorded) == cents(other["totals"]["totalCost"])


def test_subagent_calls_count_in_both_and_in_the_clis_own_total(ccusage: Path, written: dict[str, str]) -> None:
    root = Path(written["CLAUDE_CONFIG_DIR"])
    agents = list((root / "projects").rglob("subagents/agent-*.jsonl"))
    assert agents, "the agent prompt wrote no subagent transcript"
    sessions = {r["key"]: r for r in ours(written, "session")["rows"]}
    parent = agents[0].parent.parent.name
    # The CLI's own total for that session (its cost-state) covers its subagent's calls: so does ours.
    state = last_cost_state(root, parent)
    assert sessions[parent]["cost_usd"] == pytest.approx(state["totalCostUSD"], abs=1e-6)
    day = theirs(ccusage, written)["daily"][0]
    assert sum(r["input_tokens"] for r in sessions.values()) == day["inputTokens"]


def last_cost_state(root: Path, session_id: str) -> dict[str, Any]:
    path = next((root / "projects").rglob(f"{session_id}.jsonl"))
    states = [json.loads(line) for line in path.read_text().splitlines() if '"type":"cost-state"' in line]
    state: dict[str, Any] = states[-1]
    return state


def recorded_cost(root: Path, model: str) -> float:
    total = 0.0
    for path in (root / "projects").glob("*/*.jsonl"):
        states = [json.loads(line) for line in path.read_text().splitlines() if '"type":"cost-state"' in line]
        if states and model in states[-1].get("modelUsage", {}):
            total += states[-1]["modelUsage"][model]["costUSD"]
    return total


def test_the_stand_in_reports_cache_writes_both_ways(written: dict[str, str]) -> None:
    """ccusage prices the `cache_creation` split, the CLI `cache_creation_input_tokens`: they agree."""
    seen = 0
    for path in (Path(written["CLAUDE_CONFIG_DIR"]) / "projects").rglob("*.jsonl"):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            usage = record.get("message", {}).get("usage") if record.get("type") == "assistant" else None
            if usage:
                split = usage["cache_creation"]
                assert split["ephemeral_5m_input_tokens"] + split["ephemeral_1h_input_tokens"] == \
                    usage["cache_creation_input_tokens"]
                seen += 1
    assert seen >= len(RUNS)



def test_a_forks_copied_calls_count_once_for_the_parent(written: dict[str, str]) -> None:
    sessions = {r["key"]: r for r in ours(written, "session")["rows"]}
    parent, fork = written["FORK_PARENT"], written["FORK"]
    root = Path(written["CLAUDE_CONFIG_DIR"])
    copied = {json.loads(line)["message"]["id"] for line in
              next((root / "projects").rglob(f"{parent}.jsonl")).read_text().splitlines() if '"usage":{' in line}
    assert copied and copied <= set(next((root / "projects").rglob(f"{fork}.jsonl")).read_text().split('"')), \
        "the fork does not hold a copy of its parent's call"
    assert sessions[parent]["input_tokens"] == sessions[fork]["input_tokens"] == 1200  # one call each
    # Each at Claude Code's own price: the parent's cost-state, and the fork's own call's share of its.
    assert sessions[parent]["cost_usd"] == pytest.approx(last_cost_state(root, parent)["totalCostUSD"], abs=1e-6)
    fork_state = last_cost_state(root, fork)["modelUsage"][FORKED]
    assert sessions[fork]["cost_usd"] == pytest.approx(fork_state["costUSD"] / (fork_state["inputTokens"] // 1200),
                                                       abs=1e-6)
