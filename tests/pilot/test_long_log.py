"""A long log keeps a bounded window of widgets: jumping far back moves the window instead of
mounting everything in between, the way back to the newest items works (End, sending,
scrolling down), nothing that arrives meanwhile is lost, and loading a page keeps the
reader's place."""

from __future__ import annotations

import re
from pathlib import Path

from textual.pilot import Pilot

from claude_tui.config import Config
from claude_tui.fakecli import command
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import Item, NoteKind, TextItem, UserItem
from claude_tui.session.status import Activity
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.log.chat_log import ChatLog
from tests.pilot.helpers import chat, idle, send, wait_for


def long_app(tmp_path: Path, count: int) -> tuple[ClaudeTuiApp, Conversation]:
    conversation = Conversation()
    changes: list[object] = []
    for index in range(count):
        words = f"message {index} about things"
        item = UserItem(text=words) if index % 2 == 0 else TextItem(text=f"answer {index}: **bold** words")
        conversation.main.add(item, changes)  # type: ignore[arg-type]
    conversation.status.activity = Activity.IDLE
    options = CliOptions(cwd=str(tmp_path), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    return ClaudeTuiApp(options, Config(typeahead_guard_ms=0), conversation=conversation), conversation


def bounded(log: ChatLog) -> bool:
    return log.mounted_count <= log.max_mounted + log.page


def on_screen(log: ChatLog, item: Item) -> bool:
    widget = log.widget_for_item(item.id)
    return widget is not None and widget.region.height > 0 and log.region.overlaps(widget.region)


def later_text(log: ChatLog) -> str:
    marker = log.query_one(".later-marker")
    return str(marker.render()) if marker.display else ""


def later_count(log: ChatLog) -> int:
    found = re.search(r"↓ ([\d,]+) later", later_text(log))
    return int(found.group(1).replace(",", "")) if found else 0


async def jump_to_oldest(pilot: Pilot, log: ChatLog, conversation: Conversation) -> None:
    """What select mode's Home does: reveal the first item, scrolled to the top."""
    screen = chat(pilot.app)  # type: ignore[arg-type]
    await screen.prompt_area.navigator.reveal_item(conversation.items[0].id, "-selected")
    await wait_for(pilot, lambda: on_screen(log, conversation.items[0]), what="the oldest item on screen")


async def test_select_home_moves_the_window_and_end_brings_it_back(tmp_path: Path) -> None:
    app, conversation = long_app(tmp_path, 600)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = chat(app)
        log = screen.query_one(ChatLog)
        await pilot.pause(0.1)
        oldest, newest = conversation.items[0], conversation.items[-1]
        assert log.widget_for_item(oldest.id) is None and log.widget_for_item(newest.id) is not None

        await pilot.press("f2")
        await wait_for(pilot, lambda: screen.query_one("#select-bar").has_focus, what="select mode")
        await pilot.press("home")
        await wait_for(pilot, lambda: log.widget_for_item(oldest.id) is not None
                       and log.widget_for_item(oldest.id).has_class("-selected"), what="the first item selected")
        await wait_for(pilot, lambda: on_screen(log, oldest), what="scrolled to it")
        # The window moved: not 600 widgets, and the newest are represented by a marker.
        assert bounded(log), log.mounted_count
        assert log.widget_for_item(newest.id) is None and not log.at_tail
        assert "later items" in later_text(log)

        await pilot.press("escape")
        log.focus()
        await pilot.press("end")
        await wait_for(pilot, lambda: log.at_tail and on_screen(log, newest), what="back at the newest")
        assert bounded(log)
        assert log.is_anchored_to_end and later_text(log) == ""


async def test_items_arriving_while_away_are_shown_on_return(tmp_path: Path) -> None:
    app, conversation = long_app(tmp_path, 400)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = chat(app)
        log = screen.query_one(ChatLog)
        await pilot.pause(0.1)
        await jump_to_oldest(pilot, log, conversation)
        later = later_count(log)
        assert later > 0
        for n in range(3):
            await screen.show_changes(screen.session.conversation.add_note(f"late note {n}", NoteKind.INFO))
        notes = conversation.items[-3:]
        assert [getattr(i, "text", "") for i in notes] == ["late note 0", "late note 1", "late note 2"]
        # Not mounted while the reader is far back, but counted.
        assert all(log.widget_for_item(i.id) is None for i in notes)
        assert later_count(log) == later + 3
        assert on_screen(log, conversation.items[0]), "the reader stays where they were"

        log.anchor()  # what sending a prompt does
        await wait_for(pilot, lambda: all(on_screen(log, i) for i in notes), what="the late notes shown")
        assert log.at_tail and bounded(log)


async def test_sending_from_far_back_shows_the_prompt_and_the_answer(tmp_path: Path) -> None:
    app, conversation = long_app(tmp_path, 400)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = chat(app)
        log = screen.query_one(ChatLog)
        await pilot.pause(0.1)
        await jump_to_oldest(pilot, log, conversation)
        await send(pilot, "kw:plain and now?")
        await wait_for(pilot, lambda: idle(app), what="the answer")
        prompt = next(i for i in reversed(conversation.items) if isinstance(i, UserItem))
        answer = conversation.items[-1]
        assert prompt.text == "kw:plain and now?" and isinstance(answer, TextItem)
        await wait_for(pilot, lambda: on_screen(log, prompt) and on_screen(log, answer), what="prompt and answer")
        assert log.at_tail and bounded(log)


async def test_scrolling_down_from_far_back_reaches_the_newest(tmp_path: Path) -> None:
    app, conversation = long_app(tmp_path, 240)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = chat(app)
        log = screen.query_one(ChatLog)
        await pilot.pause(0.1)
        await jump_to_oldest(pilot, log, conversation)
        screen.query_one("#prompt").focus()
        for _ in range(200):
            if log.at_tail and log.scroll_y >= log.max_scroll_y:
                break
            await pilot.press("pagedown")  # the chat screen's PageDown, from the prompt
            await pilot.pause()
            assert bounded(log), log.mounted_count
        assert log.at_tail, "PageDown at the bottom of the window loads the later items"
        await wait_for(pilot, lambda: on_screen(log, conversation.items[-1]), what="the newest on screen")


async def test_clicking_the_later_marker_loads_the_next_page(tmp_path: Path) -> None:
    app, conversation = long_app(tmp_path, 400)
    async with app.run_test(size=(100, 30)) as pilot:
        log = chat(app).query_one(ChatLog)
        await pilot.pause(0.1)
        await jump_to_oldest(pilot, log, conversation)
        end = log.window[1]
        log.scroll_end(animate=False, immediate=True)
        await wait_for(pilot, lambda: log.query_one(".later-marker").region.height > 0, what="the marker visible")
        await pilot.click(".later-marker")
        await wait_for(pilot, lambda: log.window[1] > end, what="more items")
        assert log.widget_for_item(conversation.items[end].id) is not None


async def test_loading_earlier_items_keeps_the_readers_place(tmp_path: Path) -> None:
    app, conversation = long_app(tmp_path, 200)
    async with app.run_test(size=(100, 30)) as pilot:
        log = chat(app).query_one(ChatLog)
        await pilot.pause(0.1)
        first, _ = log.window
        assert first > 0
        top_item = conversation.items[first]
        widget = log.widget_for_item(top_item.id)
        assert widget is not None
        await wait_for(pilot, lambda: widget.virtual_region.height > 0, what="laid out")
        # At scroll 0 an item sits as far below the top of the view as its virtual y.
        offset = widget.virtual_region.y
        log.scroll_home(animate=False, immediate=True)
        await wait_for(pilot, lambda: log.window[0] < first, what="an earlier page")
        # The view did not jump to the page just loaded: the item read before is where it was.
        await wait_for(pilot, lambda: widget.virtual_region.y - log.scroll_y == offset,
                       what=f"the item back at {offset} lines from the top")
        assert log.scroll_y > 0
        assert log.widget_for_item(conversation.items[log.window[0]].id) is not None


async def test_new_items_are_followed_when_the_reader_is_at_the_end(tmp_path: Path) -> None:
    app, conversation = long_app(tmp_path, 60)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = chat(app)
        log = screen.query_one(ChatLog)
        await wait_for(pilot, lambda: on_screen(log, conversation.items[-1]), what="the newest on screen")
        # Find or select revealing the newest item scrolls to it, which releases the anchor.
        log.scroll_to_widget(log.widget_for_item(conversation.items[-1].id), animate=False)
        await pilot.pause()
        log.release_anchor()
        for n in range(8):
            await screen.show_changes(screen.session.conversation.add_note(f"late note {n}", NoteKind.INFO))
        await wait_for(pilot, lambda: on_screen(log, conversation.items[-1]), what="the newest note followed")
        assert log.is_anchored_to_end
