"""`/model` opens a picker of the CLI's models (as Claude Code's own does); `/model NAME` switches at
once; either way the status bar shows the model as soon as the CLI confirms the switch."""

from __future__ import annotations

from pathlib import Path

from claude_tui.ui.manage.model import ModelPicker
from tests.pilot.helpers import chat, make_app, send, wait_for


def _bar(app) -> str:  # type: ignore[no-untyped-def]
    return str(chat(app).query_one("#status-bar").render())


async def test_slash_model_opens_the_picker_and_a_number_switches(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await send(pilot, "/model")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPicker), what="the picker")
        picker = app.screen
        assert isinstance(picker, ModelPicker)
        models = chat(app).session.conversation.models
        assert picker.values == [str(m["value"]) for m in models]
        listing = picker.query_one("#model-list")
        texts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]  # type: ignore[attr-defined]
        assert texts[0].startswith("1. ✔ ")  # the model running now is marked
        assert any("per Mtok" in text for text in texts)  # the description, with the price
        sonnet = picker.values.index("sonnet") + 1
        await pilot.press(str(sonnet))
        await wait_for(pilot, lambda: not isinstance(app.screen, ModelPicker), what="the picker closed")
        status = chat(app).session.conversation.status
        await wait_for(pilot, lambda: status.model == "claude-sonnet-5-5", what="the CLI's confirmed model")
        await wait_for(pilot, lambda: "claude-sonnet-5-5" in _bar(app), what="the bar, before any turn")
        assert status.turns == 0


async def test_escape_keeps_the_model(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await send(pilot, "/model")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPicker), what="the picker")
        before = chat(app).session.conversation.status.model
        await pilot.press("down", "escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ModelPicker), what="the picker closed")
        await pilot.pause(0.2)
        assert chat(app).session.conversation.status.model == before


async def test_slash_model_name_switches_at_once_and_the_bar_follows(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await send(pilot, "/model sonnet")
        status = chat(app).session.conversation.status
        await wait_for(pilot, lambda: "claude-sonnet-5-5" in _bar(app), what="the bar shows the new model")
        assert not isinstance(app.screen, ModelPicker)
        assert status.turns == 0 and chat(app).session.options.model == "sonnet"


async def test_arrows_and_enter_pick_and_the_clis_text_stays_inert(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await send(pilot, "/model")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPicker), what="the picker")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ModelPicker), what="the picker closed")
        models = chat(app).session.conversation.models
        models[1] = {**models[1], "displayName": "[bold]Opus[/]\x1b]0;pwned\x07"}
        await send(pilot, "/model")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPicker), what="the picker again")
        listing = app.screen.query_one("#model-list")
        shown = str(listing.get_option_at_index(1).prompt)  # type: ignore[attr-defined]
        assert "[bold]Opus[/]" in shown and "\x1b" not in shown and "\x07" not in shown
        await wait_for(pilot, lambda: app.focused is listing, what="the list focused")
        await pilot.press("down")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ModelPicker), what="picked")
        # Opus after the switch, not Default (which resolves to the same model): the pick stays the pick.
        await wait_for(pilot, lambda: chat(app).session.conversation.status.turns == 0
                       and chat(app).session.options.model == "opus", what="switched")
        # The CLI's "Set model to `opus (claude-opus-5-5)`" line came before its answer: by the turn's
        # end it has been read, and what it names is in the options.
        await send(pilot, "kw:plain hi")
        await wait_for(pilot, lambda: chat(app).session.conversation.status.turns == 1, what="the turn")
        assert chat(app).session.options.model == "opus"


async def test_alt_p_opens_the_picker_as_in_claude_code(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: chat(app).session.conversation.models, what="the CLI's models")
        await pilot.press("h", "alt+p")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPicker), what="the picker")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ModelPicker), what="the picker closed")
        assert chat(app).query_one("#prompt").text == "h"  # type: ignore[attr-defined]  # the draft stays
