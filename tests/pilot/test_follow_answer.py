"""The log follows a growing answer: keys that scroll down while the view is already at the end
(PageDown from the prompt or the log, Down, End) leave it following. Textual lets go of the end on any scroll key,
and takes it back only when the position reaches the end; at the end already it does not move, so
the log stopped following until the reader scrolled up and down again."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from claude_tui.config import Config
from claude_tui.fakecli import command
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import TextItem, UserItem
from claude_tui.session.status import Activity
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.log.chat_log import ChatLog
from tests.pilot.helpers import chat, wait_for


def app_with_history(tmp_path: Path) -> tuple[ClaudeTuiApp, Conversation]:
    conversation = Conversation()
    changes: list[object] = []
    for index in range(6):
        conversation.main.add(UserItem(text=f"question {index}"), changes)  # type: ignore[arg-type]
        conversation.main.add(TextItem(text="word " * 400), changes)  # type: ignore[arg-type]
    conversation.status.activity = Activity.IDLE
    options = CliOptions(cwd=str(tmp_path), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    return ClaudeTuiApp(options, Config(typeahead_guard_ms=0), conversation=conversation), conversation


def chunk(number: int) -> str:
    return (f"\n\n## Part {number}\n\n" + "more words " * 40 + "\n\n```python\nx = 1\n```\n\n"
            "| a | b |\n|---|---|\n| 1 | 2 |\n\n")


async def stream(pilot: Pilot, log: ChatLog, item: TextItem, parts: range) -> None:
    for number in parts:
        item.text += chunk(number)
        await log.append_text(item, chunk(number))
        await pilot.pause()


def at_end(log: ChatLog) -> bool:
    return log.max_scroll_y > 0 and log.scroll_y >= log.max_scroll_y


@pytest.mark.parametrize(("key", "in_log"), [("pagedown", False), ("pagedown", True), ("down", True),
                                             ("end", True)])
async def test_a_scroll_down_at_the_end_keeps_following(tmp_path: Path, key: str, in_log: bool) -> None:
    app, conversation = app_with_history(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        log = chat(app).query_one(ChatLog)
        if in_log:
            log.focus()  # Down and End are the log's own keys
        await wait_for(pilot, lambda: at_end(log), what="the log at its end")
        changes: list[object] = []
        conversation.main.add(UserItem(text="go"), changes)  # type: ignore[arg-type]
        item = TextItem(streaming=True)
        conversation.main.add(item, changes)  # type: ignore[arg-type]
        log.add_item(conversation.items[-2])
        log.add_item(item)
        await stream(pilot, log, item, range(3))
        assert at_end(log), "following the answer"
        await pilot.press(key)
        await pilot.pause()
        await stream(pilot, log, item, range(3, 8))
        await wait_for(pilot, lambda: at_end(log), timeout=2, what=f"the log following after {key}")
