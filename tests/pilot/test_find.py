"""Ctrl+F: find in the whole conversation, including items whose widgets are not mounted."""

from __future__ import annotations

from pathlib import Path

from claude_tui.config import Config
from claude_tui.fakecli import command
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import TextItem, UserItem
from claude_tui.session.status import Activity
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.panels.find_bar import FindBar
from tests.pilot.helpers import chat, wait_for

NEEDLES = (6, 101, 190)
"""Items (indices) that contain the word searched for."""


def long_conversation(count: int = 200) -> Conversation:
    conversation = Conversation()
    changes: list[object] = []
    for index in range(count):
        words = f"message {index} about things"
        if index in NEEDLES:
            words += " with a Zebra-crossing in it"
        item = UserItem(text=words) if index % 2 == 0 else TextItem(text=words)
        conversation.main.add(item, changes)  # type: ignore[arg-type]
    conversation.status.activity = Activity.IDLE
    return conversation


def make_long_app(tmp_path: Path) -> tuple[ClaudeTuiApp, Conversation]:
    conversation = long_conversation()
    options = CliOptions(cwd=str(tmp_path), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    return ClaudeTuiApp(options, Config(typeahead_guard_ms=0), conversation=conversation), conversation


async def test_find_reaches_unmounted_items_with_next_and_previous(tmp_path: Path) -> None:
    app, conversation = make_long_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = chat(app)
        log = screen.query_one(ChatLog)
        await pilot.pause(0.1)
        oldest_needle = conversation.items[NEEDLES[0]]
        assert log.widget_for_item(oldest_needle.id) is None, "the test needs an unmounted match"

        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: screen.query(FindBar) and screen.query_one("#find-input").has_focus,
                       what="find bar")
        await pilot.press(*"zebra")
        bar = screen.query_one(FindBar)
        await wait_for(pilot, lambda: bar.counter == "1 of 3", what="count")
        count = str(screen.query_one("#find-count").render())
        assert "1 of 3" in count
        # The newest match is current and highlighted.
        newest = conversation.items[NEEDLES[2]]
        await wait_for(pilot, lambda: log.widget_for_item(newest.id) is not None
                       and log.widget_for_item(newest.id).has_class("-find-current"), what="highlight")

        await pilot.press("enter")  # next: upwards
        assert bar.counter == "2 of 3"
        await pilot.press("f3")
        assert bar.counter == "3 of 3"
        await wait_for(pilot, lambda: log.widget_for_item(oldest_needle.id) is not None, what="revealed")
        widget = log.widget_for_item(oldest_needle.id)
        await wait_for(pilot, lambda: widget.has_class("-find-current"), what="highlighted")
        assert len(screen.query(".-find-current")) == 1
        # Scrolled into view.
        await wait_for(pilot, lambda: log.scroll_offset.y <= widget.virtual_region.y
                       <= log.scroll_offset.y + log.size.height, what="scrolled into view")

        await pilot.press("f3")  # wraps to the newest
        assert bar.counter == "1 of 3"
        await pilot.press("shift+f3")  # previous: back to the oldest
        assert bar.counter == "3 of 3"

        await pilot.press("backspace", *"qqq")
        await wait_for(pilot, lambda: bar.counter == "no matches", what="no matches")
        assert not screen.query(".-find-current")

        await pilot.press("escape")
        await pilot.pause(0.05)
        assert not bar.display
        assert screen.query_one("#prompt").has_focus


async def test_find_counts_items_across_kinds(tmp_path: Path) -> None:
    from claude_tui.session.export import find_items

    conversation = long_conversation()
    assert [conversation.items.index(next(i for i in conversation.items if i.id == item_id))
            for item_id in find_items(conversation.items, "ZEBRA")] == list(NEEDLES)
    assert find_items(conversation.items, "") == []


async def test_find_shows_the_matching_line_of_a_long_answer(tmp_path: Path) -> None:
    """A match 300 lines into one answer is scrolled to, not the answer's first line, also when it
    is narrowed down key by key within the same answer ("p" matches its first line)."""
    conversation = Conversation()
    changes: list[object] = []
    conversation.main.add(UserItem(text="write a lot"), changes)  # type: ignore[arg-type]
    body = "\n\n".join(f"paragraph {i}" + (" with the okapi in it" if i == 150 else "") for i in range(200))
    conversation.main.add(TextItem(text=body), changes)  # type: ignore[arg-type]
    conversation.main.add(UserItem(text="thanks"), changes)  # type: ignore[arg-type]
    conversation.status.activity = Activity.IDLE
    options = CliOptions(cwd=str(tmp_path), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    app = ClaudeTuiApp(options, Config(typeahead_guard_ms=0), conversation=conversation)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = chat(app)
        log = screen.query_one(ChatLog)
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: screen.query(FindBar) and screen.query_one("#find-input").has_focus,
                       what="find bar")
        await pilot.press(*"paragraph 150 with")
        answer = conversation.items[1]
        await wait_for(pilot, lambda: log.widget_for_item(answer.id) is not None
                       and log.widget_for_item(answer.id).has_class("-find-current"), what="highlight")
        widget = log.widget_for_item(answer.id)
        assert widget.size.height > 3 * log.size.height, "the test needs an answer many screens tall"

        def match_on_screen() -> bool:
            top = log.scroll_offset.y - widget.virtual_region.y
            rows = [widget.render_line(y).text for y in range(max(0, top), min(widget.size.height,
                                                                               top + log.size.height))]
            return any("okapi" in row for row in rows)

        await wait_for(pilot, match_on_screen, what="the matching line in view")
