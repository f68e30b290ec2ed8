"""The prompt's cursor blinks after typing, then stops, so an idle app runs no blink timer."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.ui.kit import quiet_cursor
from claude_tui.ui.panels.composer import PromptInput
from tests.pilot.helpers import chat, make_app, wait_for


async def test_the_prompt_cursor_stops_blinking_when_unused_and_blinks_again_on_typing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quiet_cursor, "BLINK_SECONDS", 0.3)
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        prompt = chat(app).query_one("#prompt", PromptInput)
        prompt.focus()
        await pilot.pause()
        await wait_for(pilot, lambda: not prompt.cursor_blink, 5, "the cursor to stop blinking")
        assert prompt.has_focus
        await pilot.press("h", "i")
        assert prompt.text == "hi"
        assert prompt.cursor_blink  # typing blinks it again
        await wait_for(pilot, lambda: not prompt.cursor_blink, 5, "the cursor to stop blinking again")
        await pilot.press("left")
        assert prompt.cursor_blink  # so does moving it
