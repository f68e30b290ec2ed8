"""The tab bar in a running app: clicks select, keys stay in the prompt, names stay inert."""

from __future__ import annotations

from dataclasses import replace

from textual import on
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import Input

from claude_tui.ui.chat.tab_summary import TabState, TabSummary
from claude_tui.ui.window.tab_bar import TabBar
from tests.pilot.helpers import wait_for

TABS = (
    TabSummary("one", "first", TabState.IDLE),
    TabSummary("two", "second", TabState.STREAMING, 0.25),
    TabSummary("three", "third", TabState.WAITING, attention=True, pending="Bash: ls"),
)


class BarApp(App[None]):
    def __init__(self, tabs: tuple[TabSummary, ...] = TABS, active: str = "one") -> None:
        super().__init__()
        self.initial = (tabs, active)
        self.selected: list[str] = []

    def compose(self) -> ComposeResult:
        yield TabBar()
        yield Input(id="prompt")

    def on_mount(self) -> None:
        bar = self.query_one(TabBar)
        bar.tabs, bar.active = self.initial

    @on(TabBar.Selected)
    def _selected(self, event: TabBar.Selected) -> None:
        assert event.control is self.query_one(TabBar)
        self.selected.append(event.tab_id)


def line(bar: TabBar) -> str:
    return bar.render_lines(Region(0, 0, bar.size.width, 1))[0].text


async def test_clicking_a_tab_posts_selected_with_its_id() -> None:
    app = BarApp()
    async with app.run_test(size=(80, 10)) as pilot:
        bar = app.query_one(TabBar)
        await wait_for(pilot, lambda: "second" in line(bar), what="the bar drawn")
        drawn = line(bar)
        await pilot.click(TabBar, offset=(drawn.index("second"), 0))
        await pilot.click(TabBar, offset=(drawn.index("third") + 2, 0))
        await pilot.click(TabBar, offset=(drawn.index("first"), 0))
        await wait_for(pilot, lambda: len(app.selected) == 3, what="three Selected messages")
        assert app.selected == ["two", "three", "one"]
        assert bar.active == "one"  # the owner switches, not the bar


async def test_clicking_a_separator_or_empty_space_selects_nothing() -> None:
    app = BarApp()
    async with app.run_test(size=(80, 10)) as pilot:
        bar = app.query_one(TabBar)
        await wait_for(pilot, lambda: "second" in line(bar), what="the bar drawn")
        drawn = line(bar)
        await pilot.click(TabBar, offset=(drawn.index("│"), 0))
        await pilot.click(TabBar, offset=(78, 0))
        await pilot.click(TabBar, offset=(drawn.index("second"), 0))  # a real one, to know clicks got through
        await wait_for(pilot, lambda: app.selected, what="a Selected message")
        assert app.selected == ["two"]


async def test_the_bar_never_takes_focus_from_the_prompt() -> None:
    app = BarApp()
    async with app.run_test(size=(80, 10)) as pilot:
        prompt = app.query_one("#prompt", Input)
        prompt.focus()
        bar = app.query_one(TabBar)
        await wait_for(pilot, lambda: "second" in line(bar), what="the bar drawn")
        await pilot.click(TabBar, offset=(line(bar).index("second"), 0))
        await pilot.press("h", "i")
        assert app.focused is prompt
        assert prompt.value == "hi"
        await pilot.press("tab")
        assert app.focused is not bar


async def test_names_that_look_like_markup_or_controls_stay_inert() -> None:
    tabs = (
        TabSummary("m", "[bold red]x[/] [@click=app.quit]q[/]", TabState.IDLE),
        TabSummary("c", "evil\x1b[2J\x1b]0;title\x07\u202etxt", TabState.IDLE),
    )
    app = BarApp(tabs, "m")
    async with app.run_test(size=(120, 10)) as pilot:
        bar = app.query_one(TabBar)
        await wait_for(pilot, lambda: "evil" in line(bar), what="the bar drawn")
        drawn = line(bar)
        assert "[bold red]x[/] [@click=app.quit]q[/]" in drawn
        assert "evil␛[2J␛]0;title␇\\u202etxt" in drawn
        assert not any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or ch == "\u202e" for ch in drawn)
        await pilot.click(TabBar, offset=(drawn.index("q[/]"), 0))  # would quit if the name were markup
        await wait_for(pilot, lambda: app.selected, what="a Selected message")
        assert app.selected == ["m"]
        assert app.is_running


async def test_the_spinner_turns_with_frame_only_while_a_tab_streams(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    now = [100.0]
    monkeypatch.setattr(TabBar, "clock", staticmethod(lambda: now[0]))
    app = BarApp((TabSummary("s", "busy", TabState.STREAMING), TabSummary("i", "calm", TabState.IDLE)), "s")
    async with app.run_test(size=(80, 10)) as pilot:
        app.animation_level = "full"
        bar = app.query_one(TabBar)
        await wait_for(pilot, lambda: "busy" in line(bar), what="the bar drawn")
        before = line(bar)
        bar.frame += 1
        await pilot.pause()
        after = line(bar)
        assert before != after and before.replace("⠋", "⠙") == after
        # News 100 times a second turns it at most SPIN_HZ times a second, one frame per turn.
        for _ in range(10):
            bar.frame += 1
        await pilot.pause()
        assert line(bar) == after
        now[0] += 1 / TabBar.SPIN_HZ
        bar.frame += 1
        await pilot.pause()
        assert line(bar) == before.replace("⠋", "⠹")

        refreshes: list[object] = []
        bar.tabs = (TabSummary("s", "busy", TabState.IDLE), TabSummary("i", "calm", TabState.IDLE))
        await pilot.pause()
        original = bar.refresh
        bar.refresh = lambda *a, **k: refreshes.append(a) or original(*a, **k)  # type: ignore[method-assign]
        now[0] += 10
        bar.frame += 1
        await pilot.pause()
        assert refreshes == []  # idle: a tick draws nothing


async def test_equal_summaries_do_not_redraw_but_changes_do() -> None:
    app = BarApp()
    async with app.run_test(size=(80, 10)) as pilot:
        bar = app.query_one(TabBar)
        await wait_for(pilot, lambda: "second" in line(bar), what="the bar drawn")
        refreshes: list[object] = []
        original = bar.refresh
        bar.refresh = lambda *a, **k: refreshes.append(a) or original(*a, **k)  # type: ignore[method-assign]
        bar.tabs = tuple(TabSummary(t.tab_id, t.name, t.state, t.cost_usd, t.attention, pending=t.pending)
                         for t in TABS)
        await pilot.pause()
        assert refreshes == []
        # What the bar does not show (the session's news, every batch) draws nothing either.
        bar.tabs = tuple(replace(t, last_activity=1234.5, pending="other", cost_usd=t.cost_usd * 1.00001)
                         for t in TABS)
        await pilot.pause()
        assert refreshes == []
        bar.tabs = (*TABS[:2], TabSummary("three", "renamed", TabState.IDLE))
        await pilot.pause()
        assert refreshes
        assert "renamed" in line(bar)
