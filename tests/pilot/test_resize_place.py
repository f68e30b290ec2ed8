"""A reader scrolled up in the log keeps their place when the terminal is resized: the words at the
top of the view before are at the top after, although every answer wrapped anew (one widget holds a
whole answer, hundreds of rows, so keeping the rows above the view's top made the text jump)."""

from __future__ import annotations

import re
from pathlib import Path

from textual.pilot import Pilot

from claude_tui.config import Config
from claude_tui.fakecli import command
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import TextItem, UserItem
from claude_tui.session.status import Activity
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.log.assistant_text import AssistantText
from claude_tui.ui.log.chat_log import ChatLog
from tests.pilot.helpers import chat, wait_for

WORD = re.compile(r"w\d+x\d+")


def answer(number: int) -> str:
    """A long answer whose every word is unique (`w<answer>x<word>`), with code and a list."""
    parts = []
    for section in range(12):
        words = " ".join(f"w{number}x{section * 100 + i}" for i in range(90))
        parts.append(f"## Part {section}\n\n{words}.\n\n1. step\n2. step\n\n```python\nx = {section}\n```\n\n")
    return "".join(parts)


def app_with_answers(tmp_path: Path, count: int = 4) -> ClaudeTuiApp:
    conversation = Conversation()
    changes: list[object] = []
    for index in range(count):
        conversation.main.add(UserItem(text=f"question {index}"), changes)  # type: ignore[arg-type]
        conversation.main.add(TextItem(text=answer(index)), changes)  # type: ignore[arg-type]
    conversation.status.activity = Activity.IDLE
    options = CliOptions(cwd=str(tmp_path), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    return ClaudeTuiApp(options, Config(typeahead_guard_ms=0), conversation=conversation)


def first_word_on_top(log: ChatLog) -> str | None:
    """The first of our words on the first rows of the view (the row at the top may be a blank or a heading)."""
    top = round(log.scroll_y)
    for widget in log.query(AssistantText):
        region = widget.virtual_region
        if region.y <= top < region.bottom:
            for y in range(top - region.y, min(region.height, top - region.y + 4)):
                found = WORD.search(widget.render_line(y).text)
                if found:
                    return found.group()
            return None
    return None


def rows_from_top(log: ChatLog, word: str) -> int | None:
    """On which row of the view `word` is shown now."""
    top = round(log.scroll_y)
    for widget in log.query(AssistantText):
        region = widget.virtual_region
        for y in range(max(0, top - region.y), min(region.height, top - region.y + log.size.height)):
            if word in widget.render_line(y).text:
                return region.y + y - top
    return None


async def resize(pilot: Pilot, log: ChatLog, width: int, height: int) -> None:
    await pilot.resize_terminal(width, height)
    await wait_for(pilot, lambda: pilot.app.size == (width, height) and log.size.width > width - 10,
                   what="the new size")
    await pilot.pause()


async def test_resizing_keeps_the_words_at_the_top_of_the_view(tmp_path: Path) -> None:
    app = app_with_answers(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        log = chat(app).query_one(ChatLog)
        await wait_for(pilot, lambda: log.max_scroll_y > 400, what="the answers laid out")
        for width, height in ((120, 40), (80, 40), (150, 30), (61, 45), (120, 40)):
            await resize(pilot, log, width, height)
            # Reading a third into the second answer, well away from both ends of the log.
            second = list(log.query(AssistantText))[1].virtual_region
            log.scroll_to(y=second.y + second.height // 3, animate=False, immediate=True)
            await pilot.pause()
            word = first_word_on_top(log)
            assert word is not None, (width, round(log.scroll_y), log.max_scroll_y)
            for new_width, new_height in ((width - 23, height), (width + 17, height - 6)):
                await resize(pilot, log, new_width, new_height)
                row = rows_from_top(log, word)
                assert row is not None and 0 <= row <= 2, (word, width, new_width, row)
