"""`c` on a diff keeps a review comment in the tray (its count in the status bar, kept across a
restart); "Send review" sends every comment as one prompt and empties the tray."""

from __future__ import annotations

from pathlib import Path

from claude_tui.diff.compute import diff_texts
from claude_tui.diff.model import FileDiff
from claude_tui.session.items import UserItem
from claude_tui.store.review import ReviewTray
from claude_tui.ui.dialogs.review_comment import ReviewCommentScreen
from claude_tui.ui.palette.commands import chat_commands
from claude_tui.ui.render.diff_view import DiffView
from tests.pilot.helpers import chat, make_app, wait_for

BEFORE = "".join(f"line {n}\n" for n in range(1, 21))
AFTER = BEFORE.replace("line 2\n", "LINE 2\n").replace("line 18\n", "LINE 18\n")


async def test_c_comments_on_the_hunk_at_the_top_and_send_review_sends_them(tmp_path: Path) -> None:
    (tmp_path / "two.txt").write_text(AFTER)
    (tmp_path / "b.py").write_text("x = 2\n")
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="CLI ready")
        diff = FileDiff.from_hunks(str(tmp_path / "two.txt"), "edit", diff_texts(BEFORE, AFTER))
        other = FileDiff.from_hunks(str(tmp_path / "b.py"), "edit", diff_texts("x = 1\n", "x = 2\n"))
        for widget, words in ((DiffView(diff, id="one"), "why upper case"), (DiffView(other, id="two"), "keep 1")):
            await view.mount(widget)
            widget.focus()
            await pilot.pause()
            if widget.id == "one":
                await pilot.press("n", "n")  # the cursor on the first hunk, then the second
                await pilot.pause()
            await pilot.press("c")
            await wait_for(pilot, lambda: isinstance(app.screen, ReviewCommentScreen), what="the comment box")
            await pilot.press(*words.replace(" ", "_"))
            await pilot.press("enter")
            await wait_for(pilot, lambda: not isinstance(app.screen, ReviewCommentScreen), what="box closed")
        tray = view.session.review
        assert [(Path(c.path).name, c.line) for c in tray.comments] == [("two.txt", 18), ("b.py", 1)]
        assert "review 2" in view.status_bar.render_status(view.session.conversation.status)
        assert len(ReviewTray(tmp_path)) == 2  # on disk, for the next start
        [send] = [c for c in chat_commands(view) if c.text == "Send review"]
        send.callback()
        await wait_for(pilot, lambda: any(isinstance(i, UserItem) and "Review of your changes" in i.text
                                          for i in view.session.conversation.items), what="the review prompt")
        [prompt] = [i for i in view.session.conversation.items if isinstance(i, UserItem)]
        assert "two.txt:18" in prompt.text and "b.py:1" in prompt.text and "why_upper_case" in prompt.text
        assert "+LINE 18" in prompt.text and "+LINE 2" not in prompt.text
        await wait_for(pilot, lambda: len(tray) == 0, what="the tray emptied")
        assert len(ReviewTray(tmp_path)) == 0
