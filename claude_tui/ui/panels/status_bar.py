"""One line at the bottom: model, mode, session, activity, cost and context.

State flows down: the bar shows one value, `BarState`, which its chat view makes (`ChatView.bar`,
bound with `data_bind`), and it reads the time from the view's clock (`ChatView.now`, bound too).
Nothing else sets what it shows. A tick repaints it only when the spinner or the elapsed time
it draws changed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual.reactive import var
from textual.widgets import Static

from claude_tui.protocol import units
from claude_tui.protocol.sanitize import printable, printable_name
from claude_tui.session.status import Activity, SessionStatus
from claude_tui.ui.kit.cells import fit
from claude_tui.ui.kit.modes import ASKS_LESS

_ACTIVITY_STYLES = {
    Activity.WAITING: "bold reverse",
    Activity.RETRYING: "bold",
    Activity.EXITED: "bold",
}
_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


_MODEL_MIN = 16
"""Cells the model keeps while there is other detail to drop (it shrinks below only at the end)."""
_MODE_MAX = 24
"""A mode the CLI names that we do not know is cut to this (the known ones are shorter)."""


def _mode_part(mode: str, pending: bool = False) -> tuple[str, str]:
    """The permission mode; one where tools run without a dialog stands out (bypass most of all).
    A mode asked for that the CLI has not confirmed yet ends in "…" (`pending`)."""
    mark = "…" if pending else ""
    if mode == "bypassPermissions":
        return (printable(mode) + mark, "bold reverse")
    return (fit(printable_name(mode), _MODE_MAX) + mark, "bold" if mode in ASKS_LESS else "italic")


def _gauge(fraction: float, width: int = 10) -> str:
    filled = round(fraction * width)
    return "█" * filled + "░" * (width - filled)


def _tokens(count: int) -> str:
    if count >= 1_000_000:
        return f"{count / 1_000_000:.1f}M"
    if count >= 1_000:
        return f"{count / 1_000:.0f}k"
    return str(count)


class _Detail(NamedTuple):
    """What one form of the status line shows: the session id, the last turn's cost, the context
    gauge's width (0: none) and the worktree and context window."""

    session: bool
    delta: bool
    gauge: int
    window: bool


# From the fullest form to the tightest: each level drops what a narrow terminal can live without,
# so the context gauge and the activity survive at 80 columns.
_DETAIL_LEVELS = (
    _Detail(session=True, delta=True, gauge=10, window=True),
    _Detail(session=True, delta=False, gauge=10, window=True),
    _Detail(session=False, delta=False, gauge=10, window=True),
    _Detail(session=False, delta=False, gauge=5, window=False),
    _Detail(session=False, delta=False, gauge=0, window=False),
)


@dataclass(frozen=True)
class BarState:
    """Everything the status bar shows, as one value: equal values draw the same bar."""

    status: SessionStatus | None = None
    """A copy of the session's status (the session changes its own in place)."""
    worktree: str = ""
    """The branch of the git worktree the session runs in, or ""."""
    host: str = ""
    """The machine the CLI runs on when that is another one (its ssh label), or ""."""
    review_count: int = 0
    """Comments in the review tray: shown while there are any."""
    turn_started_at: float | None = None
    """time.monotonic() when the running turn started: shown as elapsed time."""

    @classmethod
    def of(cls, status: SessionStatus, *, worktree: str = "", host: str = "", review_count: int = 0,
           turn_started_at: float | None = None) -> BarState:
        return cls(dataclasses.replace(status), worktree, host, review_count, turn_started_at)


