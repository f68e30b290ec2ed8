"""Usage per day, week, month, project, model or session: the figures `claude-tui usage` and the
usage screen show, and their JSON and CSV.

A call's cost is the CLI's own figure where the transcript has one, else its token counts at list
prices (:mod:`claude_tui.protocol.pricing`). The CLI's figure is the session's last `cost-state`
record, per model: it is taken where its token counts are exactly the calls of that model the
session's transcripts record (its own and its subagents'; a fork's copy of its parent's calls too,
which the CLI counts in the fork's total), so it covers those calls and nothing else, and the calls
counted for the session get their share of it by list price (by tokens for a model with none).
Where the counts differ (the counter restarted with /clear or a new process, a fork's copied
history) the list price stands.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from claude_tui.protocol.sanitize import printable_name

from .index import CallGroup, SessionModel

TIME_PERIODS = ("day", "week", "month")
CSV_FIELDS = ("key", "cost_usd", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
              "models")


@dataclass(slots=True)
class UsageRow:
    key: str
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    models: dict[str, float] = field(default_factory=dict)

    def add(self, group: CallGroup, cost: float) -> None:
        self.cost_usd += cost
        self.input_tokens += group.input_tokens
        self.output_tokens += group.output_tokens
        self.cache_read_tokens += group.cache_read_tokens
        self.cache_write_tokens += group.cache_write_tokens
        if group.model:
            self.models[group.model] = self.models.get(group.model, 0.0) + cost

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_write_tokens

    def to_dict(self, *, with_key: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key} if with_key else {}
        data.update(cost_usd=_money(self.cost_usd), input_tokens=self.input_tokens,
                    output_tokens=self.output_tokens, cache_read_tokens=self.cache_read_tokens,
                    cache_write_tokens=self.cache_write_tokens,
                    models={m: _money(c) for m, c in sorted(self.models.items(), key=lambda kv: (-kv[1], kv[0]))})
        return data


@dataclass(slots=True)
class UsageReport:
    by: str
    rows: list[UsageRow]
    total: UsageRow
    daily: dict[str, dict[str, float]]  # model -> local day -> cost: the sparklines
    days: list[str]  # every day with calls, oldest first
    unpriced: list[str]  # models with calls neither the CLI recorded a cost for nor a list price covers
    recorded: int  # (session, model) pairs costed by the CLI's own cost-state

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "rows": [r.to_dict() for r in self.rows], "total": self.total.to_dict(with_key=False)}

    def to_csv(self) -> str:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(CSV_FIELDS)
        for row in self.rows:
            data = row.to_dict()
            data["models"] = json.dumps(data["models"], ensure_ascii=False, separators=(",", ":"))
            writer.writerow([_csv_cell(data[f]) for f in CSV_FIELDS])
        return buf.getvalue()


def _money(value: float) -> float:
    return round(value, 6)


def _csv_cell(value: Any) -> Any:
    """A cell that is inert: a control character shows as its stand-in (CSV has no escapes, and a
    terminal would act on it), and one a spreadsheet would run (= + - @ first) gets a quote."""
    if not isinstance(value, str):
        return value
    value = printable_name(value)
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


def recorded_shares(sessions: list[SessionModel], states: Mapping[str, Mapping[str, Any]]
                    ) -> dict[tuple[str, str], tuple[bool, float]]:
    """(session, model) → (by list price?, factor): the CLI's recorded cost over its calls' list prices
    (or over their tokens), where the cost-state covers exactly those calls."""
    shares: dict[tuple[str, str], tuple[bool, float]] = {}
    for item in sessions:
        state = states.get(item.session_id, {}).get(item.model) if item.model else None
        if not isinstance(state, Mapping):
            continue
        recorded = state.get("costUSD")
        counts = tuple(state.get(k) for k in
                       ("inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens"))
        if not isinstance(recorded, (int, float)) or isinstance(recorded, bool) or counts != item.tokens:
            continue
        if item.list_cost > 0:
            shares[(item.session_id, item.model)] = (True, float(recorded) / item.list_cost)
        elif sum(item.tokens):
            shares[(item.session_id, item.model)] = (False, float(recorded) / sum(item.tokens))
    return shares


def build_report(by: str, groups: list[CallGroup], sessions: list[SessionModel],
                 states: Mapping[str, Mapping[str, Any]]) -> UsageReport:
    shares = recorded_shares(sessions, states)
    rows: dict[str, UsageRow] = {}
    total = UsageRow("total")
    daily: dict[str, dict[str, float]] = {}
    days: set[str] = set()
    unpriced: set[str] = set()
    for group in groups:
        share = shares.get((group.session_id, group.model))
        if share is None:
            cost = group.list_cost
            if group.unpriced:
                unpriced.add(group.model)
        elif share[0]:
            cost = group.list_cost * share[1]
        else:
            cost = (group.input_tokens + group.output_tokens + group.cache_read_tokens
                    + group.cache_write_tokens) * share[1]
        key = group.key if group.key else "(none)"
        rows.setdefault(key, UsageRow(key)).add(group, cost)
        total.add(group, cost)
        days.add(group.day)
        if group.model:
            per_day = daily.setdefault(group.model, {})
            per_day[group.day] = per_day.get(group.day, 0.0) + cost
    if by in TIME_PERIODS:
        ordered = sorted(rows.values(), key=lambda r: r.key)
    else:
        ordered = sorted(rows.values(), key=lambda r: (-r.cost_usd, -r.tokens, r.key))
    return UsageReport(by, ordered, total, daily, sorted(days), sorted(unpriced), len(shares))
