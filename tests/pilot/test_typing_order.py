"""Keys typed right after Enter stay in order (issue 14, finding 2).

The prompt's text leaves it only once Claude Code took it; keys typed meanwhile stay. Setting the
prompt's ``text`` to what was left put the cursor at the start, so every key typed after the first
landed before it ("also check" came out "lso checka"). Here the send is slowed a little, as a busy
machine does, and keys are posted the way a terminal delivers them: the first behind Enter at once,
the rest right after the prompt went.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual import events

from claude_tui.session.status import Activity
from tests.pilot.helpers import chat, make_app, wait_for

PROMPTS = 50
FOLLOW_UP = "also check"


def _key(character: str) -> events.Key:
    return events.Key("space" if character == " " else character, character)


async def test_keys_typed_at_once_after_enter_stay_in_order(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="CLI ready")
        sent: list[str] = []

        async def slow_send(message: dict[str, Any]) -> bool:
            # The write took a moment: keys arrive meanwhile. (Not passed on: 50 turns would only
            # slow the test; what matters is the prompt while the send is awaited.)
            await asyncio.sleep(0.01)
            sent.append(message["message"]["content"][-1]["text"])
            return True

        prompt_sent = screen.session.prompt_sent

        def sent_and_over(*args: Any, **kwargs: Any) -> Any:
            # No CLI answers: the turn "ends" at once, so the next prompt is sent, not held for it.
            changes = prompt_sent(*args, **kwargs)
            screen.session.conversation.status.activity = Activity.IDLE
            return changes

        screen.session.prompt_sent = sent_and_over  # type: ignore[method-assign]

        screen.session.connection.send = slow_send  # type: ignore[method-assign]
        prompt = screen.query_one("#prompt")
        reorders = 0
        for index in range(PROMPTS):
            prompt.text = f"prompt {index}"  # type: ignore[attr-defined]
            prompt.move_cursor(prompt.document.end)  # type: ignore[attr-defined]
            prompt.focus()
            await pilot.pause()
            # Enter and the first key at once; the rest once the prompt went (a typist's next keys).
            app.post_message(events.Key("enter", "\r"))
            app.post_message(_key(FOLLOW_UP[0]))
            await wait_for(pilot, lambda index=index: len(sent) == index + 1, what=f"prompt {index} sent")
            for character in FOLLOW_UP[1:]:
                app.post_message(_key(character))
            await wait_for(pilot, lambda index=index: len(sent) == index + 1
                           and len(prompt.text) == len(FOLLOW_UP),  # type: ignore[attr-defined]
                           what=f"prompt {index} sent and the follow-up typed")
            if prompt.text != FOLLOW_UP:  # type: ignore[attr-defined]
                reorders += 1
        print(f"\n{PROMPTS} prompts, each followed at once by {FOLLOW_UP!r}: {reorders} reordered")
        assert sent == [f"prompt {index}" for index in range(PROMPTS)]
        assert reorders == 0
