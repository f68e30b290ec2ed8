"""The screen's own last lines of defence: a widget that fails to draw, keys typed during a send."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claude_tui.session.items import NoteItem, NoteKind
from claude_tui.ui.log.chat_log import ChatLog
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


async def test_a_widget_that_fails_to_draw_becomes_a_note_and_the_turn_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = ChatLog.update_item
    failed: list[str] = []

    async def flaky(self: ChatLog, item: Any) -> None:
        if not failed:
            failed.append(item.id)
            raise RuntimeError("cannot draw this")
        await real(self, item)

    monkeypatch.setattr(ChatLog, "update_item", flaky)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app), what="the turn ends")
        assert failed, "the failure was exercised"
        notes = [i for i in chat(app).session.conversation.items if isinstance(i, NoteItem) and i.kind is NoteKind.ERROR]
        assert notes and "could not be drawn" in notes[0].text and "cannot draw this" in notes[0].text
        log = chat(app).query_one(ChatLog)
        await wait_for(pilot, lambda: log.widget_for_item(notes[0].id) is not None, what="the note shown")
        assert app.is_running


async def test_keys_typed_while_a_prompt_is_sent_stay_in_the_prompt(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="CLI ready")
        prompt = screen.query_one("#prompt")
        real_send = screen.session.connection.send

        async def slow_send(payload: dict[str, Any]) -> bool:
            # Typed while the send is awaited: the sent text left the prompt at its Enter already.
            assert prompt.text == ""  # type: ignore[attr-defined]
            prompt.insert("and then")  # type: ignore[attr-defined]
            return await real_send(payload)

        screen.session.connection.send = slow_send  # type: ignore[method-assign]
        await send(pilot, "kw:plain first")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        assert prompt.text == "and then"  # type: ignore[attr-defined]


async def test_a_prompt_sent_before_the_restarted_cli_has_spawned_waits_for_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from claude_tui.session.items import TextItem
    from claude_tui.ui.chat import connection as connection_module

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="CLI ready")
        real_start = connection_module.ClaudeClient.start

        async def slow_start(self: Any) -> None:
            import asyncio

            await asyncio.sleep(0.5)  # a slow machine: the process is not there yet
            await real_start(self)

        monkeypatch.setattr(connection_module.ClaudeClient, "start", slow_start)
        old = screen.session.connection
        screen.action_restart()
        await wait_for(pilot, lambda: screen.session.connection is not old and screen.session.connection.client is not None,
                       what="the restart begun")
        assert not screen.session.connection.spawned.is_set()
        prompt = screen.query_one("#prompt")
        prompt.text = "kw:plain right away"  # type: ignore[attr-defined]
        prompt.focus()
        await pilot.press("enter")
        def answered() -> bool:
            items = screen.session.conversation.items
            sent = [n for n, i in enumerate(items) if getattr(i, "text", "") == "kw:plain right away"]
            return bool(sent) and any(isinstance(i, TextItem) for i in items[sent[-1]:])

        await wait_for(pilot, answered, what="the prompt sent and answered")
        assert prompt.text == ""  # type: ignore[attr-defined]
