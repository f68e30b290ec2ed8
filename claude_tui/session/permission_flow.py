"""Permission requests: the CLI asks (`can_use_tool`), cancels, or the user decides.

`PermissionBook` is a part of `Conversation`: it owns the pending requests and records decisions
on the tool cards of the conversation's logs.
"""

from __future__ import annotations

import re
from typing import Any

from claude_tui import protocol as p
from claude_tui.protocol.user_dialogs import read_dialog
from claude_tui.session.changes import (
    Change,
    ItemChanged,
    PermissionAsked,
    PermissionClosed,
    StatusChanged,
)
from claude_tui.session.items import NoteKind, ToolItem, ToolState
from claude_tui.session.log import Logs
from claude_tui.session.permissions import PermissionRequest
from claude_tui.session.status import Activity, SessionStatus
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


class PermissionBook:
    """Pending `can_use_tool` requests and the decisions recorded in the log."""

    def __init__(self, status: SessionStatus, logs: Logs) -> None:
        self._status = status
        self._logs = logs
        self.pending: dict[str, PermissionRequest] = {}
        """Requests the CLI asked and nobody answered yet, by request id (in the order asked)."""

    def record_decision(self, request_id: str, words: str, denied: bool,
                        updated_input: dict[str, Any] | None = None) -> list[Change]:
        request = self.pending.pop(request_id, None)
        changes: list[Change] = [PermissionClosed(request_id, "answered")]
        if request is None:
            return changes
        tool = self._logs.tool(request.tool_use_id)
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
            changes.append(ItemChanged(tool, self._logs.scope_of(tool)))
        if self._decision_needs_note(tool, words):
            changes += self._logs.note(words, NoteKind.DECISION, title=request.title)
        if not self.pending:
            self._status.activity = Activity.RUNNING_TOOL if not denied else Activity.THINKING
            changes.append(StatusChanged())
        return changes

    def _decision_needs_note(self, tool: ToolItem | None, words: str) -> bool:
        """A decision is shown once, on the tool's card ("$ Bash ✓ … · Allowed once").

        A note line is added only for what the card cannot show: a tool with no card in
        the main log (unknown, or a subagent's: its card is in the sidebar), or details a
        one-line header would cut (the message told to Claude, the rule that was saved).
        """
        if tool is None or self._logs.scope_of(tool) is not None:
            return True
        return bool(decision_details(words)) or "\n" in words

    def on_request(self, message: p.ControlRequest) -> list[Change]:
        match message.request:
            case p.CanUseToolRequest() as asked:
                return self._ask(self._typed_request(message.request_id, asked))
            case p.ElicitationRequest() as form:
                return self._ask(self._form_request(message.request_id, form))
            case p.UserDialogRequest() as asked:
                # A kind we do not render (or cannot read) the transport has answered already.
                if (dialog := read_dialog(asked.dialog_kind, asked.payload)) is None:
                    return []
                return self._ask(PermissionRequest(request_id=message.request_id, tool_name="Claude Code dialog",
                                                   input={}, display_name=dialog.title, user_dialog=dialog,
                                                   tool_use_id=asked.tool_use_id or ""))
            case p.UnknownControlRequest() as unknown if unknown.raw.get("subtype") == "can_use_tool":
                # A `can_use_tool` whose fields do not validate (the model is strict here: see
                # `CanUseToolRequest.lenient`). The transport still holds it as pending, so it is shown
                # from its raw dict as before (the user can deny it or interrupt); never dropped.
                return self._ask(self._raw_request(message.request_id, unknown.raw))
        return []

    def _typed_request(self, request_id: str, asked: p.CanUseToolRequest) -> PermissionRequest:
        return self._request(
            request_id=request_id,
            tool_name=asked.tool_name,
            tool_input=asked.input,
            display_name=asked.display_name or "",
            description=asked.description or "",
            # `decision_reason` is not typed by the CLI's docs (a string today, an object in some
            # versions): shown as words either way.
            decision_reason=str(asked.decision_reason or ""),
            blocked_path=asked.blocked_path or "",
            # Sent back verbatim in `updatedPermissions`, so the dialog keeps each suggestion's raw dict.
            suggestions=[suggestion.raw for suggestion in asked.permission_suggestions or ()],
            tool_use_id=asked.tool_use_id or "",
        )

    def _form_request(self, request_id: str, form: p.ElicitationRequest) -> PermissionRequest:
        server = form.mcp_server_name or "An MCP server"
        return PermissionRequest(request_id=request_id, tool_name="MCP form", input={},
                                 display_name=form.title or form.display_name or f"{server} asks",
                                 description=form.message, elicitation=form)

    def _raw_request(self, request_id: str, raw: dict[str, Any]) -> PermissionRequest:
        tool_input = raw.get("input")
        return self._request(
            request_id=request_id,
            tool_name=str(raw.get("tool_name", "")),
            tool_input=tool_input if isinstance(tool_input, dict) else {},
            display_name=str(raw.get("display_name") or ""),
            description=str(raw.get("description") or ""),
            decision_reason=str(raw.get("decision_reason") or ""),
            blocked_path=str(raw.get("blocked_path") or ""),
            suggestions=[s for s in as_list(raw.get("permission_suggestions")) if isinstance(s, dict)],
            tool_use_id=str(raw.get("tool_use_id") or ""),
        )

    def _request(self, *, request_id: str, tool_name: str, tool_input: dict[str, Any], display_name: str,
                 description: str, decision_reason: str, blocked_path: str, suggestions: list[dict[str, Any]],
                 tool_use_id: str) -> PermissionRequest:
        tool = self._logs.tool(tool_use_id)
        plan = ""
        if tool_name == "ExitPlanMode" and tool is not None:
            plan = str(tool.input.get("plan", ""))
        return PermissionRequest(
            request_id=request_id,
            tool_name=tool_name,
            input=tool_input,
            display_name=display_name,
            description=description,
            decision_reason=decision_reason,
            blocked_path=blocked_path,
            suggestions=suggestions,
            tool_use_id=tool_use_id,
            plan=plan or str(tool_input.get("plan", "")),
            agent_scope=self._logs.scope_of(tool) if tool is not None else None,
        )

    def _ask(self, permission: PermissionRequest) -> list[Change]:
        changes: list[Change] = []
        tool = self._logs.tool(permission.tool_use_id)
        if tool is None and permission.tool_use_id and permission.tool_name:
            # A call the stream never announced: recorded with the input the CLI asks about, so the
            # conversation shows what is being approved (and its result finds a card).
            tool = ToolItem(tool_use_id=permission.tool_use_id, name=permission.tool_name,
                            input=dict(permission.input))
            self._logs.main.add(tool, changes)
        self.pending[permission.request_id] = permission
        changes.append(PermissionAsked(permission))
        if tool is not None:
            tool.state = ToolState.WAITING
            changes.append(ItemChanged(tool, permission.agent_scope))
        self._status.activity = Activity.WAITING
        changes.append(StatusChanged())
        return changes

    def on_cancel(self, message: p.ControlCancelRequest) -> list[Change]:
        request_id = message.request_id
        if self.pending.pop(request_id, None) is None:
            return []
        if not self.pending and self._status.activity is Activity.WAITING:
            self._status.activity = Activity.THINKING
        return [PermissionClosed(request_id, "cancelled"), StatusChanged()]

    def close_all(self, reason: str) -> list[Change]:
        """Every pending request ends unanswered (the process exited)."""
        changes: list[Change] = [PermissionClosed(request_id, reason) for request_id in self.pending]
        self.pending.clear()
        return changes
