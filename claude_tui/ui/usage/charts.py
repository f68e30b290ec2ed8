"""The usage screen's pictures: a column per day and a sparkline per model, in the theme's colours.

They draw from plain values (days, costs, model names) and fit whatever width they are given: the
newest days that fit are shown. Model names come from transcripts: shown inert, one row each.
"""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from claude_tui.history.usage.charts import columns, every_day, sparkline
from claude_tui.protocol.sanitize import printable_name
from claude_tui.protocol.units import money

CHART_ROWS = 6
_AXIS = 10  # the scale's width at the left


__all__ = ["DayChart", "ModelSparks", "day_totals", "every_day"]


def day_totals(days: list[str], daily: dict[str, dict[str, float]]) -> list[float]:
    return [sum(per_day.get(day, 0.0) for per_day in daily.values()) for day in days]


class DayChart(Widget):
    """A column per day (its cost), the newest at the right; the scale and the first and last day below."""

    DEFAULT_CSS = """
    DayChart {
        height: auto;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.days: list[str] = []
        self.values: list[float] = []

    def show(self, days: list[str], values: list[float]) -> None:
        self.days, self.values = days, values
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return CHART_ROWS + 1 if self.days else 1

    def render(self) -> Content:
        if not self.days:
            return Content.styled("No calls in this range.", "$text-muted")
        fit = max(1, (self.content_region.width - _AXIS) // 2)
        days, values = self.days[-fit:], self.values[-fit:]
        most = max(values, default=0.0)
        lines = columns(values, CHART_ROWS)
        parts: list[Content] = []
        for i, line in enumerate(lines):
            label = money(most) if i == 0 else money(most / 2) if i == CHART_ROWS // 2 else ""
            spaced = " ".join(line)
            parts.append(Content.assemble((label.rjust(_AXIS - 1) + " ", "$text-muted"), (spaced, "$primary")))
        axis = days[0] if len(days) == 1 else f"{days[0]}{' ' * max(1, len(days) * 2 - 1 - 20)}{days[-1]}"
        parts.append(Content.assemble(" " * _AXIS, (axis, "$text-muted")))
        return Content("\n").join(parts)


class ModelSparks(Widget):
    """One row per model: its name, its cost day by day as a sparkline, its total."""

    DEFAULT_CSS = """
    ModelSparks {
        height: auto;
        padding: 0 1;
        margin-top: 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.days: list[str] = []
        self.daily: dict[str, dict[str, float]] = {}

    def show(self, days: list[str], daily: dict[str, dict[str, float]]) -> None:
        self.days, self.daily = days, daily
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self.daily))

    def render(self) -> Content:
        if not self.daily:
            return Content("")
        models = sorted(self.daily, key=lambda m: (-sum(self.daily[m].values()), m))
        names = {m: _short(printable_name(m), 34) for m in models}
        width = max(len(n) for n in names.values())
        fit = max(1, self.content_region.width - width - 14)
        days = self.days[-fit:]
        rows = []
        for model in models:
            series = [self.daily[model].get(d, 0.0) for d in days]
            rows.append(Content.assemble(names[model].ljust(width), "  ", (sparkline(series), "$accent"), "  ",
                                         (money(sum(self.daily[model].values())), "bold")))
        return Content("\n").join(rows)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
