"""Sessions in git worktrees: start one in a new worktree, and offer to remove it when it ends.

The git work (claude_tui.git.worktree) blocks, so it runs in a thread; the dialogs are awaited, so
these coroutines run in workers (the quit worker, a tab's close, the palette's session worker).
Everything takes the app, the list of worktrees this run made and a `Worktree`, not a screen.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.app import App

from claude_tui.git.worktree import (
    Removed,
    Worktree,
    WorktreeChanged,
    WorktreeError,
    WorktreeState,
    create_worktree,
    inspect_worktree,
    remove_worktree,
)
from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.chat.host import ChatHost
from claude_tui.ui.chat.session import ChatSession, fresh_options


async def offer_removal(app: App[Any], worktrees: list[Worktree], worktree: Worktree) -> str:
    """Ask whether to keep or remove `worktree`; do it. Returns one line saying what happened.

    Keep is the default. Removing a worktree with uncommitted files needs a second, explicit yes that
    names them. That answer covers what the dialogs showed and nothing else: the removal looks again
    and, when anything appeared or changed meanwhile, keeps the worktree and asks again, naming it.
    A branch with commits of its own is kept (`remove_worktree`).
    """
    from claude_tui.ui.dialogs.worktree_close import WorktreeCloseScreen

    kept = f"Kept worktree {worktree.path} (branch {worktree.branch})."
    try:
        state = await asyncio.to_thread(inspect_worktree, worktree)
    except WorktreeError as error:
        return f"{kept} Could not inspect it: {error}"
    if state.missing:
        # Removed by hand: tidy what git still records; a branch with work of its own stays.
        _answered(worktrees, worktree)
        return await asyncio.to_thread(_remove_quietly, worktree)
    since: list[str] = []
    while True:
        choice = await app.push_screen(WorktreeCloseScreen(worktree, state, since=since), wait_for_dismiss=True)
        if choice != "remove" or (state.loses_work and not await _confirm_discard(app, worktree, state)):
            _answered(worktrees, worktree)
            return kept
        try:
            removed = await asyncio.to_thread(remove_worktree, worktree, state)
        except WorktreeChanged as changed:
            state, since = changed.state, changed.changes  # asked again, about what is there now
            continue
        except WorktreeError as error:
            return f"{kept} {error}"
        _answered(worktrees, worktree)
        return _removed_line(worktree, removed)


async def _confirm_discard(app: App[Any], worktree: Worktree, state: WorktreeState) -> bool:
    from claude_tui.ui.dialogs.confirm import ConfirmScreen

    named = [*state.uncommitted[:4], *state.ignored[:2]]
    more = len(state.uncommitted) + len(state.ignored) - len(named)
    detail = ", ".join(printable_name(n) for n in named) + (f" and {more} more" if more > 0 else "")
    sure = await app.push_screen(ConfirmScreen(
        f"Discard {state.describe()}?", yes="Discard them and remove", no="Keep the worktree",
        detail=f"{detail}: in {printable_name(str(worktree.path))}, they cannot be restored afterwards."),
        wait_for_dismiss=True)
    return bool(sure)


def _removed_line(worktree: Worktree, removed: Removed) -> str:
    if removed.branch_kept:
        return (f"Removed worktree {worktree.path}; kept branch {worktree.branch}: "
                f"{removed.state.describe_commits()} (git branch -D {worktree.branch} deletes it).")
    return f"Removed worktree {worktree.path} and branch {worktree.branch}."


def _answered(worktrees: list[Worktree], worktree: Worktree) -> None:
    # Asked and answered (closing its tab): quitting does not ask about it again.
    if worktree in worktrees:
        worktrees.remove(worktree)


def _remove_quietly(worktree: Worktree) -> str:
    try:
        removed = remove_worktree(worktree)
    except WorktreeError:
        return ""
    return _removed_line(worktree, removed) if removed.branch_kept else ""


async def close_worktrees(app: App[Any], worktrees: list[Worktree]) -> list[str]:
    """On quit: offer each worktree this run created, in turn. Returns what happened, one line each."""
    lines = []
    for worktree in list(worktrees):
        line = await offer_removal(app, worktrees, worktree)
        if line:
            lines.append(line)
    return lines


def remote_refusal(session: ChatSession) -> str:
    """Why a worktree cannot be made for `session` ("" when it can): git runs on this machine, and a
    tab over ssh has its repository on another one (its path here may be nobody's, or a stranger's)."""
    if session.options.ssh is None:
        return ""
    return (f"Worktrees are made on this machine only, not on {printable_name(session.options.ssh.label)}: "
            "open a local tab for one.")


def ask_worktree_session(app: App[Any], host: ChatHost, session: ChatSession, *, new_tab: bool = False) -> None:
    """Ask for a name (empty: generated), then :func:`new_worktree_session` in the background."""
    from claude_tui.ui.dialogs.text_prompt import prompt_open
    from claude_tui.ui.dialogs.worktree_name import WORKTREE_NAME, worktree_name_prompt

    if refusal := remote_refusal(session):
        app.notify(refusal, severity="warning", timeout=8)
        return

    def chosen(name: str | None) -> None:
        if name is not None:
            # An app worker: the old CLI takes a moment to close, and its tab is replaced half-way.
            app.run_worker(new_worktree_session(app, host, session, name or None, new_tab=new_tab),
                           group="switch-session", exclusive=True, exit_on_error=False)

    if not prompt_open(app, WORKTREE_NAME):
        app.push_screen(worktree_name_prompt(), chosen)


async def new_worktree_session(app: App[Any], host: ChatHost, session: ChatSession, name: str | None = None, *,
                               new_tab: bool = False) -> None:
    """A fresh session in a new worktree of `session`'s repository: in its tab, or (`new_tab`) beside it."""
    if refusal := remote_refusal(session):
        app.notify(refusal, severity="warning", timeout=8)
        return
    try:
        worktree = await asyncio.to_thread(create_worktree, Path(session.options.cwd or "."), name)
    except WorktreeError as error:
        app.notify(f"No worktree: {error}", severity="error", timeout=8)
        return
    host.worktrees.append(worktree)
    app.notify(f"Created worktree {worktree.path} on branch {worktree.branch}.", timeout=5)
    # The palette's "New session" path, in another directory.
    await host.open_session(fresh_options(session.options, cwd=str(worktree.session_dir)), new_tab=new_tab)
