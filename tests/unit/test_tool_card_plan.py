"""An ExitPlanMode card's body shows the plan as Markdown (readable after approving), not as JSON."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Markdown

from claude_tui.session.items import ToolItem, ToolState
from claude_tui.ui.log.tool_card import ToolCard
from tests.styles import APP_CSS

CSS = [APP_CSS]
PLAN = "## Plan\n\n1. Read the code\n2. Fix the bug\n3. Run tests"


class CardApp(App[None]):
    CSS_PATH = CSS  # type: ignore[assignment]

    def __init__(self, card: ToolCard) -> None:
        super().__init__()
        self.card = card

    def compose(self) -> ComposeResult:
        yield self.card


def _shown(card: ToolCard) -> str:
    return "\n".join(card.render_line(y).text for y in range(card.size.height)) + "\n" + "\n".join(
        w.render_line(y).text for w in card.query("*") for y in range(w.size.height))


def _approved(plan: object) -> ToolItem:
    return ToolItem(tool_use_id="t1", name="ExitPlanMode", input={"plan": plan}, state=ToolState.DONE,
                    result_text="User has approved your plan. You can now start coding.")


async def test_expanded_plan_card_renders_the_plan_as_markdown() -> None:
    card = ToolCard(_approved(PLAN))
    async with CardApp(card).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        card.toggle()
        await pilot.pause()
        await pilot.pause()
        plans = list(card.query(Markdown))
        assert len(plans) == 1 and plans[0].source == PLAN
        shown = _shown(card)
        assert "Read the code" in shown and "Fix the bug" in shown
        assert '"plan"' not in shown and "\\n" not in shown  # no JSON dump
        assert "## Plan" not in shown  # the heading is drawn as a heading, not as Markdown source
        assert "approved your plan" in shown  # the result still follows


async def test_plan_text_is_never_rich_markup_and_controls_are_visible() -> None:
    card = ToolCard(_approved("# Plan\n\nstep [bold red]one[/] [@click=app.quit]x[/] \x1b[2J"))
    async with CardApp(card).run_test(size=(100, 30)) as pilot:
        card.toggle()
        await pilot.pause()
        await pilot.pause()
        (plan,) = card.query(Markdown)
        assert "\x1b" not in plan.source and "␛[2J" in plan.source
        assert "[bold red]one[/]" in _shown(card)


async def test_other_inputs_and_a_planless_exit_still_show_the_input() -> None:
    card = ToolCard(ToolItem(tool_use_id="t2", name="ExitPlanMode", input={"other": 1}, state=ToolState.DONE))
    async with CardApp(card).run_test(size=(100, 30)) as pilot:
        card.toggle()
        await pilot.pause()
        assert not card.query(Markdown)
        assert '"other": 1' in _shown(card)
