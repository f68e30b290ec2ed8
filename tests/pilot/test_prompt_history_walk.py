"""Up/Down walk the prompt history straight through a recalled slash command (issue 27, defect 4)."""

from __future__ import annotations

from pathlib import Path

from claude_tui.ui.panels.composer import CompletionMenu, PromptInput
from tests.pilot.helpers import chat, make_app, wait_for


async def test_up_and_down_walk_through_a_recalled_slash_command(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.conversation.commands, what="CLI ready")
        for entry in ("first prompt", "/context", "last prompt"):
            view.session.history.add(entry)
        prompt = view.query_one(PromptInput)
        menu = view.query_one(CompletionMenu)
        prompt.focus()
        await pilot.press("up")
        assert prompt.text == "last prompt"
        await pilot.press("up")
        assert prompt.text == "/context"
        await pilot.pause()
        assert not menu.display  # a recalled command is not being typed: no menu takes the keys
        await pilot.press("up")
        assert prompt.text == "first prompt"
        await pilot.press("down", "down")
        assert prompt.text == "last prompt"
        await pilot.press("up")
        assert prompt.text == "/context"
        # Typing on makes it the user's own again: the menu opens for it.
        await pilot.press("backspace")
        await wait_for(pilot, lambda: menu.display, what="the menu for an edited command")
        await pilot.press("down")
        assert prompt.text == "/contex"  # the menu's cursor moved, not the history
