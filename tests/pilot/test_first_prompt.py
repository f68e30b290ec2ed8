"""`claude-tui "fix the bug"`, as `claude "fix the bug"`: the words are sent as the first prompt once
the app is up, shown in the log as typed; a slash command goes where a typed one would."""

from __future__ import annotations

from pathlib import Path

from claude_tui.session.items import UserItem
from tests.pilot.helpers import chat, idle, make_app, wait_for


async def test_the_command_lines_prompt_is_sent_first(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.first_prompt = "kw:plain from the command line"
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.chat is not None and idle(app) and any(
            isinstance(i, UserItem) for i in chat(app).session.conversation.main.items), what="the first prompt sent")
        users = [i.text for i in chat(app).session.conversation.main.items if isinstance(i, UserItem)]
        assert users == ["kw:plain from the command line"]
        assert chat(app).prompt_area.prompt.text == "" and app.first_prompt is None
