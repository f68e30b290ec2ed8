"""Fixed tab summaries and a tiny app that shows the tab bar (and the overview) without a CLI.

Deterministic: no real clock ("now" is `NOW`, the overview's refresh timer is off) and the
spinner does not turn (nothing advances `TabBar.frame`; animations are off).
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from claude_tui.ui.chat.tab_summary import TabState, TabSummary
from claude_tui.ui.window.overview import OverviewScreen
from claude_tui.ui.window.tab_bar import TabBar

NOW = 1_760_000_000.0

THREE = (
    TabSummary("t1", "refactor the parser", TabState.STREAMING, 0.42, last_activity=NOW - 2, cwd="/work/app"),
    TabSummary("t2", "tests", TabState.IDLE, 0.03, last_activity=NOW - 75, cwd="/work/app"),
    TabSummary("t3", "new session", TabState.STARTING, cwd="/work/app"),
)

EIGHT = (
    TabSummary("a", "refactor the session layer into one object", TabState.STREAMING, 0.42,
               last_activity=NOW - 2, cwd="/work/app"),
    TabSummary("b", "tests", TabState.WAITING, 0.03, attention=True, last_activity=NOW - 12,
               pending="Bash: rm -rf build && make test", cwd="/work/app"),
    TabSummary("c", "review [bold red]PR[/] 123", TabState.IDLE, 1.5, last_activity=NOW - 300,
               cwd="/srv/checkout", host="build-box"),
    TabSummary("d", "docs\x1b[31m", TabState.ERROR, last_activity=NOW - 8000, cwd="/work/docs"),
    TabSummary("e", "new session", TabState.STARTING, cwd="/work/app"),
    TabSummary("f", "release notes for 2.0", TabState.EXITED, 12.0, last_activity=NOW - 90_000, cwd="/work/app"),
    TabSummary("g", "大きな名前のタブ", TabState.IDLE, last_activity=NOW - 40, cwd="/work/日本"),
    TabSummary("h", "plan the migration", TabState.WAITING, 0.2, attention=True, last_activity=NOW - 5,
               pending="Plan: move the store to SQLite, keep the JSON export", cwd="/work/app"),
)

MANY = tuple(TabSummary(f"m{i}", f"session {i}", TabState.IDLE if i % 3 else TabState.STREAMING)
             for i in range(1, 21))


class TabsApp(App[None]):
    """Stacked bars, each labelled, over a stand-in conversation; optionally the overview on top."""

    AUTO_FOCUS = None  # like the chat screen, where the prompt has focus, not the bar

    def __init__(self, bars: list[tuple[str, tuple[TabSummary, ...], str]], *,
                 overview: tuple[tuple[TabSummary, ...], str] | None = None, theme: str = "textual-dark") -> None:
        super().__init__()
        self.bars = bars
        self.overview = overview
        self.theme = theme
        self.animation_level = "none"

    def compose(self) -> ComposeResult:
        with Vertical():
            for label, _, _ in self.bars:
                yield Static(label, markup=False, classes="label")
                yield TabBar()
        yield Static("(the conversation)", markup=False)

    def on_mount(self) -> None:
        for bar, (_, tabs, active) in zip(self.query(TabBar), self.bars):
            bar.tabs = tabs
            bar.active = active
        if self.overview is not None:
            tabs, active = self.overview
            self.push_screen(OverviewScreen(tabs, active, now=lambda: NOW, refresh_every=None))
