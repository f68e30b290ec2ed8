"""`claude-tui usage` as text: a table with a bar per row, then a sparkline per model over the days.

Every name (a project directory, a model, a session id) is shown inert: one row, control characters
as visible stand-ins.
"""

from __future__ import annotations

from claude_tui.protocol.pricing import PRICES_AS_OF
from claude_tui.protocol.sanitize import printable_name
from claude_tui.protocol.units import money

from .charts import bar, every_day, sparkline, tokens
from .report import UsageReport, UsageRow

BAR_WIDTH = 24
KEY_MAX = 48
SPARK_DAYS = 60  # the sparklines show the last 60 days with calls at most
HEADINGS = {"day": "DAY", "week": "WEEK OF", "month": "MONTH", "project": "PROJECT", "model": "MODEL",
            "session": "SESSION"}


def name(text: str, width: int = KEY_MAX) -> str:
    text = printable_name(text)
    return text if len(text) <= width else text[: width - 1] + "…"


def _cells(row: UsageRow, key: str) -> list[str]:
    return [key, money(row.cost_usd), tokens(row.input_tokens), tokens(row.output_tokens),
            tokens(row.cache_read_tokens), tokens(row.cache_write_tokens)]


def render(report: UsageReport) -> str:
    if not report.rows:
        return "No usage recorded in this range.\n"
    headers = [HEADINGS[report.by], "COST", "INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE"]
    body = [_cells(r, name(r.key)) for r in report.rows]
    foot = _cells(report.total, "TOTAL")
    widths = [max(len(c[i]) for c in [headers, *body, foot]) for i in range(len(headers))]
    most = max(r.cost_usd for r in report.rows)

    def line(cells: list[str], tail: str = "") -> str:
        parts = [cells[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:], widths[1:])]
        return ("  ".join(parts) + ("  " + tail if tail else "")).rstrip()

    out = [line(headers)]
    out += [line(cells, bar(row.cost_usd, most, BAR_WIDTH)) for cells, row in zip(body, report.rows)]
    out.append(line(foot))
    out += _sparklines(report)
    if report.unpriced:
        out.append("")
        out.append("No price for: " + ", ".join(name(m, 60) for m in report.unpriced)
                   + " (their calls count tokens, not cost)")
    out.append("")
    out.append(f"Costs are the CLI's own where a transcript records them, else list prices as of {PRICES_AS_OF}.")
    return "\n".join(out) + "\n"


def _sparklines(report: UsageReport) -> list[str]:
    days = every_day(report.days)[-SPARK_DAYS:]
    if len(days) < 2 or not report.daily:
        return []
    models = sorted(report.daily, key=lambda m: -sum(report.daily[m].values()))
    width = max(len(name(m, 40)) for m in models)
    out = ["", f"Per model, day by day ({days[0]} to {days[-1]}):"]
    for model in models:
        series = [report.daily[model].get(d, 0.0) for d in days]
        out.append(f"{name(model, 40).ljust(width)}  {sparkline(series)}  {money(sum(series))}")
    return out
