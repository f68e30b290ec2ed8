"""A session's pending permission requests (permission, question, plan): the queue, no dialogs.

Part of `ChatSession`: the requests belong to the session, whichever tab is shown. The view's
`PermissionDialogs` shows the current one as a dialog while its tab is on screen, and hands it
back here unanswered when the tab is switched away.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from claude_tui.protocol import builders
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.permissions import PermissionDecision, PermissionRequest


def build_answer(request: PermissionRequest, decision: PermissionDecision) -> dict[str, Any]:
    if decision.response is not None:  # an elicitation's answer: {action, content?}
        return builders.control_success(request.request_id, decision.response)
    if decision.allow:
        updated = decision.updated_input if decision.updated_input is not None else request.input
        return builders.allow(request.request_id, updated, decision.updated_permissions)
    return builders.deny(request.request_id, decision.message or "The user denied this tool use.",
                         interrupt=decision.interrupt)


class PermissionQueue:
    def __init__(self) -> None:
        self.queue: OrderedDict[str, PermissionRequest] = OrderedDict()
        self.current: PermissionRequest | None = None
        """The request a dialog is (or was last) made for; back in `queue` while its tab is hidden."""
        self.answered = 0
        """Answered since the queue was last empty: the "2 of 3" a dialog shows."""
        self.saved: list[dict[str, Any]] = []
        """The "always allow" suggestions sent this session: a request they cover says the rule did not apply."""

    def add(self, request: PermissionRequest) -> bool:
        """Queue `request`; True when it replaces the current one (the CLI re-asked with the same id)."""
        if self.current is not None and self.current.request_id == request.request_id:
            self.current = None
            self.queue[request.request_id] = request
            self.queue.move_to_end(request.request_id, last=False)
            return True
        self.queue[request.request_id] = request  # a queued duplicate is simply replaced, in place
        return False

    def withdraw(self, request_id: str) -> bool:
        """The CLI cancelled it (or exited): drop it; True when it was the current one."""
        self.queue.pop(request_id, None)
        was_current = self.current is not None and self.current.request_id == request_id
        if was_current:
            self.current = None
        self._drained()
        return was_current

    def take_next(self) -> PermissionRequest | None:
        """The next request to show (it becomes current); None once the queue is empty."""
        if not self.queue:
            self.answered = 0
            return None
        _, self.current = self.queue.popitem(last=False)
        return self.current

    def put_back(self) -> None:
        """The current request's dialog was taken down unanswered (its tab was hidden): first in line again."""
        request, self.current = self.current, None
        if request is not None:
            self.queue[request.request_id] = request
            self.queue.move_to_end(request.request_id, last=False)

    def answered_one(self, request: PermissionRequest) -> None:
        if self.current is request:
            self.current = None
        self.answered += 1
        self._drained()

    def _drained(self) -> None:
        # Counted from empty to empty: the next request on its own is "1 of 1" (shown as no count),
        # not "4 of 4" because three came and went earlier in the session.
        if not self.waiting:
            self.answered = 0

    @property
    def total(self) -> int:
        return self.answered + len(self.queue) + (self.current is not None)

    @property
    def waiting(self) -> bool:
        return self.current is not None or bool(self.queue)

    def describe_pending(self) -> str:
        """One printable line for the tab bar and the overview ("Bash: rm -rf build"), or ""."""
        request = self.current or next(iter(self.queue.values()), None)
        if request is None:
            return ""
        detail = request.input.get("command") or request.input.get("file_path") or ""
        return one_line(f"{request.tool_name}: {detail}" if detail else request.tool_name)[:120]
