"""Drawing a session's changes in its chat view: the log, the sidebar, an agent transcript (the view
shows the status after, `ChatView.show_status`).

One change that fails to draw becomes an error note; the others are still drawn, and the app goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from claude_tui.session import changes as ch
from claude_tui.session.items import NoteKind
from claude_tui.ui.chat.agents import AgentTranscripts
from claude_tui.ui.chat.permission_dialogs import PermissionDialogs
from claude_tui.ui.chat.session import ChatSession
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.panels.sidebar import TaskSidebar


class ChangeDrawer:
    """Draws one session's changes into its view's widgets (given, not looked up: a view has its own)."""

    def __init__(self, session: ChatSession, log: ChatLog, sidebar: TaskSidebar, transcripts: AgentTranscripts,
                 dialogs: PermissionDialogs, turn_ended: Callable[[ch.TurnEnded], None]) -> None:
        self.session = session
        self.log = log
        self.sidebar = sidebar
        self.transcripts = transcripts
        self.dialogs = dialogs
        self.turn_ended = turn_ended

    async def draw(self, changes: list[Any]) -> None:
        log, sidebar = self.log, self.sidebar
        status_dirty = tasks_dirty = False
        failures: list[str] = []
        for change in changes:
            try:
                dirty = await self._draw_one(change)
            except Exception as error:  # noqa: BLE001 - one odd item must not end the app (or the rest)
                failures.append(f"{type(change).__name__}: {error!r}")
                continue
            status_dirty |= dirty == "status"
            tasks_dirty |= dirty == "tasks"
        if status_dirty:
            self.session.keep_options_in_step()
        if tasks_dirty:
            sidebar.refresh_board()
            self.transcripts.refresh()
        if failures:
            note = self.session.conversation.add_note(
                "Part of the conversation could not be drawn; the session goes on.\n" + "\n".join(failures[:5]),
                NoteKind.ERROR)
            for change in note:
                if isinstance(change, ch.ItemAdded):
                    log.add_item(change.item)

    async def _draw_one(self, change: Any) -> str:
        """Draw one change; returns "status" (the options follow it) or "tasks" (a redraw afterwards)."""
        log, transcripts = self.log, self.transcripts
        if isinstance(change, ch.TextAppended):
            if change.scope is None:
                await log.append_text(change.item, change.text)
            else:
                await transcripts.text(change.scope, change.item, change.text)
        elif isinstance(change, ch.ItemAdded):
            if change.scope is None:
                log.add_item(change.item)
            else:
                transcripts.item_added(change.scope, change.item)
        elif isinstance(change, ch.ItemChanged):
            if change.scope is None:
                await log.update_item(change.item)
            else:
                await transcripts.item_changed(change.scope, change.item)
        elif isinstance(change, ch.StatusChanged):
            return "status"
        elif isinstance(change, ch.TasksChanged):
            return "tasks"
        elif isinstance(change, ch.PermissionAsked):
            self.dialogs.asked(change.request)
        elif isinstance(change, ch.PermissionClosed):
            self.dialogs.closed(change.request_id, change.reason)
        elif isinstance(change, ch.TurnEnded):
            self.turn_ended(change)
        return ""
