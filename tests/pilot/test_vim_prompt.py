"""Vim mode in the prompt, typed as a user types: /vim, the modes shown, Enter sends, Esc interrupts."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.panels.composer import PromptInput
from claude_tui.vim_mode import INSERT, NORMAL
from tests.pilot.helpers import chat, make_app, wait_for


def _prompt(app: ClaudeTuiApp) -> PromptInput:
    return chat(app).query_one(PromptInput)


async def _ready(pilot: object, app: ClaudeTuiApp) -> None:
    view = chat(app)
    await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,  # type: ignore[arg-type]
                   what="CLI ready")


async def _record(sent: list[str], text: str) -> bool:
    sent.append(text)
    return True


async def test_slash_vim_turns_it_on_and_normal_mode_edits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(pilot, app)
        view = chat(app)
        sent: list[str] = []
        monkeypatch.setattr(view.session, "send", lambda text, **_: _record(sent, text))
        prompt = _prompt(app)
        prompt.focus()
        await pilot.press("slash", *"vim", "enter")
        await wait_for(pilot, lambda: prompt.vim is not None, what="vim mode on")
        assert sent == []  # answered here, never "isn't available" from the CLI
        assert prompt.border_subtitle == "-- INSERT --"
        await pilot.press(*"hello big world", "escape")
        assert prompt.vim is not None and prompt.vim.mode == NORMAL
        assert prompt.border_subtitle == "-- NORMAL --"
        await pilot.press("b", "b", "d", "w")  # dw on "big "
        assert prompt.text == "hello world"
        await pilot.press("dollar_sign", "x", "u")  # x then undo
        assert prompt.text == "hello world"
        await pilot.press("0", "c", "w", *"bye", "escape", "A", *"!")
        assert prompt.text == "bye world!"
        assert prompt.vim.mode == INSERT
        await pilot.press("escape", "enter")  # Enter sends in normal mode too
        await wait_for(pilot, lambda: sent == ["bye world!"], what="sent from normal mode")
        assert prompt.text == ""


async def test_config_vim_mode_starts_in_insert_and_enter_sends(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path, vim_mode=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(pilot, app)
        view = chat(app)
        sent: list[str] = []
        monkeypatch.setattr(view.session, "send", lambda text, **_: _record(sent, text))
        prompt = _prompt(app)
        prompt.focus()
        assert prompt.vim is not None and prompt.vim.mode == INSERT
        await pilot.press(*"dd is text here", "enter")
        await wait_for(pilot, lambda: sent == ["dd is text here"], what="insert-mode typing sent as typed")


async def test_escape_in_normal_mode_interrupts_a_running_turn(tmp_path: Path) -> None:
    # A slow stream: the turn is still running at the second Esc however busy the machine is.
    app = make_app(tmp_path, vim_mode=True, env={"FAKE_CLAUDE_DELAY_MS": "300"})
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(pilot, app)
        view = chat(app)
        calls: list[str] = []

        async def interrupt() -> None:
            calls.append("interrupt")

        view.session.interrupt = interrupt  # type: ignore[method-assign]
        prompt = _prompt(app)
        prompt.focus()
        await pilot.press(*"kw:long go", "enter")
        await wait_for(pilot, lambda: view.session.busy, what="a running turn")
        await pilot.press("escape")  # insert -> normal: no interrupt yet
        assert prompt.vim is not None and prompt.vim.mode == NORMAL
        assert calls == []
        await pilot.press("escape")
        await wait_for(pilot, lambda: calls == ["interrupt"], what="Esc in normal mode interrupts")


async def test_palette_command_toggles_vim(tmp_path: Path) -> None:
    from claude_tui.ui.palette.commands import chat_commands

    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(pilot, app)
        command = next(c for c in chat_commands(chat(app)) if c.text == "Toggle vim mode")
        command.callback()
        await pilot.pause()
        assert _prompt(app).vim is not None
        command.callback()
        await pilot.pause()
        assert _prompt(app).vim is None and _prompt(app).border_subtitle == ""


async def test_slash_vim_typed_in_one_burst_is_not_completed_to_another_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from textual import events

    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(pilot, app)
        view = chat(app)
        sent: list[str] = []
        monkeypatch.setattr(view.session, "send", lambda text, **_: _record(sent, text))
        prompt = _prompt(app)
        prompt.focus()
        await pilot.press("slash")
        menu = view.prompt_area.composer.menu
        await wait_for(pilot, lambda: menu.display, what="the / menu open")
        driver = app._driver
        assert driver is not None
        # The rest as one write from the terminal: every key queued before the first is handled,
        # and the menu (ranked for "/", /access first) has not followed them when Enter comes.
        for key, character in [("v", "v"), ("i", "i"), ("m", "m"), ("enter", "\r")]:
            event = events.Key(key, character)
            event.set_sender(app)
            driver.send_message(event)
        await wait_for(pilot, lambda: prompt.vim is not None, what="vim mode on")
        assert prompt.text == "" and sent == []


async def test_keys_typed_while_a_dialog_waits_go_through_vim_in_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from textual import events

    from tests.pilot.test_dialogs import request_from

    app = make_app(tmp_path, guard_ms=400, vim_mode=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot, app)
        view = chat(app)
        answered: list[object] = []

        async def answer_permission(payload: object) -> bool:
            answered.append(payload)
            return False

        view.session.connection.answer_permission = answer_permission  # type: ignore[method-assign]
        prompt = _prompt(app)
        prompt.focus()
        await pilot.press(*"one two", "escape", "0")
        assert prompt.vim is not None and prompt.vim.mode == NORMAL
        view.dialogs.asked(request_from("bash-allow", "Bash", request_id="vim-1"))
        dialog = view.dialogs.dialog
        # y, n and a answer a dialog moved to; this one waits: they are vim's keys in the prompt.
        for character in "yypdwAyes":
            app.post_message(events.Key(character, character))
        await wait_for(pilot, lambda: prompt.text == "one two\ntwoyes", what="yyp, dw, A typed through vim")
        assert app.screen is dialog and dialog is not None and dialog.waiting and not dialog.settled
        assert answered == []
