"""Rewind files: put the project's files back as they were before a prompt.

Claude Code snapshots files before it edits them when file checkpoints are on (the default, see
`transport.options.CliOptions.file_checkpoints`) and answers `rewind_files` for any prompt whose
uuid it echoed. We ask for a dry run first, show what would change, and rewind only after `y` on
that dialog. The conversation itself is not rewound.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.widget import Widget

from claude_tui.protocol import builders
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteKind, UserItem
from claude_tui.session.rewound import forget_rewound
from claude_tui.ui.chat.session import ChatSession

Draw = Callable[[list[Any]], Awaitable[None]]


def last_rewindable_prompt(conversation: Conversation) -> UserItem | None:
    for item in reversed(conversation.items):
        if isinstance(item, UserItem) and item.uuid:
            return item
    return None


def start_rewind(view: Widget, session: ChatSession, item: UserItem | None, draw: Draw,
                 done: Callable[[], None]) -> None:
    """Check, then run the dialog in a worker of `view` (a modal answer can only be awaited there).

    `draw` shows the note it adds; `done` runs once the files are back (closes the selection)."""
    if item is None:
        view.notify("No prompt to rewind to yet.", severity="warning")
        return
    if not session.options.file_checkpoints:
        view.notify("File checkpoints are off (file_checkpoints = false in the config).", severity="warning")
        return
    if not item.uuid:
        view.notify("Claude Code has no checkpoint for this prompt (it has not started it, or it was sent "
                      "without file checkpoints).", severity="warning")
        return
    if session.busy:
        view.notify("Wait for the turn to end (or press Esc) before rewinding files.", severity="warning")
        return
    if not session.alive:
        view.notify("Claude Code is not running: F5 restarts it.", severity="warning")
        return
    view.run_worker(_rewind(view, session, item, item.uuid, draw, done), group="rewind", exclusive=True,
                    exit_on_error=False)


async def ask_rewind(session: ChatSession, uuid: str, dry_run: bool) -> tuple[dict[str, Any] | None, str]:
    """The CLI's `rewind_files` answer when it can rewind, else None and why (one line)."""
    try:
        response = await session.connection.request(builders.rewind_files(uuid, dry_run=dry_run), timeout=30)
    except Exception as error:  # noqa: BLE001 - shown, never raised
        return None, f"Could not rewind files: {one_line(str(error))}"
    body = getattr(response, "payload", None)
    body = body if isinstance(body, dict) else {}
    if not body.get("canRewind"):
        reason = one_line(str(body.get("error") or "Claude Code cannot rewind to this prompt."))
        return None, f"Cannot rewind: {reason}"
    return body, ""


async def _ask(view: Widget, session: ChatSession, uuid: str, dry_run: bool) -> dict[str, Any] | None:
    body, problem = await ask_rewind(session, uuid, dry_run)
    if body is None:
        view.notify(problem, severity="error" if problem.startswith("Could not") else "warning")
    return body


async def _rewind(view: Widget, session: ChatSession, item: UserItem, uuid: str, draw: Draw,
                  done: Callable[[], None]) -> None:
    from claude_tui.ui.dialogs.rewind import RewindScreen

    preview = await _ask(view, session, uuid, dry_run=True)
    if preview is None:
        return
    files = [str(f) for f in preview.get("filesChanged") or [] if isinstance(f, str)]
    if not files:
        view.notify("No files changed since this prompt: nothing to rewind.", timeout=5)
        return
    insertions, deletions = _count(preview.get("insertions")), _count(preview.get("deletions"))
    dialog = RewindScreen(item.text, files, insertions, deletions, session.options.cwd or "")
    if not await view.app.push_screen_wait(dialog):
        return
    if session.busy:  # a queued prompt may have started while the dialog was open
        view.notify("A turn started: files were not rewound.", severity="warning")
        return
    answer = await _ask(view, session, uuid, dry_run=False)
    if answer is None:
        return
    # The files are back as they were: the changes since this prompt leave "what changed" (F8).
    put_back = [str(f) for f in answer.get("filesChanged") or [] if isinstance(f, str)] or files
    forget_rewound(session.conversation, item, put_back, session.options.cwd or "")
    words = f"Rewound {len(files)} file{'s' if len(files) != 1 else ''} to before “{one_line(item.text)[:60]}”"
    await draw(session.conversation.add_note(
        words + ":\n" + "\n".join(one_line(f) for f in files[:20]) + ("\n…" if len(files) > 20 else ""),
        NoteKind.INFO))
    done()
    view.notify(words + ".", timeout=6)


def _count(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0
