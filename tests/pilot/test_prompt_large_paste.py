"""A large paste stands as `[Pasted text #1 +N lines]` in the prompt and the log; the whole text is sent."""

from __future__ import annotations

from pathlib import Path

from textual.events import Paste

from claude_tui.pastes import PASTE_CHARS
from claude_tui.session.items import UserItem
from claude_tui.ui.log.items import UserPrompt
from claude_tui.ui.panels.composer import PromptInput
from tests.pilot.helpers import chat, make_app, wait_for

LINES = "\n".join(f"line {n}" for n in range(300))


async def test_a_large_paste_is_a_placeholder_in_the_prompt_and_the_log_and_is_sent_whole(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.conversation.commands, what="CLI ready")
        prompt = view.query_one(PromptInput)
        prompt.focus()
        await pilot.press(*"kw:plain look ")
        app.post_message(Paste(LINES))
        await pilot.pause()
        assert prompt.text == "kw:plain look [Pasted text #1 +299 lines]"
        app.post_message(Paste("two\nlines"))  # small: pasted as it is
        await pilot.pause()
        app.post_message(Paste("x" * (PASTE_CHARS + 1)))
        await pilot.pause()
        assert prompt.text == "kw:plain look [Pasted text #1 +299 lines]two\nlines[Pasted text #2]"
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(isinstance(i, UserItem) for i in view.session.conversation.items))
        [item] = [i for i in view.session.conversation.items if isinstance(i, UserItem)]
        assert item.text == "kw:plain look " + LINES + "two\nlines" + "x" * (PASTE_CHARS + 1)
        assert item.shown == "kw:plain look [Pasted text #1 +299 lines]two\nlines[Pasted text #2]"
        widget = view.query_one(UserPrompt)
        await pilot.pause()
        assert "[Pasted text #1 +299 lines]" in str(widget.render()) and "line 150" not in str(widget.render())
        await pilot.click(widget)
        await pilot.pause()
        assert "line 150" in str(widget.render())  # opened on demand


async def test_a_draft_with_a_paste_is_saved_whole(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        prompt = view.query_one(PromptInput)
        prompt.focus()
        app.post_message(Paste(LINES))
        await pilot.pause()
        view.prompt_area.save_draft()
        assert view.session.drafts.load() == LINES  # a placeholder would mean nothing to the next run
