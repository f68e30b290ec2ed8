"""Keys that arrive with several Enters send exactly what was typed before each (issue 27, defect 1).

A paste without bracketed paste, keys batched over ssh or a fast typist deliver ``three⏎four⏎`` at
once: every key is queued before the first send is done. The prompt used to keep the sent text
until the send was done, so the second Enter sent ``threefour``; ``aaa⏎bbb⏎ccc⏎`` sent ``aaa``,
``aaabbb``, ``aaabbbccc``. Here the keys are posted the way a terminal delivers a burst (all at
once, queued behind each other), with the send slowed a little, as on a busy machine.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual import events

from claude_tui.session.status import Activity
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.dialogs.base import GuardedModal
from tests.pilot.helpers import chat, make_app, wait_for
from tests.pilot.test_dialogs import bash_request

BURSTS = [["three", "four"], ["aaa", "bbb", "ccc"], ["a", "b", "c", "d", "e"], ["x y", "yes", "n"]]


def burst(app: ClaudeTuiApp, prompts: list[str]) -> None:
    for prompt in prompts:
        for character in prompt:
            app.post_message(events.Key("space" if character == " " else character, character))
        app.post_message(events.Key("enter", "\r"))


async def _ready_with_slow_send(app: ClaudeTuiApp, pilot: Any, *, accepted: bool = True) -> list[str]:
    view = chat(app)
    await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                   what="CLI ready")
    sent: list[str] = []

    async def slow_send(message: dict[str, Any]) -> bool:
        await asyncio.sleep(0.01)  # the write takes a moment: the rest of the burst is queued meanwhile
        if accepted:
            sent.append(message["message"]["content"][-1]["text"])
        return accepted

    view.session.connection.send = slow_send  # type: ignore[method-assign]
    prompt_sent = view.session.prompt_sent

    def sent_and_over(*args: Any, **kwargs: Any) -> Any:
        # No CLI answers: its turn "ends" at once, so the next prompt is sent, not held for the turn's
        # end (held prompts: tests/pilot/test_prompt_queue.py, where a burst mid-turn goes one by one).
        changes = prompt_sent(*args, **kwargs)
        view.session.conversation.status.activity = Activity.IDLE
        return changes

    view.session.prompt_sent = sent_and_over  # type: ignore[method-assign]
    view.prompt_area.prompt.focus()
    await pilot.pause()
    return sent


@pytest.mark.parametrize("prompts", BURSTS, ids=["+".join(b) for b in BURSTS])
async def test_each_enter_of_a_burst_sends_what_was_typed_since_the_last(tmp_path: Path, prompts: list[str]) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        sent = await _ready_with_slow_send(app, pilot)
        burst(app, prompts)
        await wait_for(pilot, lambda: len(sent) >= len(prompts) and chat(app).prompt_area.prompt.text == "",
                       what=f"{len(prompts)} prompts sent, not {sent}")
        await pilot.pause()
        assert sent == prompts
        assert chat(app).prompt_area.prompt.text == ""


async def test_a_burst_below_a_waiting_dialog_queues_exactly_the_typed_prompts(tmp_path: Path) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        sent = await _ready_with_slow_send(app, pilot)
        view = chat(app)
        view.dialogs.asked(bash_request(request_id="burst-1"))  # as when the CLI's can_use_tool arrives
        dialog = view.dialogs.dialog
        await wait_for(pilot, lambda: isinstance(app.screen, GuardedModal), what="the dialog")
        burst(app, ["aaa", "bbb", "ccc"])
        await wait_for(pilot, lambda: len(sent) >= 3 and view.prompt_area.prompt.text == "", what=f"3 prompts sent, not {sent}")
        await pilot.pause()
        assert sent == ["aaa", "bbb", "ccc"]
        assert app.screen is dialog and dialog is not None and dialog.waiting and not dialog.settled


async def test_a_burst_that_cannot_be_sent_stays_in_the_prompt_in_order(tmp_path: Path) -> None:
    """The CLI refuses the writes: each prompt comes back, in the order typed, none lost or merged."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready_with_slow_send(app, pilot, accepted=False)
        burst(app, ["three", "four"])
        await wait_for(pilot, lambda: chat(app).prompt_area.prompt.text == "three\nfour",
                       what=f"both back in the prompt, not {chat(app).prompt_area.prompt.text!r}")
