"""Every open tab on one screen: state, cost, last activity, where it runs and what it waits for.

Up/Down move, Enter dismisses with the chosen tab's id (the opener switches to it), Esc closes
with None. The app opens it (`open_overview`) from its key and the palette. The screen draws
`TabSummary` values only; the opener may set `tabs` again while it is open (a tab finished, a
question arrived) and the cursor stays on the same tab.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.events import Resize
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from claude_tui.protocol import units
from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.chat.tab_summary import TabState, TabSummary
from claude_tui.ui.window.tab_layout import GLYPHS, state_role

_STATE_WORDS = {
    TabState.STARTING: "starting",
    TabState.STREAMING: "working",
    TabState.WAITING: "needs you",
    TabState.IDLE: "idle",
    TabState.ERROR: "error",
    TabState.EXITED: "exited",
}

# (key, label, fixed width or None for a share of what is left, share, right-aligned)
_COLUMNS: tuple[tuple[str, str, int | None, int, bool], ...] = (
    ("number", "#", 2, 0, True),
    ("name", "Tab", None, 1, False),
    ("state", "State", 11, 0, False),
    ("cost", "Cost", 7, 0, True),
    ("activity", "Last activity", 13, 0, False),
    ("pending", "Pending", None, 1, False),
)
_MIN_FLEX = 8
ROW_HEIGHT = 2
"""Each row: the name over where it runs; the question waiting may take both lines."""


def where_label(summary: TabSummary) -> str:
    """"host:cwd", or the cwd alone for a local session (with ~ for the home directory)."""
    cwd = summary.cwd
    if not summary.host:
        home = _home()
        if home and (cwd == home or cwd.startswith(home + "/")):
            cwd = "~" + cwd[len(home):]
    return printable_name(f"{summary.host}:{cwd}" if summary.host else cwd)


def _home() -> str:
    return os.path.expanduser("~").rstrip("/")


class OverviewTable(DataTable[Text]):
    """One row per tab (keyed by `tab_id`); flexible columns share what the fixed ones leave."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "overview--where", "overview--active", "overview--attention",
        *(f"overview--{state_role(state)}" for state in TabState),
    }
    DEFAULT_CSS = """
    OverviewTable { height: auto; max-height: 1fr; scrollbar-gutter: stable; }
    OverviewTable > .overview--where { color: $text-muted; }
    OverviewTable > .overview--active { text-style: bold; }
    OverviewTable > .overview--attention { color: $text-warning; text-style: bold; }
    OverviewTable > .overview--starting { color: $text-muted; }
    OverviewTable > .overview--streaming { color: $text-success; }
    OverviewTable > .overview--waiting { color: $text-warning; text-style: bold; }
    OverviewTable > .overview--idle { color: $text-muted; }
    OverviewTable > .overview--error { color: $text-error; text-style: bold; }
    OverviewTable > .overview--exited { color: $text-disabled; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Switch", show=False),
        Binding("home", "scroll_top", "First", show=False),
        Binding("end", "scroll_bottom", "Last", show=False),
    ]

    def __init__(self, now: Callable[[], float], *, id: str | None = None) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, cursor_foreground_priority="css", id=id)
        self.now = now
        self._tabs: tuple[TabSummary, ...] = ()
        self._active = ""
        self._widths: tuple[int, ...] = ()

    def show(self, tabs: tuple[TabSummary, ...], active: str, keep: str | None) -> None:
        """Replace every row and put the cursor on `keep` (else the active tab, else the first)."""
        self._tabs, self._active = tabs, active
        self._rebuild(keep)

    @property
    def current_tab(self) -> str | None:
        if not self._tabs or not 0 <= self.cursor_row < len(self._tabs):
            return None
        return self._tabs[self.cursor_row].tab_id

    def _content_width(self, key: str) -> int:
        """The widest cell of a number column: its fixed width is the least, never a cut."""
        if not self._tabs:
            return 0
        if key == "number":
            return len(str(len(self._tabs)))
        if key == "cost":
            return max(len(units.cost(summary.cost_usd)) for summary in self._tabs)
        if key == "activity":
            now = self.now()
            return max(len(units.ago(summary.last_activity, now)) for summary in self._tabs)
        return 0

    def _compute_widths(self) -> tuple[int, ...]:
        total = self.scrollable_content_region.width or max(0, self.size.width - 1)
        pad = 2 * self.cell_padding
        sized = {key: max(width, self._content_width(key)) for key, _, width, _, _ in _COLUMNS if width is not None}
        fixed = sum(width + pad for width in sized.values())
        flex = [column for column in _COLUMNS if column[2] is None]
        left = max(0, total - fixed - pad * len(flex))
        shares = sum(column[3] for column in flex)
        widths: list[int] = []
        given = 0
        for column in _COLUMNS:
            if column[2] is not None:
                widths.append(sized[column[0]])
                continue
            size = left * column[3] // shares if column is not flex[-1] else left - given
            given += size
            widths.append(max(_MIN_FLEX, size))
        return tuple(widths)

    def _rebuild(self, keep: str | None) -> None:
        self._widths = self._compute_widths()
        self.clear(columns=True)
        for (key, label, _, _, right), width in zip(_COLUMNS, self._widths):
            self.add_column(Text(label, justify="right" if right else "left"), width=width, key=key)
        now = self.now()
        for position, summary in enumerate(self._tabs, start=1):
            self.add_row(*self._cells(summary, position, now), height=ROW_HEIGHT, key=summary.tab_id)
        ids = [summary.tab_id for summary in self._tabs]
        target = keep if keep in ids else self._active if self._active in ids else None
        if ids:
            self.move_cursor(row=ids.index(target) if target is not None else 0, animate=False, scroll=True)

    def refresh_times(self) -> None:
        """Only the "ago" column moves with the clock: update those cells, keep everything else."""
        now = self.now()
        for summary in self._tabs:
            self.update_cell(summary.tab_id, "activity", Text(units.ago(summary.last_activity, now), no_wrap=True))

    def on_resize(self, event: Resize) -> None:
        if self._tabs and self._compute_widths() != self._widths:
            self._rebuild(self.current_tab)

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name, partial=True) if self.is_mounted else Style()

    def _cells(self, summary: TabSummary, position: int, now: float) -> list[Text]:
        # Every cell is Text built from printable strings: DataTable would parse a plain str as markup.
        active = summary.tab_id == self._active
        attention = summary.attention and not active
        name = Text(printable_name(summary.name), style=self._style("overview--active") if active else "",
                    no_wrap=True, overflow="ellipsis")
        if attention:
            name.append(" !", self._style("overview--attention"))
        name.append("\n")
        name.append(where_label(summary), self._style("overview--where"))
        state_style = self._style(f"overview--{state_role(summary.state)}")
        return [
            Text(str(position), justify="right", style=self._style("overview--active") if active else ""),
            name,
            Text(f"{GLYPHS[summary.state]} {_STATE_WORDS[summary.state]}", style=state_style, no_wrap=True),
            Text(units.cost(summary.cost_usd), justify="right", no_wrap=True),
            Text(units.ago(summary.last_activity, now), no_wrap=True),
            Text(printable_name(summary.pending), overflow="ellipsis"),
        ]


class OverviewScreen(ModalScreen[str | None]):
    """Dismisses with the chosen tab's id (Enter or a click on its row), or None (Esc)."""

    DEFAULT_CSS = """
    OverviewScreen { align: center middle; }
    OverviewScreen > #overview-box {
        width: 100%;
        max-width: 150;
        height: auto;
        max-height: 100%;
        margin: 1 2;
        padding: 0 1;
        border: round $accent;
        border-title-style: bold;
        background: $surface;
    }
    OverviewScreen #overview-keys { color: $text-muted; margin-top: 1; }
    """
    # Digits jump straight to a tab (Alt+O, then the digit: as Alt+digit from the window).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="overview.close"),
        *(Binding(str(n), f"pick({n})", f"Tab {n}", show=False) for n in range(1, 10)),
    ]
    AUTO_FOCUS = "#overview-table"

    tabs: reactive[tuple[TabSummary, ...]] = reactive((), init=False)
    """Every open tab, in order; the opener may update it while the overview is open."""
    active: reactive[str] = reactive("", init=False)

    def __init__(self, tabs: Iterable[TabSummary], active: str, *, now: Callable[[], float] = time.time,
                 refresh_every: float | None = 5.0) -> None:
        """`now` is the clock the "ago" column reads (tests fix it); `refresh_every` seconds the
        column is updated while open (None: never)."""
        super().__init__()
        self._now = now
        self._refresh_every = refresh_every
        self.set_reactive(OverviewScreen.tabs, tuple(tabs))
        self.set_reactive(OverviewScreen.active, active)

    def compose(self) -> ComposeResult:
        with Vertical(id="overview-box") as box:
            box.border_title = Content("Open tabs")
            yield OverviewTable(self._now, id="overview-table")
            yield Static(Content.assemble(("↑↓", "bold"), " Move    ", ("Enter", "bold"), " Switch to the tab    ",
                                          ("1…9", "bold"), " Go to tab N    ", ("Esc", "bold"), " Close"),
                         id="overview-keys")

    def on_mount(self) -> None:
        table = self.query_one(OverviewTable)
        table.show(self.tabs, self.active, None)
        if self._refresh_every:
            self.set_interval(self._refresh_every, table.refresh_times)

    def _shown_table(self) -> OverviewTable | None:
        """The table while it is there to draw on, else None.

        The window sets `tabs` at any point of this screen's life: once pushed, before its table is
        mounted (`on_mount` draws the tabs then), and while it closes, with the table already gone."""
        for table in self.query(OverviewTable):
            if table.is_mounted and table.is_attached:
                return table
        return None

    def watch_tabs(self) -> None:
        self._redraw()

    def watch_active(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        table = self._shown_table()
        if table is not None:
            table.show(self.tabs, self.active, table.current_tab)

    @on(DataTable.RowSelected, "#overview-table")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.dismiss(event.row_key.value)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_pick(self, number: int) -> None:
        if 1 <= number <= len(self.tabs):
            self.dismiss(self.tabs[number - 1].tab_id)


def open_overview(app: App[object], tabs: Iterable[TabSummary], active: str,
                  callback: Callable[[str | None], None]) -> OverviewScreen:
    """Show the overview; `callback` gets the chosen tab's id, or None if closed with Esc.

    Returns the screen, so the opener can keep its `tabs` current while it is open.
    """
    screen = OverviewScreen(tabs, active)
    app.push_screen(screen, callback)
    return screen
