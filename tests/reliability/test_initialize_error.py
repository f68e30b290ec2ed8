"""A CLI that runs but refuses the initialize handshake: a warning, not "stopped"; prompts still work."""

from __future__ import annotations

from pathlib import Path

from claude_tui.session.items import NoteItem, TextItem
from claude_tui.session.status import Activity
from tests.pilot.helpers import wait_for
from tests.reliability.harness import chat, fake_options, make_app


async def test_an_initialize_error_leaves_a_working_session(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path, "initialize-error"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: any(isinstance(i, NoteItem) and "start-up handshake" in i.text
                                          for i in screen.session.conversation.items), what="the warning")
        assert screen.session.connection.alive
        assert screen.session.conversation.status.activity is Activity.IDLE, "not EXITED: the CLI runs"
        prompt = screen.query_one("#prompt")
        prompt.text = "kw:plain still there?"  # type: ignore[attr-defined]
        prompt.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(isinstance(i, TextItem) for i in screen.session.conversation.items)
                       and screen.session.conversation.status.activity is Activity.IDLE, what="an answer")
