"""Typing, sending and quitting on the chat screen: keys reach the prompt, sending follows the answer.

Driven against the fake CLI, like a user at the keyboard.
"""

from __future__ import annotations

import time
from pathlib import Path

from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from claude_tui.session.items import ToolItem, UserItem
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat.welcome import welcome_text
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.log.tool_card import ToolCard
from claude_tui.ui.panels.composer import CompletionMenu, PromptInput
from claude_tui.ui.panels.sidebar import TaskSidebar
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


def _prompt(app: ClaudeTuiApp) -> PromptInput:
    return chat(app).query_one(PromptInput)


def _notes(app: ClaudeTuiApp) -> list[str]:
    return [str(notification.message) for notification in app._notifications]


async def _ready(pilot: Pilot) -> None:
    screen = chat(pilot.app)  # type: ignore[arg-type]
    await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="CLI ready")


def _burst(app: ClaudeTuiApp, *keys: tuple[str, str | None]) -> None:
    """Keys arriving together, as from a fast typist: all queued before the app handles the first."""
    driver = app._driver
    assert driver is not None
    for key, character in keys:
        event = events.Key(key, character)
        event.set_sender(app)
        driver.send_message(event)


# -- 1. sending while scrolled up --------------------------------------------------------------


async def test_sending_while_scrolled_up_jumps_to_the_end_and_follows_the_answer(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "kw:long tell me everything")
        await wait_for(pilot, lambda: idle(app), what="long answer")
        log = chat(app).query_one(ChatLog)
        # The answer's Markdown lays out after the turn ends; wait for it rather than guess how long.
        await wait_for(pilot, lambda: log.max_scroll_y > 40, what="a conversation taller than the screen")
        for _ in range(3):
            await pilot.press("pageup")
        await wait_for(pilot, lambda: not log.is_anchored_to_end, what="scrolled up")
        await send(pilot, "kw:plain and now?")
        await wait_for(pilot, lambda: chat(app).session.conversation.status.turns >= 2 and idle(app), what="second turn")
        await wait_for(pilot, lambda: log.is_anchored_to_end and log.scroll_y == log.max_scroll_y,
                       what="following the answer to the end")
        prompt_widget = log.widget_for_item(next(i for i in reversed(chat(app).session.conversation.items)
                                                 if isinstance(i, UserItem)).id)
        assert prompt_widget is not None and log.region.overlaps(prompt_widget.region), "your prompt is on screen"


# -- 2. Ctrl+E from the prompt ---------------------------------------------------------------------


async def test_ctrl_e_toggles_the_latest_tool_card_while_the_prompt_has_focus(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        assert any(isinstance(item, ToolItem) for item in chat(app).session.conversation.items)
        card = list(chat(app).query(ToolCard))[-1]
        prompt = _prompt(app)
        prompt.focus()
        prompt.text = "draft"
        prompt.move_cursor((0, 0))
        await pilot.pause()
        assert app.focused is prompt
        before = card.expanded
        await pilot.press("ctrl+e")
        assert card.expanded is not before
        assert prompt.cursor_location == (0, 0), "Ctrl+E did not also move the cursor"
        await pilot.press("ctrl+e")
        assert card.expanded is before
        # Editing keys the prompt keeps: End, Ctrl+A, Ctrl+K, Ctrl+U, Ctrl+W.
        await pilot.press("end")
        assert prompt.cursor_location == (0, 5)
        await pilot.press("ctrl+a")
        assert prompt.cursor_location == (0, 0)
        await pilot.press("ctrl+k")
        assert prompt.text == ""


async def test_ctrl_e_in_the_find_field_still_goes_to_the_end_of_the_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        card = list(chat(app).query(ToolCard))[-1]
        before = card.expanded
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.focused, Input), what="find field")
        await pilot.press("a", "b", "home", "ctrl+e")
        field = app.focused
        assert isinstance(field, Input) and field.cursor_position == 2
        assert card.expanded is before


# -- 3. printable keys while the sidebar has focus -----------------------------------------------------


