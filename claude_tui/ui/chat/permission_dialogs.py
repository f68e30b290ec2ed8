"""A session's pending requests shown as dialogs, one at a time, while its tab is on screen.

Only a decision made on a visible dialog leaves as a control_response. A request the CLI
cancels (or that dies with the process) closes its dialog and is never answered. A tab in
the background shows no dialog: its request waits in the session's queue, the tab is marked
(`ChatSession.attention`) and the attention signal rings once; switching there shows it.
Switching away takes the dialog down unanswered and puts the request back first in line.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from textual.widget import Widget

from claude_tui.config import Config
from claude_tui.session.permissions import PermissionDecision, PermissionRequest, saved_rule_for
from claude_tui.transport.options import CliOptions
from claude_tui.ui.chat.permission_queue import build_answer
from claude_tui.ui.chat.session import ChatSession

__all__ = ["PermissionDialogs", "build_answer", "dialog_for"]


def dialog_for(request: PermissionRequest, position: int, total: int, guard_ms: int, bell: bool, desktop: bool,
               cwd: Path | None = None, saved: list[dict[str, Any]] | None = None,
               options: CliOptions | None = None) -> Any:
    if request.elicitation is not None:
        from claude_tui.ui.manage.elicitation import ElicitationScreen

        return ElicitationScreen(request, position=position, total=total, guard_ms=guard_ms, bell=bell,
                                 desktop=desktop)
    if request.user_dialog is not None:
        from claude_tui.ui.dialogs.user_dialog import UserDialogScreen

        return UserDialogScreen(request, position=position, total=total, guard_ms=guard_ms, bell=bell,
                                desktop=desktop)
    if request.tool_name == "AskUserQuestion":
        from claude_tui.ui.dialogs.question import QuestionScreen

        return QuestionScreen(request, position=position, total=total, guard_ms=guard_ms, bell=bell, desktop=desktop)
    if request.tool_name == "ExitPlanMode":
        from claude_tui.ui.dialogs.plan import PlanScreen

        return PlanScreen(request, position=position, total=total, guard_ms=guard_ms, bell=bell, desktop=desktop)
    from claude_tui.ui.dialogs.permission import PermissionScreen

    unapplied = saved_rule_for(saved or [], request.tool_name, request.input)
    return PermissionScreen(request, position=position, total=total, guard_ms=guard_ms, bell=bell, desktop=desktop,
                            cwd=cwd, unapplied=unapplied, options=options)


class PermissionDialogs:
    def __init__(self, session: ChatSession, node: Widget, config: Config,
                 draw: Callable[[list[Any]], Awaitable[None]], shown: Callable[[], bool],
                 marked: Callable[[], None]) -> None:
        self.session = session
        self.queue = session.permissions
        self.node = node
        """The session's view: its app shows the dialogs (read when one opens, not at construction)."""
        self.config = config
        self.draw = draw
        self.shown = shown
        """Whether the session's tab is the one on screen (only then may a dialog open)."""
        self.marked = marked
        """Called when a request arrives for a tab in the background (mark it, ring once)."""
        self.dialog: Any = None

    def asked(self, request: PermissionRequest) -> None:
        if self.queue.add(request):
            # The same id again (the CLI re-asked, perhaps with another input): the open dialog
            # shows the old input, so it closes unanswered and the new request takes its place.
            self._take_down("replaced")
            self.show_next()
            return
        if self.dialog is None:
            self.show_next()
        elif hasattr(self.dialog, "set_total"):
            self.dialog.set_total(self.queue.total)

    def closed(self, request_id: str, reason: str) -> None:
        if reason == "answered":
            return
        if self.queue.withdraw(request_id):
            self._take_down(reason)
            if reason == "exited":
                self.node.app.notify("Claude Code stopped; the open permission request was closed.", severity="warning")
            self.show_next()
        elif not self.queue.waiting:
            self.session.attention = False

    def show_next(self) -> None:
        """Open the dialog for the next request, if its tab is on screen (else mark the tab)."""
        if self.dialog is not None or not self.queue.waiting:
            return
        if not self.shown():
            if not self.session.attention:
                self.session.attention = True
                self.marked()
            return
        self.session.attention = False
        request = self.queue.current if self.queue.current is not None else self.queue.take_next()
        if request is None:
            return
        config = self.config
        dialog = dialog_for(request, self.queue.answered + 1, self.queue.total, config.typeahead_guard_ms,
                            config.notifications.bell, config.notifications.desktop,
                            cwd=Path(self.session.options.cwd or "."), saved=self.queue.saved,
                            options=self.session.options)
        self.dialog = dialog
        self.node.app.push_screen(dialog, partial(self._decided, request, dialog))

    def hide(self) -> None:
        """The tab goes to the background: its dialog comes down unanswered, its request waits."""
        if self.dialog is None:
            return
        self._take_down("hidden")
        self.queue.put_back()
        # Still waiting, now in the background: marked `!` like one that arrived there (no ring:
        # you just saw it), until you come back.
        self.session.attention = True

    def _take_down(self, reason: str) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.cancel(reason)  # closes without calling back: nothing is answered

    async def _decided(self, request: PermissionRequest, dialog: Any, decision: PermissionDecision | None) -> None:
        # Bound to its own request and dialog: a callback queued behind other events
        # must not clear a newer dialog that is already showing.
        if self.dialog is dialog:
            self.dialog = None
        if decision is None or decision.request_id != request.request_id:
            # Defensive: cancelled dialogs never call back (see GuardedModal.cancel); nothing is sent.
            return
        self.queue.answered_one(request)
        session = self.session
        sent = await session.connection.answer_permission(build_answer(request, decision))
        if sent and decision.allow and decision.updated_permissions:
            self.queue.saved += [p for p in decision.updated_permissions if isinstance(p, dict)]
        if sent:
            await self.draw(session.conversation.record_decision(
                request.request_id, decision.words or ("Allowed" if decision.allow else "Denied"),
                denied=not decision.allow, updated_input=decision.updated_input))
            if decision.follow_up and await session.send(decision.follow_up):
                # Shown in the log as the prompt it is, kept out of the prompt history (not typed).
                await self.draw(session.conversation.add_user_prompt(decision.follow_up))
        else:
            self.node.app.notify("That request is no longer pending; nothing was sent.", severity="warning")
        if self.dialog is None:
            self.show_next()
