"""A prompt typed while a turn runs is held until the turn ends: editable, withdrawable (issue 27).

Up on an empty prompt takes the held prompts back into it, as in Claude Code; Esc interrupts
the turn and brings them back too, instead of sending them the moment the turn stops.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from claude_tui.session.items import UserItem
from claude_tui.session.status import Activity
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.panels.composer import PromptInput
from claude_tui.ui.panels.queued_prompts import QueuedPrompts
from tests.pilot.helpers import chat, make_app, send, wait_for


def _prompts(app: ClaudeTuiApp) -> list[str]:
    return [i.text for i in chat(app).session.conversation.items if isinstance(i, UserItem)]


async def _slow_turn(pilot: Pilot) -> None:
    app: ClaudeTuiApp = pilot.app  # type: ignore[assignment]
    await send(pilot, "kw:slow story")
    status = chat(app).session.conversation.status
    await wait_for(pilot, lambda: status.turn_running and status.activity is not Activity.IDLE, what="a turn")


async def test_a_queued_prompt_can_be_taken_back_edited_and_goes_out_when_the_turn_ends(tmp_path: Path) -> None:
    app = make_app(tmp_path, env={"FAKE_CLAUDE_DELAY_MS": "10"})
    async with app.run_test(size=(120, 40)) as pilot:
        await _slow_turn(pilot)
        view = chat(app)
        prompt = view.query_one(PromptInput)
        await send(pilot, "kw:plain and then this")
        await pilot.pause()
        assert _prompts(app) == ["kw:slow story"]  # held, not handed to the CLI's queue
        assert prompt.text == ""
        held = view.query_one(QueuedPrompts)
        assert held.display and "kw:plain and then this" in str(held.render())
        await pilot.press("up")
        assert prompt.text == "kw:plain and then this"
        assert not view.prompt_area.queue and not held.display
        await pilot.press(*" too", "enter")
        await pilot.pause()
        assert view.prompt_area.queue.texts == ["kw:plain and then this too"] and prompt.text == ""
        assert view.session.busy
        await wait_for(pilot, lambda: _prompts(app) == ["kw:slow story", "kw:plain and then this too"],
                       timeout=30, what="the held prompt sent once the turn ended")
        await wait_for(pilot, lambda: not view.session.busy and view.session.conversation.status.turns == 2,
                       timeout=30, what="its own turn")
        assert not held.display


async def test_esc_interrupts_and_brings_the_queue_back_rather_than_sending_it(tmp_path: Path) -> None:
    app = make_app(tmp_path, env={"FAKE_CLAUDE_DELAY_MS": "10"})
    async with app.run_test(size=(120, 40)) as pilot:
        await _slow_turn(pilot)
        view = chat(app)
        prompt = view.query_one(PromptInput)
        await send(pilot, "kw:plain first")
        await send(pilot, "kw:plain second")
        await pilot.pause()
        prompt.text = "a draft"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not view.session.busy, timeout=30, what="the interrupted turn's end")
        await pilot.pause(0.2)
        assert _prompts(app) == ["kw:slow story"]
        assert prompt.text == "kw:plain first\nkw:plain second\na draft"
        assert not view.prompt_area.queue


async def test_a_burst_typed_mid_turn_is_held_as_typed_and_sent_one_prompt_each(tmp_path: Path) -> None:
    from textual import events

    app = make_app(tmp_path, env={"FAKE_CLAUDE_DELAY_MS": "2"})
    async with app.run_test(size=(120, 40)) as pilot:
        await _slow_turn(pilot)
        view = chat(app)
        view.query_one(PromptInput).focus()
        for prompt in ("kw:plain bbb", "kw:plain ccc"):
            for character in prompt:
                app.post_message(events.Key("space" if character == " " else character, character))
            app.post_message(events.Key("enter", "\r"))
        await wait_for(pilot, lambda: view.prompt_area.queue.texts == ["kw:plain bbb", "kw:plain ccc"] or
                       len(_prompts(app)) > 1, what="the burst held")
        await wait_for(pilot, lambda: _prompts(app) == ["kw:slow story", "kw:plain bbb", "kw:plain ccc"],
                       timeout=60, what="each sent as its own prompt, never merged")
        await wait_for(pilot, lambda: view.session.conversation.status.turns == 3 and not view.session.busy,
                       timeout=60, what="three turns")
