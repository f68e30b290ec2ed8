"""Rewind files: put the project's files back as they were before a prompt.

Claude Code snapshots files before it edits them when file checkpoints are on (the default, see
`transport.options.CliOptions.file_checkpoints`) and answers `rewind_files` for any prompt whose
uuid it echoed. We ask for a dry run first, show what would change, and rewind only after `y` on
that dialog. The conversation itself is not rewound.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, Protocol

from textual.app import App
from textual.notifications import SeverityLevel
from textual.worker import Worker

from claude_tui.protocol import builders
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteKind, UserItem
from claude_tui.session.rewound import forget_rewound
from claude_tui.ui.chat.session import ChatSession


class _Tail(Protocol):
    async def show_tail(self) -> None: ...


class _Selection(Protocol):
    def close_selection(self) -> None: ...


class _Prompt(Protocol):
    @property
    def navigator(self) -> _Selection: ...

    def put_back_prompt(self, text: str) -> None: ...


class RewindingView(Protocol):
    """What a rewind (files or conversation) needs of the tab's view (`ui/chat/view.py` ChatView)."""

    session: ChatSession

    @property
    def log_widget(self) -> _Tail: ...

    @property
    def prompt_area(self) -> _Prompt: ...

    @property
    def app(self) -> App[Any]: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...

    def run_worker(self, work: Coroutine[Any, Any, None], *, group: str, exclusive: bool,
                   exit_on_error: bool) -> Worker[None]: ...

    async def show_changes(self, changes: list[Any]) -> None: ...


def last_rewindable_prompt(conversation: Conversation) -> UserItem | None:
    for item in reversed(conversation.items):
        if isinstance(item, UserItem) and item.uuid:
            return item
    return None


def rewind_last_prompt(view: RewindingView) -> None:
    """The palette's "Rewind files to before the last prompt"."""
    start_rewind(view, last_rewindable_prompt(view.session.conversation))


def start_rewind(view: RewindingView, item: UserItem | None) -> None:
    """Check, then run the dialog in a worker of `view` (a modal answer can only be awaited there).

    The note it adds is drawn in the view; once the files are back the selection closes."""
    session = view.session
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
    view.run_worker(_rewind(view, item, item.uuid), group="rewind", exclusive=True, exit_on_error=False)


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


async def _ask(view: RewindingView, uuid: str, dry_run: bool) -> dict[str, Any] | None:
    body, problem = await ask_rewind(view.session, uuid, dry_run)
    if body is None:
        view.notify(problem, severity="error" if problem.startswith("Could not") else "warning")
    return body


async def _rewind(view: RewindingView, item: UserItem, uuid: str) -> None:
    from claude_tui.ui.dialogs.rewind import RewindScreen

    session = view.session
    preview = await _ask(view, uuid, dry_run=True)
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
    answer = await _ask(view, uuid, dry_run=False)
    if answer is None:
        return
    # The files are back as they were: the changes since this prompt leave "what changed" (F8).
    put_back = [str(f) for f in answer.get("filesChanged") or [] if isinstance(f, str)] or files
    forget_rewound(session.conversation, item, put_back, session.options.cwd or "")
    words = f"Rewound {len(files)} file{'s' if len(files) != 1 else ''} to before “{one_line(item.text)[:60]}”"
    await view.show_changes(session.conversation.add_note(
        words + ":\n" + "\n".join(one_line(f) for f in files[:20]) + ("\n…" if len(files) > 20 else ""),
        NoteKind.INFO))
    view.prompt_area.navigator.close_selection()
    view.notify(words + ".", timeout=6)


def _count(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0
