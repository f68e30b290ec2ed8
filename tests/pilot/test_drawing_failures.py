"""The screen's own last lines of defence: a widget that fails to draw, keys typed during a send."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claude_tui.session.items import NoteItem, NoteKind
from claude_tui.ui.widgets.chat_log import ChatLog
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
        await pilot.press("y")
        await wait_for(pilot, lambda: idle(app), what="the turn ends")
        assert failed, "the failure was exercised"
        notes = [i for i in chat(app).conversation.items if isinstance(i, NoteItem) and i.kind is NoteKind.ERROR]
        assert notes and "could not be drawn" in notes[0].text and "cannot draw this" in notes[0].text
        log = chat(app).query_one(ChatLog)
        await wait_for(pilot, lambda: log.widget_for_item(notes[0].id) is not None, what="the note shown")
        assert app.is_running


async def test_keys_typed_while_a_prompt_is_sent_stay_in_the_prompt(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.connection.alive and screen.conversation.commands, what="CLI ready")
        prompt = screen.query_one("#prompt")
        real_send = screen.connection.send

        async def slow_send(payload: dict[str, Any]) -> bool:
            prompt.text += "\nand then"  # type: ignore[attr-defined]  # typed while the send is awaited
            return await real_send(payload)

        screen.connection.send = slow_send  # type: ignore[method-assign]
        await send(pilot, "kw:plain first")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        assert prompt.text == "and then"  # type: ignore[attr-defined]
