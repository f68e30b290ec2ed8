"""Every text field takes a burst of keys as the prompt does: nothing lost, nothing reordered (issue 28, item 18).

Textual runs a key's binding (Backspace, Tab, the arrows) once the key has bubbled up to the app,
while a letter is inserted by the field at once: in a burst the letters overtook the keys between
them ("host", four Backspaces, "open session" came out "hoopen sessi"), and a Tab typed with the
text moved on only after the next field's text had landed in this one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events
from textual.widgets import Input

from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.dialogs.tab_prompts import TabHostScreen
from claude_tui.ui.dialogs.text_prompt import TextPrompt
from tests.pilot.helpers import chat, make_app, wait_for
from tests.pilot.test_typing_never_answers import key_for

EDIT_BURST = [*"host", "backspace", "backspace", "backspace", "backspace", *"open session"]


def burst(app: ClaudeTuiApp, keys: list[str]) -> None:
    for key in keys:
        app.post_message(key_for(key) if len(key) == 1 else events.Key(key, None))


async def opened(app: ClaudeTuiApp, pilot: Any, kind: type, open_it: Any) -> Input:
    view = chat(app)
    await wait_for(pilot, lambda: view.session.connection.alive, what="CLI up")
    open_it()
    await wait_for(pilot, lambda: isinstance(app.screen, kind) and app.screen.is_mounted
                   and isinstance(app.focused, Input), what=f"{kind.__name__} open")
    await pilot.pause()
    field = app.focused
    assert isinstance(field, Input)
    field.value = ""
    return field


async def settle(pilot: Any) -> None:
    for _ in range(20):
        await pilot.pause()


async def test_backspaces_in_a_burst_stay_between_the_letters(tmp_path: Path) -> None:
    for kind, open_it in ((TextPrompt, "action_new_tab_elsewhere"), (TextPrompt, "action_rename_tab")):
        app = make_app(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            field = await opened(app, pilot, kind, getattr(app, open_it))
            burst(app, EDIT_BURST)
            await settle(pilot)
            assert field.value == "open session", open_it


async def test_a_tab_in_a_burst_moves_to_the_next_field_before_the_next_letters(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await opened(app, pilot, TabHostScreen, app.action_new_tab_on_host)
        burst(app, [*"devbox", "tab", *"~/src/x", "left", "left", "backspace", "home", "delete"])
        await settle(pilot)
        screen = app.screen
        assert screen.query_one("#tab-host", Input).value == "devbox"
        assert screen.query_one("#tab-host-dir", Input).value == "/sr/x"  # ~/src/x, the c before /x deleted, then the ~


async def test_the_prompt_takes_the_same_burst(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive, what="CLI up")
        view.prompt_area.prompt.focus()
        await pilot.pause()
        burst(app, [*EDIT_BURST, "left", "left", "backspace", "home", "delete"])
        await settle(pilot)
        assert view.prompt_area.prompt.text == "pen sesson"


async def test_the_palettes_search_box_takes_the_same_burst(tmp_path: Path) -> None:
    from textual.command import CommandPalette

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive, what="CLI up")
        app.action_command_palette()
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette) and isinstance(app.focused, Input),
                       what="the palette")
        await pilot.pause()
        burst(app, EDIT_BURST)
        await settle(pilot)
        field = app.focused
        assert isinstance(field, Input) and field.value == "open session"


async def test_the_help_filter_takes_the_same_burst(tmp_path: Path) -> None:
    from claude_tui.ui.app.help import HelpScreen

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        field = await opened(app, pilot, HelpScreen, app.action_help)
        burst(app, [*"xhost", "backspace", "backspace", "backspace", "backspace", *"open", "home", "delete"])
        await settle(pilot)
        assert field.value == "open"
