"""The usage screen: where the tokens and the money went, over every session (the live one included).

It opens at once and fills in: a thread worker revalidates the transcripts (reading only what
changed since the last look, `history/usage/index.py`) and posts the report; the screen draws it.
Its History tab is `claude-tui usage` as pictures; its Limits tab hands over to Claude Code's own
`/usage` (plan limits, which no transcript holds): the screen is dismissed with ``"limits"``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Footer, Static, TabbedContent, TabPane

from claude_tui.history.usage.charts import tokens
from claude_tui.history.usage.report import UsageReport, UsageRow
from claude_tui.protocol.sanitize import printable_name
from claude_tui.protocol.units import money

from .charts import DayChart, ModelSparks, day_totals, every_day

HEADINGS = {"day": "Day", "week": "Week of", "month": "Month", "project": "Project", "model": "Model",
            "session": "Session"}
LIMITS = "limits"


class UsageScreen(Screen[str | None]):
    CSS_PATH = "screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close"),
        Binding("d", "group('day')", "Days"),
        Binding("w", "group('week')", "Weeks"),
        Binding("m", "group('month')", "Months"),
        Binding("p", "group('project')", "Projects"),
        Binding("o", "group('model')", "Models"),
        Binding("s", "group('session')", "Sessions"),
        Binding("r", "reload", "Refresh"),
    ]

    class Loaded(Message):
        """The worker's report (or why there is none)."""

        def __init__(self, by: str, report: UsageReport | None, error: str | None, seconds: float) -> None:
            super().__init__()
            self.by, self.report, self.error, self.seconds = by, report, error, seconds

    def __init__(self, *, config_root: Path | None = None, index_path: Path | None = None,
                 live_session_id: str | None = None, by: str = "day", where: str = "",
                 limits: Widget | None = None) -> None:
        super().__init__()
        self.limits = limits
        """The active session's plan limits, asked of its CLI (`ui/manage/limits.py`), atop the Limits tab."""
        self.config_root = config_root
        self.index_path = index_path
        self.live_session_id = live_session_id
        self.by = by
        self.where = where  # "" here, else the machine the sessions were read from
        self.report: UsageReport | None = None
        self.loads = 0  # how many reads were asked for

    def compose(self) -> ComposeResult:
        with TabbedContent(id="usage-tabs", initial="usage-history"):
            with TabPane("History", id="usage-history"):
                yield Static(self._title("reading the transcripts…"), id="usage-title")
                yield DayChart(id="usage-days")
                yield ModelSparks(id="usage-models")
                yield DataTable(id="usage-table", cursor_type="row", zebra_stripes=True)
                yield Static("", id="usage-note")
            with TabPane("Limits", id="usage-limits"):
                if self.limits is not None:
                    yield self.limits
                yield Static(Content(
                    "Your plan's limits (the session and weekly windows, what is left of them) are known only "
                    "to Claude Code: no transcript holds them. Its own /usage shows them when you are logged "
                    "in with a subscription; with an API key it shows this session's cost and tokens."),
                    id="usage-limits-text")
                yield Button("Ask Claude Code: /usage", id="usage-ask-limits", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    def _title(self, state: str) -> Content:
        where = f" on {printable_name(self.where)}" if self.where else ""
        return Content.assemble((f"Usage by {self.by}", "bold"), f" · every project{where} · ",
                                (state, "$text-muted"))

    # -- the worker ----------------------------------------------------------------------
    def load(self) -> None:
        self.loads += 1
        self.query_one("#usage-title", Static).update(self._title("reading the transcripts…"))
        self._read(self.by)

    @work(thread=True, exclusive=True, group="usage", exit_on_error=False)
    def _read(self, by: str) -> None:
        # Imported here: the app's start never pays for the history index.
        from claude_tui.history.index import SessionIndex
        from claude_tui.history.usage.command import usage_report

        started = time.perf_counter()
        try:
            with SessionIndex(self.index_path, root=self.config_root) as index:
                report = usage_report(index, by)
        except Exception as error:  # noqa: BLE001 - any failure is shown, never raised into the app
            self.post_message(self.Loaded(by, None, str(error) or type(error).__name__, 0.0))
            return
        self.post_message(self.Loaded(by, report, None, time.perf_counter() - started))

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        if message.by != self.by:
            return  # an earlier grouping's answer, overtaken
        title = self.query_one("#usage-title", Static)
        if message.report is None:
            title.update(self._title(f"could not read the transcripts: {printable_name(message.error or '')}"))
            return
        report = self.report = message.report
        title.update(self._title(f"{money(report.total.cost_usd)} in all, {tokens(report.total.tokens)} tokens"))
        days = every_day(report.days)
        self.query_one(DayChart).show(days, day_totals(days, report.daily))
        self.query_one(ModelSparks).show(days, report.daily)
        self._fill_table(report)
        self.query_one("#usage-note", Static).update(self._note(report))

    def _fill_table(self, report: UsageReport) -> None:
        table = self.query_one("#usage-table", DataTable)
        table.clear(columns=True)
        for label in (HEADINGS[report.by], "Cost", "Input", "Output", "Cache read", "Cache write", "Models"):
            table.add_column(label)
        rows = list(reversed(report.rows)) if report.by in ("day", "week", "month") else report.rows
        for row in rows:
            table.add_row(*self._cells(row), key=row.key)
        table.add_row(*self._cells(report.total, "Total"), key="\0total")

    def _cells(self, row: UsageRow, key: str | None = None) -> list[Text]:
        live = self.report is not None and self.report.by == "session" and row.key == self.live_session_id
        label = key if key is not None else printable_name(row.key) + (" (this one)" if live else "")
        models = ", ".join(f"{printable_name(m)} {money(c)}" for m, c in
                           sorted(row.models.items(), key=lambda kv: -kv[1])[:3])
        cells = [label, money(row.cost_usd), tokens(row.input_tokens), tokens(row.output_tokens),
                 tokens(row.cache_read_tokens), tokens(row.cache_write_tokens), models]
        return [Text(c, justify="right" if 0 < i < 6 else "left") for i, c in enumerate(cells)]

    def _note(self, report: UsageReport) -> Content:
        from claude_tui.protocol.pricing import PRICES_AS_OF

        parts = [f"Costs are Claude Code's own where a transcript records them, else list prices as of "
                 f"{PRICES_AS_OF}."]
        if self.live_session_id:
            parts.append("This session counts as far as its transcript is written: read again after each turn.")
        if report.unpriced:
            parts.append("No price for " + ", ".join(printable_name(m) for m in report.unpriced)
                         + ": tokens counted, cost not.")
        return Content.styled(" ".join(parts), "$text-muted")

    # -- keys ------------------------------------------------------------------------------
    def action_close(self) -> None:
        self.dismiss(None)

    def action_group(self, by: str) -> None:
        if by != self.by:
            self.by = by
            self.load()

    def action_reload(self) -> None:
        self.load()

    def reread_after_turn(self) -> None:
        """A turn ended in some tab (the app calls this on every screen that has it): its calls count now."""
        self.load()

    @on(Button.Pressed, "#usage-ask-limits")
    def _ask_limits(self) -> None:
        self.dismiss(LIMITS)
