"""Rewind the conversation (Esc Esc, `/rewind`, select mode `r`, the palette), as Claude Code's TUI does.

The list of the user's prompts opens (newest at the bottom, selected); Enter on one asks what to
restore: 1 the conversation and the code, 2 the conversation only, 3 the code only, Esc back to the
list. The code goes back through the CLI's file checkpoints (`rewind_files`, as the file rewind
does); the conversation by restarting the tab's CLI in place resuming the session at the message
before the prompt (`--resume-session-at`, `session.rewind_points`). The prompt's text comes back into
the prompt box to edit and send again. The turns gone from the log stay in the transcript as the
branch they are (F4, the session browser, shows it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from claude_tui.protocol.sanitize import one_line
from claude_tui.protocol.versions import offers_resume_session_at
from claude_tui.session.items import NoteKind, ToolItem, UserItem
from claude_tui.session.rewind_points import RewindPoint, rewind_point, rewindable_prompts
from claude_tui.session.rewound import forget_rewound
from claude_tui.ui.chat.rewind_files import RewindingView, ask_rewind

if TYPE_CHECKING:
    from claude_tui.ui.dialogs.rewind_conversation import FilesToRestore


BOTH, CONVERSATION, CODE = "both", "conversation", "code"


def open_rewind(view: RewindingView, prompt: UserItem | None = None, *, quiet: bool = False) -> None:
    """The list (or, with `prompt`, straight its choice screen), in a worker of the view.

    `quiet` (Esc Esc): with no prompt yet nothing happens, as in Claude Code, rather than a notice."""
    session = view.session
    prompts = rewindable_prompts(session.conversation)
    if not prompts:
        if not quiet:
            view.notify("No prompt to go back to yet.", severity="warning")
        return
    if session.busy and session.alive:
        view.notify("Wait for the turn to end (or press Esc) before rewinding.", severity="warning")
        return
    view.run_worker(_run(view, prompts, prompt), group="rewind", exclusive=True, exit_on_error=False)


async def _run(view: RewindingView, prompts: list[UserItem], chosen: UserItem | None) -> None:
    from claude_tui.ui.dialogs.rewind_conversation import RewindChoiceScreen, RewindListScreen

    app = view.app
    selected = chosen or prompts[-1]
    while True:
        if chosen is None:
            picked = await app.push_screen_wait(RewindListScreen(prompts, selected, _changed_files(view, prompts)))
            if picked is None:
                return
            selected = picked
        files = await _files_to_restore(view, selected)
        choice = await app.push_screen_wait(RewindChoiceScreen(selected.text, files,
                                                               view.session.options.cwd or ""))
        if choice is not None:
            break
        if chosen is not None:  # opened on one prompt (select mode): back is out
            return
    await rewind(view, selected, choice, files)


def _changed_files(view: RewindingView, prompts: list[UserItem]) -> dict[str, int]:
    """Per prompt (item id), how many files its turn changed, as the list shows it."""
    counts: dict[str, int] = {}
    current: UserItem | None = None
    paths: set[str] = set()
    for item in view.session.conversation.items:
        if isinstance(item, UserItem) and item in prompts:
            if current is not None:
                counts[current.id] = len(paths)
            current, paths = item, set()
        elif isinstance(item, ToolItem) and item.diff is not None and not item.result_is_error:
            paths.add(item.diff.path)
    if current is not None:
        counts[current.id] = len(paths)
    return counts


async def _files_to_restore(view: RewindingView, prompt: UserItem) -> FilesToRestore:
    """What "the code" would put back: the CLI's dry run, or why there is nothing to restore."""
    from claude_tui.ui.dialogs.rewind_conversation import FilesToRestore

    session = view.session
    if not session.options.file_checkpoints:
        return FilesToRestore(reason="File checkpoints are off (file_checkpoints = false in the config).")
    if not prompt.uuid:
        return FilesToRestore(reason="Claude Code has no checkpoint for this prompt.")
    if not session.alive:
        return FilesToRestore(reason="Claude Code is not running: its checkpoints cannot be read.")
    answer, problem = await ask_rewind(session, prompt.uuid, dry_run=True)
    if answer is None:
        return FilesToRestore(reason=problem)
    files = [str(f) for f in answer.get("filesChanged") or [] if isinstance(f, str)]
    return FilesToRestore(files=files, insertions=_count(answer.get("insertions")),
                          deletions=_count(answer.get("deletions")))


