"""The fake CLI's answers to the manage requests (`/mcp`, `/context`, `/permissions`, `/hooks`,
`/usage` in the demo), from what Claude Code 2.1.330 answered (`scenarios/manage-answers.ndjson`).

A server turned off stays off (`mcp_toggle`), a rule added to the session layer is listed
(`apply_flag_settings`), as the real CLI does; nothing else changes.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from typing import Any

__all__ = ["ManageState"]

_CHANGES = frozenset({"mcp_reconnect", "rename_session"})
_LAYER = "flagSettings"


@functools.cache
def _recorded() -> dict[str, dict[str, Any]]:
    text = resources.files("claude_tui.fakecli").joinpath("scenarios", "manage-answers.ndjson").read_text("utf-8")
    return {obj["subtype"]: obj["response"] for obj in map(json.loads, text.splitlines()) if obj}


class ManageState:
    def __init__(self) -> None:
        self.disabled: set[str] = set()
        self.flag_rules: dict[str, list[str]] = {"allow": [], "deny": [], "ask": []}

    def answer(self, subtype: str, request: dict[str, Any]) -> dict[str, Any] | None:
        """The success payload for `subtype`, or None when the fake does not know it."""
        if subtype == "mcp_toggle":
            name = str(request.get("serverName") or "")
            (self.disabled.discard if request.get("enabled") else self.disabled.add)(name)
            return {}
        if subtype == "apply_flag_settings":
            permissions = (request.get("settings") or {}).get("permissions") or {}
            for behaviour in self.flag_rules:
                self.flag_rules[behaviour] = [str(r) for r in permissions.get(behaviour) or []]
            return {}
        if subtype in _CHANGES:
            return {}
        if subtype in ("reload_plugins", "reload_skills"):
            return {"commands": [], "agents": [], "plugins": [], "mcpServers": [], "error_count": 0} \
                if subtype == "reload_plugins" else {"skills": []}
        recorded = _recorded().get(subtype)
        if recorded is None:
            return None
        payload = copy.deepcopy(recorded)
        if subtype == "mcp_status":
            for server in payload.get("mcpServers") or []:
                if server.get("name") in self.disabled:
                    server["status"] = "disabled"
                    server.pop("tools", None)
        if subtype == "list_permission_rules":
            added = [{"behavior": b, "source": _LAYER, "rule": r, "editability": "readonly"}
                     for b, rules in self.flag_rules.items() for r in rules]
            payload["state"]["rules"] = added + payload["state"]["rules"]
        return payload