class StatusBar(Static):
    """Renders its `BarState` to fit its width (see `_DETAIL_LEVELS`)."""

    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        padding: 0 1;
        background: $panel;
        color: $text;

        &.-waiting {
            background: $warning 30%;
        }
        &.-context-warning {
            color: $text-warning;
        }
        &.-exited {
            background: $error 30%;
        }
    }
    """

    state: var[BarState] = var(BarState)
    """What the bar shows (bound to its chat view's `bar`)."""
    now: var[float] = var(0.0, init=False)
    """The clock (time.monotonic(), bound to its chat view's `now`): it moves only while a turn runs."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._frame = 0
        self._clock_drawn: tuple[str, str] | None = None
        """The spinner and elapsed time last drawn: a tick that would draw the same repaints nothing."""

    def watch_state(self, state: BarState) -> None:
        status = state.status
        self.set_class(status is not None and status.context_warning, "-context-warning")
        self.set_class(status is not None and status.activity is Activity.WAITING, "-waiting")
        self.set_class(status is not None and status.activity is Activity.EXITED, "-exited")
        self.refresh()

    def watch_now(self) -> None:
        self._frame += 1
        # While a turn runs: the spinner turns and the elapsed time counts (waiting for you included).
        status = self.state.status
        if status is not None and status.turn_running and self._clock_part(status) != self._clock_drawn:
            self.refresh()

    def render(self) -> Text:
        status = self.state.status
        if status is None:
            return Text()
        self._clock_drawn = self._clock_part(status)
        return self.render_status(status, self.content_region.width or None)

    def _clock_part(self, status: SessionStatus) -> tuple[str, str]:
        """What of the bar moves with the clock: the spinner and the running turn's elapsed time."""
        busy = status.activity not in (Activity.IDLE, Activity.EXITED, Activity.WAITING, Activity.STARTING)
        animate = not self.is_attached or self.app.animation_level != "none"
        spinner = (_SPINNER[self._frame % len(_SPINNER)] if animate else "●") + " " if busy else ""
        started = self.state.turn_started_at
        elapsed = units.elapsed(self.now - started) if status.turn_running and started is not None else ""
        return (spinner, elapsed)

    def render_status(self, status: SessionStatus, width: int | None = None) -> Text:
        """The fullest form that fits `width` cells (no limit: the fullest form).

        The model is what gets cut, never the permission mode beside it: a Bedrock inference-profile
        ARN (or a hostile model name) once pushed `bypassPermissions` off the bar. Detail goes first
        while the model keeps `_MODEL_MIN` cells; past that the model shrinks to what is left.
        The review count, host, worktree and turn's start are the bar's `state`'s."""
        clock = self._clock_part(status)
        model = printable_name(status.model) or "…"
        text = Text()
        for level in _DETAIL_LEVELS:
            text = self._assemble(status, level, model, clock)
            if width is None or text.cell_len <= width:
                break
        else:
            assert width is not None
            for index, detail in enumerate(_DETAIL_LEVELS):
                room = width - self._assemble(status, detail, "", clock).cell_len
                if room >= min(_MODEL_MIN, cell_len(model)) or index == len(_DETAIL_LEVELS) - 1:
                    text = self._assemble(status, detail, fit(model, max(2, room)), clock)
                    break
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text

    def _assemble(self, status: SessionStatus, detail: _Detail, model: str, clock: tuple[str, str]) -> Text:
        session, delta, gauge, window = detail
        sep = (" │ ", "dim")
        parts: list[tuple[str, str] | str] = []
        parts.append((model, "bold"))
        parts.append(sep)
        parts.append(_mode_part(status.asked_mode or status.permission_mode, pending=bool(status.asked_mode)))
        if self.state.review_count:
            parts.append(sep)
            parts.append((f"review {self.state.review_count}", "bold"))
        if self.state.host:  # before the worktree and session: which machine the tools run on
            parts.append(sep)
            parts.append((f"on {printable_name(self.state.host)}", "bold"))
        if window and self.state.worktree:
            parts.append(sep)
            parts.append((printable(self.state.worktree), "italic"))
        if session and status.session_id:
            parts.append(sep)
            parts.append((printable(status.short_session_id), "dim"))
        parts.append(sep)
        spinner, elapsed = clock
        words = printable(status.activity_words())
        if elapsed:
            words += f" · {elapsed}"  # "is it stuck?" at a glance
        parts.append((spinner + words, _ACTIVITY_STYLES.get(status.activity, "")))
        parts.append(sep)
        parts.append(units.money(status.own_cost))
        if delta and status.cost_last_turn > 0:
            parts.append((f" (+{units.money(status.cost_last_turn)})", "dim"))
        fraction = status.context_fraction
        if fraction is not None:
            parts.append(sep)
            style = "bold" if status.context_warning else ""
            bar = f"{_gauge(fraction, gauge)} " if gauge else ""
            used = f" {_tokens(status.context_tokens)}/{_tokens(status.context_window)}" if window else ""
            parts.append((f"ctx {bar}{fraction:.0%}{used}", style))
        if status.limit_warning:  # the plan's limit nears (the CLI's rate_limit_event): /usage has the rest
            parts.append(sep)
            parts.append((printable(status.limit_warning), "bold yellow"))
        return Text.assemble(*parts)
