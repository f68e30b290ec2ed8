"""Permission requests: the CLI asks (`can_use_tool`), cancels, or the user decides.

A mixin of `Conversation`, kept apart so each module stays small.
"""

from __future__ import annotations

import re
from typing import Any

from claude_tui import protocol as p
from claude_tui.session.changes import (
    Change,
    ItemChanged,
    PermissionAsked,
    PermissionClosed,
    StatusChanged,
)
from claude_tui.session.items import NoteKind, ToolItem, ToolState
from claude_tui.session.permissions import PermissionRequest
from claude_tui.session.status import Activity
from claude_tui.session.values import as_list

_INPUT_KEPT = frozenset({"AskUserQuestion", "ExitPlanMode"})
"""Tools whose card keeps the announced input: the answer (the answers; {} for a plan) is not the call."""

_HEAD = re.compile(r"([A-Za-z][A-Za-z ]*): (.+)", re.S)
"""A decision worded ``head: details``: a few plain words, then the details."""


def _split_decision(words: str) -> tuple[str, str]:
    match = _HEAD.fullmatch(words.strip())
    return (match.group(1).strip(), match.group(2).strip()) if match else (words.strip(), "")


def decision_details(words: str) -> str:
    """What a decision adds after its head ("Denied: use rg" → "use rg"; "Allowed once" → "").

    The dialogs word a decision as ``head`` or ``head: details`` (the message told to
    Claude, the rule that was saved); answers ("Answered — Color: Red") have no head
    of that form and stay whole.
    """
    return _split_decision(words)[1]


def decision_head(words: str) -> str:
    """The decision without its details, for a tool card's one-line header ("Denied: use rg" → "Denied")."""
    return _split_decision(words)[0]


class PermissionsMixin:
    """Pending `can_use_tool` requests and the decisions recorded in the log."""

    def record_decision(self, request_id: str, words: str, denied: bool,
                        updated_input: dict[str, Any] | None = None) -> list[Change]:
        request = self.permissions.pop(request_id, None)
        changes: list[Change] = [PermissionClosed(request_id, "answered")]
        if request is None:
            return changes
        tool = self.tool(request.tool_use_id)
        if tool is not None:
            tool.decision = words
            if not denied and request.tool_name not in _INPUT_KEPT:
                # The card shows what was approved and ran: the user's edit, else the input the CLI
                # asked about (which may differ from what the stream announced), never the earlier one.
                sent = {**request.input, **updated_input} if updated_input is not None else request.input
                if sent:
                    tool.input = dict(sent)
            if denied:
                tool.state = ToolState.DENIED
            elif tool.state is ToolState.WAITING:
                tool.state = ToolState.RUNNING
            changes.append(ItemChanged(tool, self._scope_of(tool)))
        if self._decision_needs_note(tool, words):
            changes += self.add_note(words, NoteKind.DECISION, title=request.title)
        if not self.permissions:
            self.status.activity = Activity.RUNNING_TOOL if not denied else Activity.THINKING
            changes.append(StatusChanged())
        return changes

    def _decision_needs_note(self, tool: ToolItem | None, words: str) -> bool:
        """A decision is shown once, on the tool's card ("$ Bash ✓ … · Allowed once").

        A note line is added only for what the card cannot show: a tool with no card in
        the main log (unknown, or a subagent's: its card is in the sidebar), or details a
        one-line header would cut (the message told to Claude, the rule that was saved).
        """
        if tool is None or self._scope_of(tool) is not None:
            return True
        return bool(decision_details(words)) or "\n" in words

    def _control_request(self, message: p.ControlRequest) -> list[Change]:
        raw = message.raw
        request = raw.get("request") if isinstance(raw.get("request"), dict) else {}
        if request.get("subtype") != "can_use_tool":
            return []
        tool_use_id = str(request.get("tool_use_id") or "")
        tool = self.tool(tool_use_id)
        tool_input = request.get("input") if isinstance(request.get("input"), dict) else {}
        plan = ""
        if request.get("tool_name") == "ExitPlanMode" and tool is not None:
            plan = str(tool.input.get("plan", ""))
        permission = PermissionRequest(
            request_id=str(raw.get("request_id", "")),
            tool_name=str(request.get("tool_name", "")),
            input=tool_input,
            display_name=str(request.get("display_name") or ""),
            description=str(request.get("description") or ""),
            decision_reason=str(request.get("decision_reason") or ""),
            blocked_path=str(request.get("blocked_path") or ""),
            suggestions=[s for s in as_list(request.get("permission_suggestions")) if isinstance(s, dict)],
            tool_use_id=tool_use_id,
            plan=plan or str(tool_input.get("plan", "")),
            agent_scope=self._scope_of(tool) if tool is not None else None,
        )
        changes: list[Change] = []
        if tool is None and tool_use_id and permission.tool_name:
            # A call the stream never announced: recorded with the input the CLI asks about, so the
            # conversation shows what is being approved (and its result finds a card).
            tool = ToolItem(tool_use_id=tool_use_id, name=permission.tool_name, input=dict(tool_input))
            self.main.add(tool, changes)
        self.permissions[permission.request_id] = permission
        changes.append(PermissionAsked(permission))
        if tool is not None:
            tool.state = ToolState.WAITING
            changes.append(ItemChanged(tool, permission.agent_scope))
        self.status.activity = Activity.WAITING
        changes.append(StatusChanged())
        return changes

    def _control_cancel(self, message: p.ControlCancelRequest) -> list[Change]:
        request_id = str(message.raw.get("request_id", ""))
        if self.permissions.pop(request_id, None) is None:
            return []
        if not self.permissions and self.status.activity is Activity.WAITING:
            self.status.activity = Activity.THINKING
        return [PermissionClosed(request_id, "cancelled"), StatusChanged()]
