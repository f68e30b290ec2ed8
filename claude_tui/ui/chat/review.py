"""Review comments for one open session: `c` on any diff asks for the words, the tray lists them,
"Send review" sends them to Claude as one prompt (`store/review.py` keeps them per project)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from claude_tui.diff.model import FileDiff
from claude_tui.store.review import ReviewComment, is_stale, read_text, review_prompt

if TYPE_CHECKING:
    from claude_tui.ui.chat.view import ChatView


def stale_check(view: ChatView) -> Callable[[ReviewComment], bool]:
    """Whether a comment's lines changed since; a session on another machine cannot tell (never stale)."""
    if view.session.options.ssh is not None:
        return lambda _comment: False
    return lambda comment: is_stale(comment, read_text)


def ask_comment(view: ChatView, diff: FileDiff, hunk_index: int) -> None:
    """Ask for the words of a comment on one hunk; Enter keeps it in the tray."""
    from claude_tui.diff.display import project_relative  # with Pygments: not before the first paint
    from claude_tui.ui.dialogs.review_comment import ReviewCommentScreen

    if not 0 <= hunk_index < len(diff.hunks):
        return
    cwd = view.session.options.cwd or "."
    path = diff.path if os.path.isabs(diff.path) else str(Path(cwd) / diff.path)  # a dialog's path may be relative
    hunk = diff.hunks[hunk_index]
    shown = ReviewComment.on_hunk(project_relative(path, cwd), hunk, "").where

    def kept(words: str | None) -> None:
        if not words:
            return
        saved = view.session.review.add(ReviewComment.on_hunk(path, hunk, words))
        view.show_status()  # the bar counts the tray
        count = len(view.session.review)
        view.notify(f"Comment kept: {count} in the review tray." if saved else
                    "The comment is in the tray, but it could not be saved: it will not survive a restart.",
                    severity="information" if saved else "warning", timeout=4)

    view.app.push_screen(ReviewCommentScreen(shown, hunk.header), kept)


def open_tray(view: ChatView) -> None:
    from claude_tui.ui.dialogs.review_tray import SEND, ReviewTrayScreen

    tray = view.session.review
    tray.reload()  # another tab or instance on the project may have added some
    view.show_status()  # the bar counts the tray
    if not tray.comments:
        view.notify("The review tray is empty: press c on a diff to comment on a hunk.", timeout=4)
        return

    async def closed(choice: str | None) -> None:
        view.show_status()  # the bar counts the tray
        if choice == SEND:
            await send_review(view)

    view.app.push_screen(ReviewTrayScreen(tray, stale_check(view)), closed)


async def send_review(view: ChatView) -> bool:
    """Every comment in the tray as one prompt; the tray empties once the CLI took it."""
    tray = view.session.review
    tray.reload()
    if not tray.comments:
        view.notify("The review tray is empty: press c on a diff to comment on a hunk.", timeout=4)
        return False
    sent = await view.prompt_area.send_prompt(review_prompt(tray.comments, stale_check(view)))
    if sent:
        tray.clear()
    view.show_status()  # the bar counts the tray
    return sent
