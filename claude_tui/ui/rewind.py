"""Rewind files: put the project's files back as they were before a prompt.

Claude Code snapshots files before it edits them when file checkpoints are on (the default, see
`transport.options.CliOptions.file_checkpoints`) and answers `rewind_files` for any prompt whose
uuid it echoed. We ask for a dry run first, show what would change, and rewind only after `y` on
that dialog. The conversation itself is not rewound.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from claude_tui.protocol import builders
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.items import NoteKind, UserItem
from claude_tui.session.rewound import forget_rewound

if TYPE_CHECKING:
    from claude_tui.ui.screens.chat import ChatScreen


def last_rewindable_prompt(screen: ChatScreen) -> UserItem | None:
    for item in reversed(screen.conversation.items):
        if isinstance(item, UserItem) and item.uuid:
            return item
    return None


def start_rewind(screen: ChatScreen, item: UserItem | None) -> None:
    """Check, then run the dialog in a worker (a modal answer can only be awaited there)."""
    if item is None:
        screen.notify("No prompt to rewind to yet.", severity="warning")
        return
    if not screen.options.file_checkpoints:
        screen.notify("File checkpoints are off (file_checkpoints = false in the config).", severity="warning")
        return
    if not item.uuid:
        screen.notify("Claude Code has no checkpoint for this prompt (it has not started it, or it was sent "
                      "without file checkpoints).", severity="warning")
        return
    if screen.busy:
        screen.notify("Wait for the turn to end (or press Esc) before rewinding files.", severity="warning")
        return
    if not screen.connection.alive:
        screen.notify("Claude Code is not running: Ctrl+R restarts it.", severity="warning")
        return
    screen.run_worker(_rewind(screen, item, item.uuid), group="rewind", exclusive=True, exit_on_error=False)


async def _ask(screen: ChatScreen, uuid: str, dry_run: bool) -> dict[str, Any] | None:
    try:
        response = await screen.connection.request(builders.rewind_files(uuid, dry_run=dry_run), timeout=30)
    except Exception as error:  # noqa: BLE001 - shown, never raised
        screen.notify(f"Could not rewind files: {one_line(str(error))}", severity="error")
        return None
    body = getattr(response, "payload", None)
    body = body if isinstance(body, dict) else {}
    if not body.get("canRewind"):
        reason = one_line(str(body.get("error") or "Claude Code cannot rewind to this prompt."))
        screen.notify(f"Cannot rewind: {reason}", severity="warning")
        return None
    return body


async def _rewind(screen: ChatScreen, item: UserItem, uuid: str) -> None:
    from claude_tui.ui.screens.rewind import RewindScreen

    preview = await _ask(screen, uuid, dry_run=True)
    if preview is None:
        return
    files = [str(f) for f in preview.get("filesChanged") or [] if isinstance(f, str)]
    if not files:
        screen.notify("No files changed since this prompt: nothing to rewind.", timeout=5)
        return
    insertions, deletions = _count(preview.get("insertions")), _count(preview.get("deletions"))
    dialog = RewindScreen(item.text, files, insertions, deletions, screen.options.cwd or "")
    if not await screen.app.push_screen_wait(dialog):
        return
    if screen.busy:  # a queued prompt may have started while the dialog was open
        screen.notify("A turn started: files were not rewound.", severity="warning")
        return
    done = await _ask(screen, uuid, dry_run=False)
    if done is None:
        return
    # The files are back as they were: the changes since this prompt leave "what changed" (Ctrl+G).
    put_back = [str(f) for f in done.get("filesChanged") or [] if isinstance(f, str)] or files
    forget_rewound(screen.conversation, item, put_back, screen.options.cwd or "")
    words = f"Rewound {len(files)} file{'s' if len(files) != 1 else ''} to before “{one_line(item.text)[:60]}”"
    await screen.show_changes(screen.conversation.add_note(
        words + ":\n" + "\n".join(one_line(f) for f in files[:20]) + ("\n…" if len(files) > 20 else ""),
        NoteKind.INFO))
    _close_selection(screen)
    screen.notify(words + ".", timeout=6)


def _close_selection(screen: ChatScreen) -> None:
    """The selection did its job: back to the prompt, with the new note in view at the end of the log."""
    from claude_tui.ui.widgets.chat_log import ChatLog
    from claude_tui.ui.widgets.select_bar import SelectBar

    for bar in screen.query(SelectBar):
        if bar.display:
            bar.action_close()
    screen.query_one(ChatLog).anchor()


def _count(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0
