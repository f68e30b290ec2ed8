"""Permission rules as the /permissions screen shows and changes them (pure, no I/O).

The CLI lists every rule with its source (`list_permission_rules`); claude-tui adds and removes
rules only in the CLI's flag-settings layer (`apply_flag_settings`, source `flagSettings`), for
this session, and never edits a settings file: a rule kept in a file is shown with the file to
edit. `with_rule` / `without_rule` give the whole lists to send (the layer keeps the last ones).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from claude_tui.protocol.manage import PermissionRule
from claude_tui.protocol.sanitize import printable_name

__all__ = ["BEHAVIOURS", "SOURCES", "where_kept", "parse_entry", "flag_lists", "with_rule", "without_rule"]

BEHAVIOURS = ("allow", "ask", "deny")
SOURCES = {
    "userSettings": "your settings, ~/.claude/settings.json",
    "projectSettings": "the project's settings, .claude/settings.json (shared)",
    "localSettings": "your settings for this project, .claude/settings.local.json",
    "flagSettings": "this session only (added here, or by --settings)",
    "policySettings": "your organisation's managed policy",
    "cliArg": "this session only (--allowedTools / --disallowedTools)",
    "command": "a slash command's allowed-tools",
    "session": "this session only (an \"always\" answer)",
    "mcpMount": "an MCP server's mount",
    "toolsNarrowing": "the --tools list",
    "mcpServerPolicy": "an MCP server's policy",
    "hostCredential": "the host's credentials",
}
_ENTRY = re.compile(r"\s*(allow|ask|deny)\s+(\S.*?)\s*", re.I)
_RULE = re.compile(r"[A-Za-z_][\w-]*(\(.*\))?")


def where_kept(rule: PermissionRule) -> str:
    return SOURCES.get(rule.source) or printable_name(rule.source or "unknown")  # a source we do not know: its name


def parse_entry(text: str) -> tuple[str, str] | str:
    """"deny Bash(rm:*)" -> ("deny", "Bash(rm:*)"); a sentence saying what is wrong otherwise."""
    match = _ENTRY.fullmatch(text)
    if not match:
        return "Write allow, ask or deny, then the rule: allow Bash(npm test:*) · deny Read(./.env) · ask WebFetch"
    behaviour, rule = match.group(1).lower(), match.group(2)
    if not _RULE.fullmatch(rule):
        return f"{rule!r} is not a rule: a tool name, optionally with (its content), e.g. Bash(git push:*)"
    return behaviour, rule


def flag_lists(rules: Iterable[PermissionRule]) -> dict[str, list[str]]:
    lists: dict[str, list[str]] = {b: [] for b in BEHAVIOURS}
    for rule in rules:
        if rule.source == "flagSettings" and rule.behavior in lists and rule.rule not in lists[rule.behavior]:
            lists[rule.behavior].append(rule.rule)
    return lists


def with_rule(rules: Iterable[PermissionRule], behaviour: str, rule: str) -> dict[str, list[str]]:
    lists = flag_lists(rules)
    if rule not in lists[behaviour]:
        lists[behaviour].append(rule)
    return lists


def without_rule(rules: Iterable[PermissionRule], behaviour: str, rule: str) -> dict[str, list[str]]:
    lists = flag_lists(rules)
    lists[behaviour] = [r for r in lists.get(behaviour, []) if r != rule]
    return lists
