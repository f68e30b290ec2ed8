"""What a chat view needs from the application around it, as a protocol.

The view and its helpers are typed against this, not against `ClaudeTuiApp`: the app imports
the chat, and the chat importing the app back would tie every chat module into one circle.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from claude_tui.config import Config
from claude_tui.git.worktree import Worktree
from claude_tui.session.changes import TurnEnded
from claude_tui.session.conversation import Conversation
from claude_tui.transport.options import CliOptions

if TYPE_CHECKING:
    from claude_tui.history.index import SessionRow
    from claude_tui.ui.chat.session import ChatSession


class ChatHost(Protocol):
    config: Config
    diff_split: bool | None
    """Split/unified for every diff; None: by width."""
    worktrees: list[Worktree]

    @property
    def options(self) -> CliOptions:
        """The active session's options (the launch options before one is open)."""
        ...

    @property
    def bypass_allowed(self) -> bool: ...

    def worktree_for(self, cwd: str | Path | None) -> Worktree | None: ...

    def notify_turn_ended(self, session: ChatSession, change: TurnEnded) -> None: ...

    async def open_session(self, options: CliOptions, conversation: Conversation | None = None, *,
                           new_tab: bool = False) -> None: ...

    async def fork_session(self, conversation: Conversation, session_id: str, base: CliOptions, *,
                           new_tab: bool = False) -> None: ...

    def action_open_sessions(self) -> None: ...

    def action_usage(self) -> None: ...

    def resume_row(self, row: SessionRow) -> None: ...

    def action_help(self) -> None: ...

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """The keys `?` lists under the prompt (keymap applied)."""
        ...

    def action_toggle_split_diffs(self) -> None: ...
