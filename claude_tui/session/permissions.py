"""Pending `can_use_tool` requests and plain-words descriptions of "always allow" choices."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any
from urllib.parse import urlsplit

from claude_tui.protocol.control import ElicitationRequest
from claude_tui.protocol.user_dialogs import UserDialog
from claude_tui.session.values import as_list

_DESTINATIONS = {
    "localSettings": "saved in .claude/settings.local.json",
    "projectSettings": "saved in .claude/settings.json",
    "userSettings": "saved in ~/.claude/settings.json",
    "session": "for this session",
    "cliArg": "for this session",
}

_MODES = {
    "acceptEdits": "Accept edits",
    "bypassPermissions": "Bypass all permission checks",
    "plan": "Switch to plan mode",
    "default": "Ask before every tool",
    "dontAsk": "Deny anything not pre-approved",
}


@dataclass
class PermissionRequest:
    request_id: str
    tool_name: str
    input: dict[str, Any]
    display_name: str = ""
    description: str = ""
    decision_reason: str = ""
    blocked_path: str = ""
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    tool_use_id: str = ""
    plan: str = ""
    """For ExitPlanMode: the plan text, taken from the assistant's tool_use (the request's input is {})."""
    agent_scope: str | None = None
    """The Task tool_use_id when a subagent asks."""
    elicitation: ElicitationRequest | None = None
    """Set when an MCP server asks the user for input (`elicitation`): the form, not a tool."""
    user_dialog: UserDialog | None = None
    """Set when Claude Code asks for one of its own dialogs (`request_user_dialog`): the choice, not a tool."""
    created_at: float = field(default_factory=time.monotonic)

    @property
    def title(self) -> str:
        return self.display_name or self.tool_name


def _rule_words(rule: dict[str, Any]) -> str:
    tool = str(rule.get("toolName", "this tool"))
    content = rule.get("ruleContent")
    if not content:
        return f"{tool} (any input)"
    content = str(content)
    if tool == "Bash":
        if content.endswith(":*"):
            return f"Bash commands starting with `{content[:-2]}`"
        return f"the Bash command `{content}`"
    if tool in ("Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep"):
        return f"{tool} on `{content}`"
    if tool == "WebFetch" and content.startswith("domain:"):
        return f"fetching from {content[len('domain:'):]}"
    return f"{tool}({content})"


def describe_suggestion(suggestion: dict[str, Any]) -> str:
    """One permission suggestion as a sentence a user can decide on."""
    kind = suggestion.get("type")
    where = _DESTINATIONS.get(str(suggestion.get("destination")), f"saved in {suggestion.get('destination')}")
    if kind in ("addRules", "replaceRules"):
        rules = as_list(suggestion.get("rules"))
        behavior = suggestion.get("behavior", "allow")
        verbs = {"allow": "Always allow", "deny": "Always deny", "ask": "Always ask for"}
        verb = verbs.get(str(behavior), "Always allow")
        words = ", ".join(_rule_words(rule) for rule in rules if isinstance(rule, dict)) or "this tool"
        return f"{verb} {words} — {where}"
    if kind == "addDirectories":
        dirs = ", ".join(str(d) for d in as_list(suggestion.get("directories")))
        if where == "for this session":
            return f"Add {dirs} to this session's directories"
        return f"Add {dirs} to the allowed directories — {where}"
    if kind == "removeDirectories":
        dirs = ", ".join(str(d) for d in as_list(suggestion.get("directories")))
        return f"Remove {dirs} from the allowed directories — {where}"
    if kind == "setMode":
        mode = str(suggestion.get("mode"))
        return f"{_MODES.get(mode, mode)} {where}"
    return f"{kind}: {suggestion}"


def without_verb(description: str) -> str:
    """A suggestion's words after "Always allow" (for "Always allowed: …", which says it once)."""
    return description[len("Always allow "):] if description.startswith("Always allow ") else description


_PATH_FIELDS = ("file_path", "notebook_path", "path")


def rule_covers(rule: dict[str, Any], tool_name: str, tool_input: dict[str, Any]) -> bool:
    """Whether an allow rule, as Claude Code words them (``Bash(npm test:*)``), plainly covers this call.

    Conservative: only forms whose meaning is clear (no content, a Bash command or prefix, a
    WebFetch domain, a file path or glob) are matched; anything else is "not covered".
    """
    if str(rule.get("toolName", "")) != tool_name:
        return False
    content = rule.get("ruleContent")
    if not content:
        return True
    content = str(content)
    if tool_name == "Bash":
        command = tool_input.get("command")
        if not isinstance(command, str):
            return False
        if content.endswith(":*"):
            return command == content[:-2] or command.startswith(content[:-2] + " ")
        return command == content
    if tool_name == "WebFetch" and content.startswith("domain:"):
        host = urlsplit(str(tool_input.get("url", ""))).hostname or ""
        return host == content[len("domain:"):]
    for key in _PATH_FIELDS:
        path = tool_input.get(key)
        if isinstance(path, str) and path:
            return path == content or fnmatchcase(path, content)
    return False


def saved_rule_for(saved: list[dict[str, Any]], tool_name: str, tool_input: dict[str, Any]) -> dict[str, Any] | None:
    """The first "always allow" suggestion already sent whose rules cover this call, if any."""
    for suggestion in saved:
        if suggestion.get("type") not in ("addRules", "replaceRules") or suggestion.get("behavior", "allow") != "allow":
            continue
        for rule in as_list(suggestion.get("rules")):
            if isinstance(rule, dict) and rule_covers(rule, tool_name, tool_input):
                return suggestion
    return None


@dataclass(frozen=True)
class PermissionDecision:
    """What the user decided on a dialog; the app turns it into a control_response."""

    request_id: str
    allow: bool
    updated_input: dict[str, Any] | None = None
    """For allow: the (possibly edited) input; None means the request's input unchanged."""
    updated_permissions: list[dict[str, Any]] | None = None
    """For "always": the chosen permission suggestion(s), sent back verbatim."""
    message: str = ""
    """For deny: what Claude is told."""
    interrupt: bool = False
    """For deny: also stop the turn."""
    words: str = ""
    """The decision in plain words, for the chat log ("Allowed once", "Denied: …")."""
    response: dict[str, Any] | None = None
    """For an elicitation: the answer sent as it is (`{action, content?}`)."""
    follow_up: str = ""
    """For an allow that takes part of a change: what Claude is told was left out. An allow carries
    no message, so it goes as a prompt right after the answer: the CLI hands a prompt sent mid-turn
    to the model with the next tool result, in the same turn (checked on 2.1.330)."""
