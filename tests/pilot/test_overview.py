"""The overview: the cursor starts on the tab in view, Enter returns the chosen tab, Esc nothing."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import Input

from claude_tui.ui.chat.tab_summary import TabState, TabSummary
from claude_tui.ui.window.overview import OverviewScreen, OverviewTable, open_overview, where_label
from tests.pilot.helpers import wait_for

NOW = 1_760_000_000.0
TABS = (
    TabSummary("one", "first", TabState.IDLE, last_activity=NOW - 12, cwd="/work/a"),
    TabSummary("two", "second", TabState.STREAMING, 0.25, last_activity=NOW - 200, cwd="/work/b"),
    TabSummary("three", "third", TabState.WAITING, attention=True, pending="Bash: rm -rf build",
               last_activity=NOW - 1, cwd="/srv/c", host="box"),
)


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.results: list[str | None] = []

    def compose(self) -> ComposeResult:
        yield Input(id="prompt")

    def open(self, tabs: tuple[TabSummary, ...] = TABS, active: str = "two") -> OverviewScreen:
        screen = OverviewScreen(tabs, active, now=lambda: NOW, refresh_every=None)
        self.push_screen(screen, self.results.append)
        return screen


def table_text(screen: OverviewScreen) -> str:
    table = screen.query_one(OverviewTable)
    return "\n".join(strip.text for strip in table.render_lines(Region(0, 0, table.size.width, table.size.height)))


async def opened(pilot, screen: OverviewScreen) -> OverviewTable:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: pilot.app.screen is screen and screen.query(OverviewTable)
                   and screen.query_one(OverviewTable).row_count, what="the overview listed")
    return screen.query_one(OverviewTable)


async def test_enter_returns_the_tab_under_the_cursor_which_starts_on_the_active_one() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        table = await opened(pilot, app.open(active="two"))
        assert table.current_tab == "two"
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: app.results, what="a result")
        assert app.results == ["three"]
        assert not isinstance(app.screen, OverviewScreen)


async def test_escape_closes_with_nothing_chosen() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await opened(pilot, app.open())
        await pilot.press("up", "escape")
        await wait_for(pilot, lambda: app.results, what="a result")
        assert app.results == [None]


async def test_clicking_a_row_chooses_it() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.open(active="one")
        table = await opened(pilot, screen)
        row_y = table.region.y + 1 + 2 * 2  # the header, then two lines per row: the third row
        await pilot.click(offset=(table.region.x + 6, row_y))
        await pilot.click(offset=(table.region.x + 6, row_y))  # the first click moves the cursor, the second picks
        await wait_for(pilot, lambda: app.results, what="a result")
        assert app.results == ["three"]


async def test_rows_show_state_cost_activity_question_and_where() -> None:
    app = Host()
    async with app.run_test(size=(140, 30)) as pilot:
        screen = app.open()
        await opened(pilot, screen)
        shown = table_text(screen)
        for expected in ("first", "second", "third", "12 s ago", "3 min ago", "1 s ago", "$0.25", "working",
                         "needs you", "idle", "Bash: rm -rf build", "/work/a", "box:/srv/c"):
            assert expected in shown, expected


async def test_new_summaries_while_open_keep_the_cursor_on_the_same_tab() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.open(active="one")
        table = await opened(pilot, screen)
        await pilot.press("down")
        assert table.current_tab == "two"
        screen.tabs = (TabSummary("zero", "new one", TabState.STARTING), *TABS)
        await wait_for(pilot, lambda: table.row_count == 4, what="four rows")
        assert table.current_tab == "two"
        assert "new one" in table_text(screen)


async def test_markup_and_control_characters_in_names_and_questions_stay_inert() -> None:
    tabs = (TabSummary("x", "[bold]x[/] [@click=app.quit]q[/]", TabState.WAITING,
                       pending="Bash: echo \x1b[2J\x07 [red]hi[/]", cwd="/tmp/\x1b]0;t\x07"),)
    app = Host()
    async with app.run_test(size=(140, 30)) as pilot:
        screen = app.open(tabs, "x")
        await opened(pilot, screen)
        shown = table_text(screen)
        assert "[bold]x[/] [@click=app.quit]q[/]" in shown
        assert "echo ␛[2J␇ [red]hi[/]" in shown
        assert "/tmp/␛]0;t␇" in shown
        assert not any(ord(ch) < 0x20 and ch != "\n" or 0x7F <= ord(ch) <= 0x9F for ch in shown)


async def test_open_overview_is_one_call_for_the_opener() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        chosen: list[str | None] = []
        screen = open_overview(app, list(TABS), "one", chosen.append)
        await opened(pilot, screen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: chosen, what="a result")
        assert chosen == ["one"]


def test_where_label_shortens_home_for_local_sessions_only(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HOME", "/home/me")
    assert where_label(TabSummary("a", "a", cwd="/home/me/src")) == "~/src"
    assert where_label(TabSummary("a", "a", cwd="/home/meat")) == "/home/meat"
    assert where_label(TabSummary("a", "a", cwd="/home/me/src", host="box")) == "box:/home/me/src"


async def test_a_digit_goes_straight_to_that_tab_and_one_past_the_last_does_nothing() -> None:
    """Alt+O then a digit: the way to a tab by number in terminals where Alt+1 arrives as "¡"."""
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.open(active="one")
        await opened(pilot, screen)
        await pilot.press("4")
        await pilot.pause()
        assert app.screen is screen and not app.results, "no fourth tab: the overview stays"
        await pilot.press("3")
        await wait_for(pilot, lambda: app.results, what="a result")
        assert app.results == ["three"]


async def test_number_columns_are_as_wide_as_their_numbers() -> None:
    """A tab's cost of $123,456 and a 100th tab's number were cut by fixed 7- and 2-cell columns."""
    tabs = tuple(TabSummary(f"t{i}", f"tab {i}", TabState.IDLE, 123_456.0 if i == 0 else 0.0, last_activity=NOW - 5)
                 for i in range(100))
    app = Host()
    async with app.run_test(size=(140, 30)) as pilot:
        screen = app.open(tabs, "t0")
        table = await opened(pilot, screen)
        await pilot.pause()
        assert "$123,456" in table_text(screen)
        assert table.columns["number"].width >= len("100")  # type: ignore[index]
