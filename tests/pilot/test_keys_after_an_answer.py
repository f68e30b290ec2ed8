"""Keys typed right after the key that answers a dialog go on into the prompt (issue 28, item 10).

With requests queued, Tab then ``yhello world`` in one burst approved the first request and lost
"hello world": the keys after ``y`` reached the answered dialog (still on top until it closed),
which dropped them. They belong to the prompt, in order; the next dialog opens waiting and none
of them answers it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events

from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.dialogs.base import GuardedModal
from tests.pilot.helpers import chat, make_app, wait_for
from tests.pilot.test_dialogs import bash_request
from tests.pilot.test_typing_never_answers import key_for

AFTER = "hello world"


def post(app: ClaudeTuiApp, text: str) -> None:
    for character in text:
        app.post_message(key_for(character))


@pytest.mark.parametrize("answer", ["y", "n"])
async def test_keys_after_the_answering_key_reach_the_prompt_not_the_next_dialog(tmp_path: Path,
                                                                                answer: str) -> None:
    app = make_app(tmp_path)  # no guard: Tab, then the answer at once, as after a pause
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="CLI ready")
        sent: list[dict[str, Any]] = []

        async def answer_permission(payload: dict[str, Any]) -> bool:
            sent.append(payload)
            return True

        view.session.connection.answer_permission = answer_permission  # type: ignore[method-assign]
        for number in (1, 2, 3):
            view.dialogs.asked(bash_request(request_id=f"queued-{number}"))
        first = view.dialogs.dialog
        await wait_for(pilot, lambda: app.screen is first and first.is_mounted, what="the first dialog")
        await pilot.pause()  # shown (its ScreenResume handled)
        app.post_message(events.Key("tab", None))
        post(app, answer + AFTER)
        await wait_for(pilot, lambda: len(sent) >= 1 and isinstance(app.screen, GuardedModal)
                       and app.screen is not first, what="the answer and the next dialog")
        for _ in range(20):  # the keys are applied in the prompt's own queue: let it drain
            await pilot.pause()
        second = app.screen
        assert isinstance(second, GuardedModal)
        assert view.prompt_area.prompt.text == AFTER
        assert len(sent) == 1 and sent[0]["response"]["request_id"] == "queued-1"
        assert second.waiting and not second.settled


async def test_keys_after_no_on_the_quit_question_reach_the_prompt(tmp_path: Path) -> None:
    """The same for the smaller guarded modals: Ctrl+Q while a turn runs, Tab, ``nhello world``."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="CLI ready")
        await view.prompt_area.send_prompt("kw:slow tell me a story")
        await wait_for(pilot, lambda: view.session.busy, what="the turn running")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, GuardedModal) and app.screen.is_mounted,
                       what="the quit question")
        await pilot.pause()
        app.post_message(events.Key("tab", None))
        post(app, "n" + AFTER)
        await wait_for(pilot, lambda: app.screen is app.chat_screen, what="the question answered")
        await wait_for(pilot, lambda: len(view.prompt_area.prompt.text) >= len(AFTER), what="the keys in the prompt")
        assert view.prompt_area.prompt.text == AFTER
        assert app.is_running
        await app.shutdown()
