"""Sessions in git worktrees: start one in a new worktree, and offer to remove it when it ends.

The git work (claude_tui.git.worktree) blocks, so it runs in a thread; the dialogs are awaited, so
these coroutines run in workers (the quit worker, the palette's session-switch worker). Everything
takes the app and a `Worktree`, not a screen: a tab that owns a worktree can call the same functions.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from claude_tui.git.worktree import Worktree, WorktreeError, create_worktree, inspect_worktree, remove_worktree
from claude_tui.protocol.sanitize import printable_name

if TYPE_CHECKING:
    from claude_tui.ui.app import ClaudeTuiApp
    from claude_tui.ui.screens.chat import ChatScreen


async def offer_removal(app: ClaudeTuiApp, worktree: Worktree) -> str:
    """Ask whether to keep or remove `worktree`; do it. Returns one line saying what happened.

    Keep is the default. Removing a worktree with uncommitted files or unmerged commits needs a
    second, explicit yes that names them; the removal itself checks again and refuses if more work
    appeared since the dialog looked.
    """
    from claude_tui.ui.screens.confirm import ConfirmScreen
    from claude_tui.ui.screens.worktree_close import WorktreeCloseScreen

    kept = f"Kept worktree {worktree.path} (branch {worktree.branch})."
    try:
        state = await asyncio.to_thread(inspect_worktree, worktree)
    except WorktreeError as error:
        return f"{kept} Could not inspect it: {error}"
    if state.missing and not state.unmerged:
        # Removed by hand: only a branch without any work of its own may be left, tidy it silently.
        await asyncio.to_thread(_remove_quietly, worktree)
        return ""
    choice = await app.push_screen(WorktreeCloseScreen(worktree, state), wait_for_dismiss=True)
    if choice != "remove":
        return kept
    discard = False
    if state.loses_work:
        named = [*state.uncommitted[:4], *(f"commit {c}" for c in state.unmerged[:4])]
        more = len(state.uncommitted) + len(state.unmerged) - len(named)
        detail = ", ".join(printable_name(n) for n in named) + (f" and {more} more" if more > 0 else "")
        sure = await app.push_screen(ConfirmScreen(
            f"Discard {state.describe()}?", yes="Discard them and remove", no="Keep the worktree",
            detail=f"{detail}: in {printable_name(str(worktree.path))}, they cannot be restored afterwards."),
            wait_for_dismiss=True)
        if not sure:
            return kept
        discard = True
    try:
        await asyncio.to_thread(remove_worktree, worktree, discard=discard)
    except WorktreeError as error:
        return f"{kept} {error}"
    if worktree in app.worktrees:
        app.worktrees.remove(worktree)
    return f"Removed worktree {worktree.path} and branch {worktree.branch}."


def _remove_quietly(worktree: Worktree) -> None:
    try:
        remove_worktree(worktree)
    except WorktreeError:
        pass


async def close_worktrees(app: ClaudeTuiApp) -> list[str]:
    """On quit: offer each worktree this run created, in turn. Returns what happened, one line each."""
    lines = []
    for worktree in list(app.worktrees):
        line = await offer_removal(app, worktree)
        if line:
            lines.append(line)
    return lines


def ask_worktree_session(chat: ChatScreen) -> None:
    """Ask for a name (empty: generated), then :func:`new_worktree_session` in the background."""
    from claude_tui.ui.screens.worktree_name import WorktreeNameScreen

    def chosen(name: str | None) -> None:
        if name is not None:
            # An app worker: the old CLI takes a moment to close, and its screen is replaced half-way.
            chat.tui.run_worker(new_worktree_session(chat, name or None), group="switch-session", exclusive=True,
                                exit_on_error=False)

    chat.app.push_screen(WorktreeNameScreen(), chosen)


async def new_worktree_session(chat: ChatScreen, name: str | None = None) -> None:
    """Restart this window's session as a fresh one in a new worktree of its repository."""
    app = chat.tui
    try:
        worktree = await asyncio.to_thread(create_worktree, Path(chat.options.cwd or "."), name)
    except WorktreeError as error:
        app.notify(f"No worktree: {error}", severity="error", timeout=8)
        return
    app.worktrees.append(worktree)
    app.notify(f"Created worktree {worktree.path} on branch {worktree.branch}.", timeout=5)
    options = replace(chat.options, cwd=str(worktree.session_dir), resume=None, continue_session=False,
                      fork_session=False, env=dict(chat.options.env))
    await chat._replace_session(options, None)  # the palette's "New session" path, in another directory
