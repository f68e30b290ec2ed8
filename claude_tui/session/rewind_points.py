"""Where the conversation can go back to: before one of the user's prompts.

Claude Code's `--resume ID --resume-session-at UUID` (in print mode, every supported version)
loads the session's messages up to and including UUID and goes on from there; what follows stays in
the transcript as a branch. To go back to before a prompt, the CLI resumes at the message before it:
the prompt's `resume_at`, learnt from the stream (`Streaming.chain_uuid`). Before a session's first
prompt there is nothing to resume: the CLI starts a new session. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_tui.session.items import TextItem, ThinkingItem, ToolItem, UserItem

if TYPE_CHECKING:
    from claude_tui.session.conversation import Conversation


@dataclass(frozen=True)
class RewindPoint:
    prompt: UserItem
    resume_at: str | None
    """The uuid to `--resume-session-at`; None: before the first prompt (a new session)."""


def rewindable_prompts(conversation: Conversation) -> list[UserItem]:
    """The user's prompts in the main conversation, oldest first (a queued one has not started yet)."""
    return [item for item in conversation.items if isinstance(item, UserItem) and not item.queued
            and (item.text.strip() or item.image_count)]


def rewind_point(conversation: Conversation, prompt: UserItem) -> RewindPoint | str:
    """Where to resume to go on from before `prompt`, or why that cannot be done (one sentence)."""
    if prompt.resume_at:
        return RewindPoint(prompt, prompt.resume_at)
    items = conversation.items
    try:
        index = next(i for i, item in enumerate(items) if item is prompt)
    except StopIteration:
        return "That prompt is no longer in the conversation."
    if not any(isinstance(item, (TextItem, ThinkingItem, ToolItem)) for item in items[:index]):
        return RewindPoint(prompt, None)  # nothing was said before it: a new session
    if prompt.uuid is None:
        return "Claude Code has not started this prompt yet, so there is no point to go back to."
    return ("Claude Code did not say where this prompt's turn began (the session was resumed from a "
            "summary, or its CLI predates the ids): fork the session instead.")
