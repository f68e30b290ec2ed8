"""The things a conversation log is made of, as plain data.

Widgets render these; `Conversation` creates and updates them. Nothing here
knows about Textual.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from claude_tui.diff.model import FileDiff

_ids = itertools.count(1)


def _next_id() -> str:
    return f"item-{next(_ids)}"


@dataclass(eq=False)
class Item:
    """One entry in the log. `id` is stable for the item's life (widgets key on it)."""

    id: str = field(default_factory=_next_id, init=False)


@dataclass(eq=False)
class UserItem(Item):
    text: str = ""
    image_count: int = 0
    queued: bool = False
    """Sent while a turn was running: the CLI holds it until the turn ends."""
    shown: str | None = None
    """What the prompt box showed, when `text` (what was sent) differs: a large paste as its
    `[Pasted text #1 +300 lines]` placeholder. The log shows this until the prompt is opened."""
    uuid: str | None = None
    """The CLI's id for this message (from its echo, or the transcript): what a file rewind names."""
    resume_at: str | None = None
    """The uuid of the main conversation's last message before this prompt (an answer, a tool result):
    `--resume-session-at` it to go on from before the prompt. None for a session's first prompt, or
    while the prompt has no uuid (`session.rewind_points`)."""


@dataclass(eq=False)
class TextItem(Item):
    text: str = ""
    streaming: bool = False
    message_id: str | None = None


@dataclass(eq=False)
class ThinkingItem(Item):
    text: str = ""
    streaming: bool = False
    redacted: bool = False
    message_id: str | None = None


class ToolState(str, Enum):
    STREAMING = "streaming"  # input still arriving
    PENDING = "pending"  # input complete, not yet run
    WAITING = "waiting"  # a permission dialog is open for it
    RUNNING = "running"
    DONE = "done"
    ERROR = "error"
    DENIED = "denied"
    INTERRUPTED = "interrupted"


@dataclass(eq=False)
class HookRun:
    """One run of a hook the user configured (`system/hook_started` … `hook_response`, with
    `--include-hook-events`). Its output is the hook's own: kept bounded, shown inert."""

    hook_id: str = ""
    event: str = ""
    """PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart …"""
    name: str = ""
    """The CLI's name for it: the event, then the tool it matched ("PreToolUse:Bash")."""
    running: bool = True
    exit_code: int | None = None
    outcome: str = ""
    """success | error | cancelled (once it ended)."""
    output: str = ""
    """stdout and stderr as the CLI merged them, cut to `HOOK_OUTPUT_CHARS`."""


HOOK_OUTPUT_CHARS = 2000
"""What a hook run keeps of its output: a card or note line shows its start, never a log's worth."""


@dataclass(eq=False)
class ToolItem(Item):
    tool_use_id: str = ""
    name: str = ""
    input: dict[str, Any] = field(default_factory=dict)
    partial_input: str = ""
    state: ToolState = ToolState.STREAMING
    result_text: str = ""
    result_is_error: bool = False
    structured: Any = None
    """The outer `tool_use_result` (Edit/Write patches, Bash stdout/stderr, answers …)."""
    images: list[tuple[str, int]] = field(default_factory=list)
    """(media type, decoded size in bytes) of images in the result."""
    elapsed_seconds: float | None = None
    decision: str | None = None
    """How the user answered its permission request, in words."""
    message_id: str | None = None
    diff: FileDiff | None = None
    """The file change its result describes (Edit/Write/NotebookEdit), built once from `structured`."""
    hooks: list[HookRun] = field(default_factory=list)
    """The PreToolUse/PostToolUse hooks that ran for this call, in order."""

    @property
    def finished(self) -> bool:
        return self.state in (ToolState.DONE, ToolState.ERROR, ToolState.DENIED, ToolState.INTERRUPTED)


class NoteKind(str, Enum):
    INFO = "info"
    LOCAL_COMMAND = "local-command"  # /cost, /context, set_model echoes
    INTERRUPT = "interrupt"
    COMPACT = "compact"
    ERROR = "error"
    DECISION = "decision"  # what the user decided on a permission request


@dataclass(eq=False)
class ShellItem(Item):
    """A `!command` the user ran (claude-tui's bash mode, `ui/chat/bash_mode.py`): not the model's tool."""

    command: str = ""
    text: str = ""
    """Its output so far (stderr merged in), as it came: the card shows a bounded tail, inert."""
    running: bool = True
    exit_code: int | None = None
    stopped: bool = False
    sent: bool = False
    """Given to Claude with a prompt (until then it waits for the next one)."""


@dataclass(eq=False)
class NoteItem(Item):
    kind: NoteKind = NoteKind.INFO
    text: str = ""
    title: str = ""
