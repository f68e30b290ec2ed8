"""Drawing the conversation's changes on the chat screen: the log, the sidebar, the status bar.

One change that fails to draw becomes an error note; the others are still drawn, and the app goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from claude_tui.session import changes as ch
from claude_tui.session.items import NoteKind
from claude_tui.ui.widgets.chat_log import ChatLog
from claude_tui.ui.widgets.sidebar import TaskSidebar
from claude_tui.ui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from claude_tui.ui.screens.chat import ChatScreen


async def show_changes(screen: ChatScreen, changes: list[Any]) -> None:
    log = screen.query_one(ChatLog)
    sidebar = screen.query_one(TaskSidebar)
    status_dirty = tasks_dirty = False
    failures: list[str] = []
    for change in changes:
        try:
            dirty = await _show_change(screen, change, log, sidebar)
        except Exception as error:  # noqa: BLE001 - one odd item must not end the app (or the rest)
            failures.append(f"{type(change).__name__}: {error!r}")
            continue
        status_dirty |= dirty == "status"
        tasks_dirty |= dirty == "tasks"
    if status_dirty:
        keep_options_in_step(screen)
        screen.query_one(StatusBar).show(screen.conversation.status)
    if tasks_dirty:
        sidebar.refresh_board()
    if failures:
        note = screen.conversation.add_note("Part of the conversation could not be drawn; the session goes on.\n"
                                            + "\n".join(failures[:5]), NoteKind.ERROR)
        for change in note:
            log.add_item(change.item)


def keep_options_in_step(screen: ChatScreen) -> None:
    """Ctrl+R and a new session respawn the CLI from `screen.options`: give them the mode and model the
    CLI runs now, including the switches it made itself (a plan approved with "accept edits", a
    suggestion "accept edits for this session", `/model NAME` typed as a prompt)."""
    conversation, options = screen.conversation, screen.options
    mode = conversation.status.permission_mode
    # Only once the CLI has said: until then the status shows what the options asked for.
    if conversation.reported_mode is not None and mode and mode != (options.permission_mode or "default"):
        options.permission_mode = mode
    choice, conversation.model_choice = conversation.model_choice, None  # taken once: a later pick wins
    if choice:
        options.model = choice


async def _show_change(screen: ChatScreen, change: Any, log: ChatLog, sidebar: TaskSidebar) -> str:
    """Draw one change; returns "status" or "tasks" when that part needs a redraw afterwards."""
    if isinstance(change, ch.TextAppended):
        if change.scope is None:
            await log.append_text(change.item, change.text)
        else:
            await sidebar.agent_text(change.scope, change.item, change.text)
    elif isinstance(change, ch.ItemAdded):
        if change.scope is None:
            log.add_item(change.item)
        else:
            sidebar.agent_item_added(change.scope, change.item)
    elif isinstance(change, ch.ItemChanged):
        if change.scope is None:
            await log.update_item(change.item)
        else:
            await sidebar.agent_item_changed(change.scope, change.item)
    elif isinstance(change, ch.StatusChanged):
        return "status"
    elif isinstance(change, ch.TasksChanged):
        return "tasks"
    elif isinstance(change, ch.PermissionAsked):
        screen.permissions.asked(change.request)
    elif isinstance(change, ch.PermissionClosed):
        screen.permissions.closed(change.request_id, change.reason)
    elif isinstance(change, ch.TurnEnded):
        screen.tui.notify_turn_ended(change)
        # Collection is tuned down while streaming (see app._tune_gc); sweep the
        # turn's young cyclic garbage once the turn is over and you are reading.
        screen.set_timer(1.0, screen._collect_garbage)
    return ""
