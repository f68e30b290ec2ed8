"""Pending permission requests, shown one dialog at a time.

Only a decision made on a visible dialog leaves as a control_response. A
request the CLI cancels (or that dies with the process) closes its dialog and
is never answered.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_tui.protocol import builders
from claude_tui.session.permissions import PermissionDecision, PermissionRequest, saved_rule_for

if TYPE_CHECKING:
    from claude_tui.ui.screens.chat import ChatScreen


def build_answer(request: PermissionRequest, decision: PermissionDecision) -> dict[str, Any]:
    if decision.allow:
        updated = decision.updated_input if decision.updated_input is not None else request.input
        return builders.allow(request.request_id, updated, decision.updated_permissions)
    return builders.deny(request.request_id, decision.message or "The user denied this tool use.",
                         interrupt=decision.interrupt)


def dialog_for(request: PermissionRequest, position: int, total: int, guard_ms: int, bell: bool, desktop: bool,
               cwd: Path | None = None, saved: list[dict[str, Any]] | None = None) -> Any:
    if request.tool_name == "AskUserQuestion":
        from claude_tui.ui.screens.question import QuestionScreen

        return QuestionScreen(request, position=position, total=total, guard_ms=guard_ms, bell=bell, desktop=desktop)
    if request.tool_name == "ExitPlanMode":
        from claude_tui.ui.screens.plan import PlanScreen

        return PlanScreen(request, position=position, total=total, guard_ms=guard_ms, bell=bell, desktop=desktop)
    from claude_tui.ui.screens.permission import PermissionScreen

    unapplied = saved_rule_for(saved or [], request.tool_name, request.input)
    return PermissionScreen(request, position=position, total=total, guard_ms=guard_ms, bell=bell, desktop=desktop,
                            cwd=cwd, unapplied=unapplied)


class PermissionFlow:
    def __init__(self, screen: ChatScreen) -> None:
        self.screen = screen
        self.queue: OrderedDict[str, PermissionRequest] = OrderedDict()
        self.current: PermissionRequest | None = None
        self.dialog: Any = None
        self.answered = 0
        self.saved: list[dict[str, Any]] = []
        """The "always allow" suggestions sent this session: a request they cover says the rule did not apply."""

    def asked(self, request: PermissionRequest) -> None:
        if self.current is not None and self.current.request_id == request.request_id:
            # The same id again (the CLI re-asked, perhaps with another input): the open dialog
            # shows the old input, so it closes unanswered and the new request takes its place.
            dialog, self.dialog, self.current = self.dialog, None, None
            if dialog is not None:
                dialog.cancel("replaced")
            self.queue[request.request_id] = request
            self.queue.move_to_end(request.request_id, last=False)
            self._show_next()
            return
        self.queue[request.request_id] = request  # a queued duplicate is simply replaced, in place
        if self.dialog is None:
            self._show_next()
        elif hasattr(self.dialog, "set_total"):
            self.dialog.set_total(self.answered + len(self.queue) + 1)

    def closed(self, request_id: str, reason: str) -> None:
        if reason == "answered":
            return
        self.queue.pop(request_id, None)
        if self.current is not None and self.current.request_id == request_id:
            dialog, self.dialog, self.current = self.dialog, None, None
            if dialog is not None:
                dialog.cancel(reason)
            if reason == "exited":
                self.screen.notify("Claude Code stopped; the open permission request was closed.", severity="warning")
            self._show_next()

    def _show_next(self) -> None:
        if not self.queue:
            self.answered = 0
            return
        _, request = self.queue.popitem(last=False)
        self.current = request
        config = self.screen.tui.config
        total = self.answered + 1 + len(self.queue)
        self.dialog = dialog_for(request, self.answered + 1, total, config.typeahead_guard_ms,
                                 config.notifications.bell, config.notifications.desktop,
                                 cwd=Path(self.screen.options.cwd or "."), saved=self.saved)
        self.screen.app.push_screen(self.dialog, partial(self._decided, request, self.dialog))

    async def _decided(self, request: PermissionRequest, dialog: Any, decision: PermissionDecision | None) -> None:
        # Bound to its own request and dialog: a callback queued behind other events
        # must not clear a newer dialog that is already showing.
        if self.dialog is dialog:
            self.current, self.dialog = None, None
        if decision is None or decision.request_id != request.request_id:
            # Defensive: cancelled dialogs never call back (see GuardedDialog.cancel); nothing is sent.
            return
        self.answered += 1
        sent = await self.screen.connection.answer_permission(build_answer(request, decision))
        if sent and decision.allow and decision.updated_permissions:
            self.saved += [p for p in decision.updated_permissions if isinstance(p, dict)]
        if sent:
            await self.screen.show_changes(
                self.screen.conversation.record_decision(request.request_id, decision.words or
                                                         ("Allowed" if decision.allow else "Denied"),
                                                         denied=not decision.allow,
                                                         updated_input=decision.updated_input))
        else:
            self.screen.notify("That request is no longer pending; nothing was sent.", severity="warning")
        if self.dialog is None:
            self._show_next()
