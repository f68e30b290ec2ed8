"""Keeping "what changed" truthful after a file rewind.

Claude Code's `rewind_files` puts the files changed since a prompt back as they were before it and
names them (`filesChanged`). The diffs recorded since that prompt for those files no longer describe
the files on disk, so they leave the turn and session change sets; earlier changes to the same files
(made before the prompt) are still there and stay.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from claude_tui.diff.model import FileDiff
from claude_tui.session.items import ToolItem, UserItem

if TYPE_CHECKING:
    from claude_tui.session.conversation import Conversation


def _normal(path: str, cwd: str) -> str:
    return os.path.normpath(os.path.join(cwd, path)) if cwd else os.path.normpath(path)


def diffs_since(conversation: Conversation, prompt: UserItem) -> list[FileDiff]:
    """Diffs of the tool calls after `prompt` in the log, a subagent's under its Task call."""
    items = conversation.main.items
    try:
        start = next(i for i, item in enumerate(items) if item is prompt)
    except StopIteration:
        return []
    tools = [item for item in items[start:] if isinstance(item, ToolItem)]
    found = [tool.diff for tool in tools if tool.diff is not None]
    for tool in tools:
        log = conversation.subagents.get(tool.tool_use_id)
        if log is not None:
            found += [t.diff for t in log.tools.values() if t.diff is not None]
    return found


def forget_rewound(conversation: Conversation, prompt: UserItem, files: list[str], cwd: str = "") -> int:
    """Drop the changes since `prompt` to the rewound `files`; returns how many diffs went."""
    wanted = {_normal(f, cwd) for f in files}
    rewound = [d for d in diffs_since(conversation, prompt) if _normal(d.path, cwd) in wanted]
    return conversation.changes.forget(rewound)