async def rewind(view: RewindingView, prompt: UserItem, choice: str, files: FilesToRestore) -> None:
    """Restore what `choice` says; the conversation last (its restart ends the CLI the files need)."""
    session = view.session
    point: RewindPoint | str | None = None
    if choice in (BOTH, CONVERSATION):
        point = rewind_point(session.conversation, prompt)
        if isinstance(point, str):
            view.notify(point, severity="warning", timeout=8)
            return
        version = session.conversation.status.cli_version
        if not offers_resume_session_at(version):
            view.notify(f"Claude Code {one_line(str(version))} cannot resume a session part-way "
                        "(--resume-session-at): fork the session instead (palette: Fork).", severity="warning",
                        timeout=10)
            return
    if session.busy:  # a queued prompt may have started while the screens were open
        view.notify("A turn started: nothing was rewound.", severity="warning")
        return
    view.prompt_area.navigator.close_selection()
    restored = ""
    if choice in (BOTH, CODE) and files.files:
        restored = await _restore_files(view, prompt, files)
        if not restored:
            return
    elif choice == CODE:
        view.notify(files.reason or "No files changed since this prompt: nothing to restore.", timeout=6)
        return
    if isinstance(point, RewindPoint):
        await _restore_conversation(view, point, restored)
    else:
        await view.show_changes(session.conversation.add_note(restored, NoteKind.INFO))


async def _restore_files(view: RewindingView, prompt: UserItem, files: FilesToRestore) -> str:
    """Put the files back; the note that says so ("" when they were not: the user was told why)."""
    session = view.session
    assert prompt.uuid is not None  # files were listed: the dry run had the uuid
    answer, problem = await ask_rewind(session, prompt.uuid, dry_run=False)
    if answer is None:
        view.notify(f"Files were not restored: {problem}", severity="error", timeout=8)
        return ""
    put_back = [str(f) for f in answer.get("filesChanged") or [] if isinstance(f, str)] or files.files
    forget_rewound(session.conversation, prompt, put_back, session.options.cwd or "")
    count = len(files.files)
    return (f"Restored {count} file{'s' if count != 1 else ''} to before “{one_line(prompt.text)[:60]}”:\n"
            + "\n".join(one_line(f) for f in files.files[:20]) + ("\n…" if count > 20 else ""))


async def _restore_conversation(view: RewindingView, point: RewindPoint, restored: str) -> None:
    """`restored`: the note of the files put back, said after the cut (it would go with it)."""
    session, prompt = view.session, point.prompt
    await view.show_changes(await session.stop_for_restart())
    session.conversation.rewind_to(prompt, point.resume_at)
    options = session.options
    if point.resume_at is None:  # before the first prompt: a new session (the old one stays on disk)
        session.conversation.status.session_id = ""
        options.resume, options.continue_session, options.fork_session = None, False, False
    else:
        options.resume_session_at = point.resume_at
    await view.log_widget.show_tail()
    changes: list[Any] = session.start_again()
    if restored:
        changes += session.conversation.add_note(restored, NoteKind.INFO)
    changes += session.conversation.add_note(
        f"Went back to before “{one_line(prompt.text)[:60]}”: its text is in the prompt to edit and send again. "
        "The turns from there on stay in the transcript (F4 shows them as a branch).", NoteKind.INFO)
    await view.show_changes(changes)
    view.prompt_area.put_back_prompt(prompt.text)


def _count(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0
