"""Turn-end notifications honour `notifications.long_turn_seconds` and only fire when unfocused."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.config import NotificationSettings
from claude_tui.ui.panels.composer import PromptInput
from tests.pilot.helpers import chat, idle, make_app, wait_for


@pytest.mark.parametrize("threshold,focused,expected", [(0.0, False, 1), (3600.0, False, 0), (0.0, True, 0)])
async def test_turn_end_notification(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threshold: float,
                                     focused: bool, expected: int) -> None:
    calls: list[str] = []
    app = make_app(tmp_path, notifications=NotificationSettings(long_turn_seconds=threshold))
    # The bell is what request_attention rings when the terminal is unfocused.
    monkeypatch.setattr(app, "bell", lambda: calls.append("bell"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="ready")
        app.app_focus = focused  # no key press after this: a key would count as focus
        screen.prompt_area.post_message(PromptInput.Submitted("Hello there, kw:plain"))
        await wait_for(pilot, lambda: idle(app), what="turn end")
        await pilot.pause(0.05)
        assert len(calls) == expected
        assert app.chat.session.turn_started_at is None  # type: ignore[union-attr]