async def test_typing_in_the_sidebar_goes_to_the_prompt_but_its_own_keys_stay(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:agent look around")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        sidebar = chat(app).query_one(TaskSidebar)
        await wait_for(pilot, lambda: sidebar.display and sidebar.query_one("#sidebar-agents").display,
                       what="agent row")
        prompt = _prompt(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        agents = sidebar.query_one("#sidebar-agents")
        assert app.focused is agents
        await pilot.press("h", "i", "space", "question_mark")
        assert prompt.text == "hi ?"
        assert app.focused is prompt
        # The sidebar's own keys: x (stop) and the arrows stay with it, nothing is typed.
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.focused is agents
        await pilot.press("x", "down", "up")
        await pilot.pause()
        assert prompt.text == "hi ?"
        assert app.focused is agents


async def test_typing_in_the_log_goes_to_the_prompt(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        log = chat(app).query_one(ChatLog)
        log.focus()
        await pilot.pause()
        assert app.focused is log
        await pilot.press("o", "k")
        # The keys go through the log's typeahead, which hands them on as the loop gets to them.
        await wait_for(pilot, lambda: _prompt(app).text == "ok", what="the keys in the prompt")
        assert app.focused is _prompt(app)


# -- 4. Enter typed quickly after the first character --------------------------------------------------


async def test_fast_typing_with_enter_in_the_log_sends_the_prompt(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        screen = chat(app)
        log = screen.query_one(ChatLog)
        log.focus()
        await pilot.pause()
        assert app.focused is log
        _burst(app, ("x", "x"), ("y", "y"), ("enter", "\r"))
        await wait_for(pilot, lambda: any(isinstance(i, UserItem) for i in screen.session.conversation.items),
                       what="the prompt sent")
        sent = [i.text for i in screen.session.conversation.items if isinstance(i, UserItem)]
        assert sent == ["xy"]
        assert _prompt(app).text == ""
        assert app.focused is _prompt(app)


async def test_fast_typing_with_a_newline_key_in_the_log_keeps_it_in_the_prompt(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        screen = chat(app)
        screen.query_one(ChatLog).focus()
        await pilot.pause()
        _burst(app, ("a", "a"), ("ctrl+j", None), ("b", "b"), ("shift+enter", None), ("c", "c"))
        await wait_for(pilot, lambda: _prompt(app).text == "a\nb\nc", what="the burst in the prompt")
        await pilot.pause(0.2)  # and nothing sent meanwhile or after
        assert _prompt(app).text == "a\nb\nc"
        assert not any(isinstance(i, UserItem) for i in screen.session.conversation.items)


async def test_enter_on_the_log_alone_is_not_taken_for_typing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        screen = chat(app)
        _prompt(app).text = "not yet"
        log = screen.query_one(ChatLog)
        log.focus()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert not any(isinstance(i, UserItem) for i in screen.session.conversation.items)
        assert _prompt(app).text == "not yet"


async def test_enter_in_the_find_field_is_never_taken_for_typeahead(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        screen = chat(app)
        _prompt(app).text = "draft"
        screen.typeahead.in_flight = 1  # as if a redirection's end never came back
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.focused, Input), what="find field")
        await pilot.press("a", "enter")
        await pilot.pause(0.2)
        assert not any(isinstance(i, UserItem) for i in screen.session.conversation.items)
        assert _prompt(app).text == "draft"
        assert isinstance(app.focused, Input) and app.focused.value == "a"


# -- 5. Ctrl+C -------------------------------------------------------------------------------------------


async def test_ctrl_c_clears_a_draft_and_up_brings_it_back(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        prompt = _prompt(app)
        prompt.focus()
        await pilot.press(*"half a thought")
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running and app.return_code is None
        assert prompt.text == ""
        assert any("Up" in note for note in _notes(app))
        await pilot.press("up")
        assert prompt.text == "half a thought"


async def test_ctrl_c_with_a_selection_in_the_prompt_copies_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        prompt = _prompt(app)
        prompt.focus()
        prompt.text = "keep me"
        prompt.select_all()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert prompt.text == "keep me"
        assert app.clipboard == "keep me"


async def test_ctrl_c_on_an_empty_prompt_quits_only_when_pressed_twice(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        _prompt(app).focus()
        await pilot.press("ctrl+c")
        await pilot.pause(0.1)
        assert app.return_code is None and not app.is_quitting
        assert "Press Ctrl+C again to quit" in _notes(app)
        # Too late for the second press: it arms again instead of quitting.
        app._ctrl_c_at = time.monotonic() - 5  # type: ignore[attr-defined]
        await pilot.press("ctrl+c")
        await pilot.pause(0.1)
        assert app.return_code is None and not app.is_quitting
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: app.is_quitting, what="quit")
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")


async def test_ctrl_c_while_a_turn_runs_interrupts_it_and_keeps_the_draft(tmp_path: Path) -> None:
    # Claude Code: Ctrl+C mid-turn interrupts, as Esc does (it used to open the quit dialog).
    app = make_app(tmp_path, env={"FAKE_CLAUDE_DELAY_MS": "30"})
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:slow story")
        await wait_for(pilot, lambda: chat(app).session.busy)
        await pilot.press(*"next")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: not chat(app).session.busy, what="the turn interrupted")
        assert app.is_running and type(app.screen).__name__ == "ChatScreen" and not app.is_quitting
        assert _prompt(app).text == "next"
        assert "Press Ctrl+C again to quit" not in _notes(app)


async def test_ctrl_d_on_an_empty_prompt_quits_when_pressed_twice_and_deletes_on_a_draft(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        prompt = _prompt(app)
        prompt.focus()
        await pilot.press(*"ab", "home", "ctrl+d")  # on a draft: the prompt's delete-right
        await pilot.pause(0.1)
        assert prompt.text == "b" and not app.is_quitting
        await pilot.press("ctrl+l")  # Claude Code's clear-input
        await pilot.pause(0.1)
        assert prompt.text == ""
        await pilot.press("ctrl+d")
        await pilot.pause(0.1)
        assert "Press Ctrl+D again to quit" in _notes(app) and not app.is_quitting
        await pilot.press("ctrl+d")
        await wait_for(pilot, lambda: app.return_code is not None, what="exit")


# -- 6. the completion menu -------------------------------------------------------------------------------


async def test_every_completion_entry_is_one_ellipsised_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await _ready(pilot)
        prompt = _prompt(app)
        prompt.focus()
        await pilot.press("slash", *"code")
        menu = chat(app).query_one(CompletionMenu)
        await wait_for(pilot, lambda: menu.display and menu.option_count > 0, what="menu")
        await pilot.pause(0.1)
        labels = [str(option.prompt) for option in menu.options]
        assert any(label.startswith("/code-review") for label in labels)
        assert any(len(label) > menu.scrollable_content_region.width for label in labels), "needs a long entry"
        assert menu.virtual_size.height == menu.option_count, "an entry took more than one line"
        row = next(i for i, label in enumerate(labels) if label.startswith("/code-review"))
        line = menu.render_line(row - int(menu.scroll_y)).text
        assert line.rstrip().endswith("…"), line


# -- 7. the demo's first screen ------------------------------------------------------------------------


async def test_demo_welcome_lists_the_keywords(tmp_path: Path) -> None:
    from claude_tui.app_args import AppArgs
    from claude_tui.config import Config
    from claude_tui.fakecli.scenarios import FRIENDLY, SLASH
    from claude_tui.ui.app.launch import build_options

    options = build_options(AppArgs(demo=True), None, [], {"FAKE_CLAUDE_DELAY_MS": "0"}, True, None, None)
    app = ClaudeTuiApp(options, Config())
    async with app.run_test(size=(120, 40)) as pilot:
        log = chat(app).query_one(ChatLog)
        await wait_for(pilot, lambda: log._welcome is not None, what="welcome")
        shown = str(log._welcome.render())
        assert "Demo" in shown
        for _name, triggers in FRIENDLY:
            assert triggers[0] in shown
        for command in SLASH:
            assert command in shown


async def test_welcome_without_the_demo_has_no_keywords(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        screen.session.options.command = ["claude"]
        assert "Demo" not in str(welcome_text(screen.session.options))
        await pilot.pause()


async def test_the_status_bar_counts_the_turns_time_also_while_waiting_for_you(tmp_path: Path) -> None:
    from claude_tui.ui.panels.status_bar import StatusBar

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        bar = chat(app).query_one(StatusBar)
        await wait_for(pilot, lambda: "waiting for you · " in str(bar.render()), what="the elapsed time shown")
        redraws: list[int] = []
        real_refresh = bar.refresh
        bar.refresh = lambda *a, **k: (redraws.append(1), real_refresh(*a, **k))[1]  # type: ignore[method-assign]
        await pilot.pause(1.0)
        bar.refresh = real_refresh  # type: ignore[method-assign]
        assert redraws, "the elapsed time is redrawn while the dialog waits"
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        await wait_for(pilot, lambda: " · " not in str(bar.render()).split("│")[3], what="no time when idle")


async def test_deleting_keys_in_the_log_fix_the_draft_and_the_arrows_still_scroll(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        prompt = _prompt(app)
        prompt.text = "fix this draft"
        prompt.move_cursor(prompt.document.end)
        log = chat(app).query_one(ChatLog)
        log.focus()
        await pilot.pause()
        await pilot.press("backspace")
        await pilot.pause()
        assert prompt.text == "fix this draf"
        assert app.focused is prompt
        log.focus()
        await pilot.pause()
        await pilot.press("ctrl+w")
        await pilot.pause()
        assert prompt.text == "fix this "
        # The log's own keys (it scrolls with them) stay with it.
        log.focus()
        await pilot.pause()
        await pilot.press("up", "end", "left")
        await pilot.pause()
        assert app.focused is log
        assert prompt.text == "fix this "


# -- bidi and format characters typed are shown, not dropped (issue 28, "also seen") ---------------


async def test_typed_bidi_and_zero_width_characters_show_as_stand_ins(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        prompt = _prompt(app)
        _burst(app, ("a", "a"), ("u202e", "\u202e"), ("b", "b"), ("u200b", "\u200b"), ("c", "c"))
        await wait_for(pilot, lambda: prompt.text.endswith("c"), what="the burst typed")
        assert prompt.text == "a\\u202eb\\u200bc"  # as the log shows a bidi control: visible, in order
        log = chat(app).query_one(ChatLog)
        log.focus()
        await pilot.pause()
        _burst(app, ("u2067", "\u2067"), ("d", "d"))  # typed on the log: goes on in the prompt
        await wait_for(pilot, lambda: prompt.text.endswith("d"), what="typing from the log")
        assert prompt.text == "a\\u202eb\\u200bc\\u2067d"
