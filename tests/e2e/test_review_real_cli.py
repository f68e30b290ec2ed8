"""Review comments on two files reach the Messages API stand-in as one prompt, through the real CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from claude_tui.diff.compute import diff_texts
from claude_tui.diff.model import FileDiff
from claude_tui.transport.options import CliOptions
from claude_tui.ui.chat.review import open_tray
from claude_tui.ui.dialogs.review_comment import ReviewCommentScreen
from claude_tui.ui.dialogs.review_tray import ReviewTrayScreen
from claude_tui.ui.render.diff_view import DiffView
from tests.e2e.app_driver import drive
from tests.e2e.mock_api import MockApi


async def test_comments_on_two_files_go_as_one_prompt(app_options: Callable[..., CliOptions], project_dir: Path,
                                                     mock_api: MockApi) -> None:
    (project_dir / "one.py").write_text("a = 1\nb = 2\n")
    (project_dir / "two.py").write_text("x = 10\n")
    diffs = [FileDiff.from_hunks(str(project_dir / "one.py"), "edit", diff_texts("a = 1\nb = 0\n", "a = 1\nb = 2\n")),
             FileDiff.from_hunks(str(project_dir / "two.py"), "edit", diff_texts("x = 1\n", "x = 10\n"))]
    async with drive(app_options()) as d:
        for number, diff in enumerate(diffs):
            view = DiffView(diff, id=f"d{number}")
            await d.chat.mount(view)
            view.focus()
            await d.pilot.pause()
            await d.press("c")
            await d.wait(lambda: isinstance(d.app.screen, ReviewCommentScreen), "the comment box")
            await d.press(*f"kw:plain_note_{number}", "enter")
            await d.wait(lambda: not isinstance(d.app.screen, ReviewCommentScreen), "the box closed")
            await view.remove()
        open_tray(d.chat)
        await d.wait(lambda: isinstance(d.app.screen, ReviewTrayScreen), "the review tray")
        await d.press("s")
        await d.wait_turns(1)
    bodies = [json.dumps(r.body) for r in mock_api.messages_requests() if not r.subagent]
    [review] = [b for b in bodies if "Review of your changes" in b]
    assert "one.py:2" in review and "two.py:1" in review
    assert "kw:plain_note_0" in review and "kw:plain_note_1" in review and "+x = 10" in review
