"""What claude-tui asks the CLI about the things it manages (MCP servers, context, limits,
permission rules, hooks, the session's name, plugins and skills), and the answers, typed.

Shapes are the CLI's own SDK types (`@anthropic-ai/claude-agent-sdk` 0.3.330, `sdk.d.ts`,
built for Claude Code 2.1.330), checked against the recordings in
tests/fixtures/claude-code-2.1.330/manage-*.ndjson. Every answer model is lenient: a field a
later CLI changes is dropped, never fatal (`parse_answer`). Which CLI has which request:
`versions.manage_support`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import Field, ValidationError

from .base import ProtoModel
from .builders import control_request
from .lenient import repair

__all__ = [
    "mcp_status", "mcp_toggle", "mcp_reconnect", "get_context_usage", "get_usage", "list_permission_rules",
    "get_hooks_listing", "rename_session", "reload_plugins", "reload_skills", "apply_permission_rules",
    "McpTool", "McpResource", "McpServer", "McpStatus", "ContextCategory", "ContextUsage", "NamedTokens", "UsageWindow",
    "Usage", "RuleDescription", "PermissionRule", "PermissionRules", "HookEvent", "HookRow", "HooksListing",
    "ReloadedPlugins", "ReloadedSkills", "parse_answer",
]


# -- requests -------------------------------------------------------------------------------

def mcp_status(request_id: str | None = None) -> dict[str, Any]:
    return control_request("mcp_status", request_id)


def mcp_toggle(server: str, enabled: bool, request_id: str | None = None) -> dict[str, Any]:
    return control_request("mcp_toggle", request_id, serverName=server, enabled=enabled)


def mcp_reconnect(server: str, request_id: str | None = None) -> dict[str, Any]:
    return control_request("mcp_reconnect", request_id, serverName=server)


def get_context_usage(summary: bool = False, request_id: str | None = None) -> dict[str, Any]:
    """`summary` answers from the last response and local estimates (no token-count calls)."""
    return control_request("get_context_usage", request_id, **({"detail": "summary"} if summary else {}))


def get_usage(request_id: str | None = None) -> dict[str, Any]:
    # The behaviours section scans a week of transcripts; the limits panel does not show it.
    return control_request("get_usage", request_id, skip_behaviors=True)


def list_permission_rules(request_id: str | None = None) -> dict[str, Any]:
    return control_request("list_permission_rules", request_id)


def get_hooks_listing(request_id: str | None = None) -> dict[str, Any]:
    return control_request("get_hooks_listing", request_id)


def rename_session(title: str, session_id: str | None = None, request_id: str | None = None) -> dict[str, Any]:
    """`source: host`: the CLI counts it as the user's own rename (its picker shows it)."""
    fields: dict[str, Any] = {"title": title, "source": "host"}
    if session_id:
        fields["session_id"] = session_id
    return control_request("rename_session", request_id, **fields)


def reload_plugins(request_id: str | None = None) -> dict[str, Any]:
    return control_request("reload_plugins", request_id)


def reload_skills(request_id: str | None = None) -> dict[str, Any]:
    return control_request("reload_skills", request_id)


def apply_permission_rules(allow: list[str], deny: list[str], ask: list[str],
                           request_id: str | None = None) -> dict[str, Any]:
    """The session's own rules, through the CLI's flag-settings layer (`apply_flag_settings`).

    The CLI has no request that edits a settings file's rules (`update_settings` takes only
    outputStyle and effortLevel), so claude-tui adds rules for this session only, where the CLI
    keeps them (source `flagSettings`), and never writes a file. Each call sends the whole lists:
    the layer keeps what it is given last, so a rule left out is removed.
    """
    return control_request("apply_flag_settings", request_id,
                           settings={"permissions": {"allow": allow, "deny": deny, "ask": ask}})


# -- answers ---------------------------------------------------------------------------------

class McpTool(ProtoModel):
    name: str = ""
    description: str | None = None
    annotations: dict[str, Any] | None = None


class McpResource(ProtoModel):
    uri: str = ""
    name: str | None = None
    description: str | None = None


class McpServer(ProtoModel):
    name: str = ""
    status: str = "pending"
    """connected | failed | needs-auth | pending | disabled (a later CLI may add one)."""
    error: str | None = None
    server_info: dict[str, Any] | None = Field(None, alias="serverInfo")
    config: dict[str, Any] | None = None
    scope: str | None = None
    source: str | None = None
    transport: str | None = None
    tools: list[McpTool] = Field(default_factory=list)
    resources: list[McpResource] | None = None
    """Not in 2.1.330's answer (nor any request of it: `mcp_read_resource` reads only `ui://` pages);
    read if a later CLI adds it. None: not reported, which the screen says."""

    @property
    def url(self) -> str | None:
        """Where an HTTP/SSE server lives (what a needs-auth server is authenticated against)."""
        value = (self.config or {}).get("url")
        return value if isinstance(value, str) else None


class McpStatus(ProtoModel):
    servers: list[McpServer] = Field(default_factory=list, alias="mcpServers")


class ContextCategory(ProtoModel):
    id: str | None = None
    name: str = ""
    tokens: int = 0
    color: str = ""
    kind: str = "used"
    """used | free | buffer | deferred."""


class NamedTokens(ProtoModel):
    """One item of a category (a memory file, an MCP tool, a system tool, an agent, a skill)."""

    name: str = ""
    tokens: int = 0
    path: str | None = None
    server_name: str | None = Field(None, alias="serverName")
    agent_type: str | None = Field(None, alias="agentType")

    @property
    def label(self) -> str:
        if self.server_name and self.name:
            return f"{self.name} ({self.server_name})"
        return self.name or self.agent_type or self.path or "?"


class ContextUsage(ProtoModel):
    categories: list[ContextCategory] = Field(default_factory=list)
    total_tokens: int = Field(0, alias="totalTokens")
    max_tokens: int = Field(0, alias="maxTokens")
    percentage: float = 0
    model: str = ""
    memory_files: list[NamedTokens] = Field(default_factory=list, alias="memoryFiles")
    mcp_tools: list[NamedTokens] = Field(default_factory=list, alias="mcpTools")
    system_tools: list[NamedTokens] = Field(default_factory=list, alias="systemTools")
    agents: list[NamedTokens] = Field(default_factory=list)
    auto_compact_threshold: int | None = Field(None, alias="autoCompactThreshold")
    is_auto_compact_enabled: bool = Field(False, alias="isAutoCompactEnabled")
    skills: dict[str, Any] | None = None
    message_breakdown: dict[str, Any] | None = Field(None, alias="messageBreakdown")

    def largest(self, n: int = 6) -> list[tuple[str, str, int]]:
        """The n biggest named items: (what, name, tokens), biggest first."""
        items = [("memory", m.path or m.name, m.tokens) for m in self.memory_files]
        items += [("MCP tool", t.label, t.tokens) for t in self.mcp_tools]
        items += [("tool", t.label, t.tokens) for t in self.system_tools]
        items += [("agent", a.label, a.tokens) for a in self.agents]
        for skill in (self.skills or {}).get("skillFrontmatter") or ():
            if isinstance(skill, dict):
                items.append(("skill", str(skill.get("name") or "?"), _int(skill.get("tokens"))))
        for call in (self.message_breakdown or {}).get("toolCallsByType") or ():
            if isinstance(call, dict):
                items.append(("tool calls", str(call.get("name") or "?"),
                              _int(call.get("callTokens")) + _int(call.get("resultTokens"))))
        return sorted((i for i in items if i[2] > 0), key=lambda i: -i[2])[:n]


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


class UsageWindow(ProtoModel):
    utilization: float | None = None
    resets_at: str | None = None


class Usage(ProtoModel):
    session: dict[str, Any] = Field(default_factory=dict)
    subscription_type: str | None = None
    rate_limits_available: bool = False
    rate_limits: dict[str, UsageWindow | None] | None = None

    def windows(self) -> list[tuple[str, UsageWindow]]:
        """The limits the account has, named as Claude Code names them, in its order."""
        names = {"five_hour": "5-hour limit", "seven_day": "Weekly limit (all models)",
                 "seven_day_opus": "Weekly limit (Opus)", "seven_day_sonnet": "Weekly limit (Sonnet)",
                 "seven_day_oauth_apps": "Weekly limit (apps)"}
        found = self.rate_limits or {}
        return [(label, w) for key, label in names.items() if isinstance(w := found.get(key), UsageWindow)]


class RuleDescription(ProtoModel):
    """The CLI's plain-language reading of a rule: `prefix` + `emphasis` (+ `suffix`)."""

    prefix: str = ""
    emphasis: str = ""
    suffix: str = ""

    @property
    def text(self) -> str:
        return f"{self.prefix}{self.emphasis}{self.suffix}"


class PermissionRule(ProtoModel):
    behavior: str = "allow"
    source: str = ""
    rule: str = ""
    description: RuleDescription | None = None
    editability: str = "readonly"
    not_in_effect: bool = Field(False, alias="notInEffect")


class PermissionRules(ProtoModel):
    rules: list[PermissionRule] = Field(default_factory=list)
    workspace_directories: list[dict[str, Any]] = Field(default_factory=list, alias="workspaceDirectories")
    original_cwd: str = Field("", alias="originalCwd")
    managed_only: bool = Field(False, alias="managedOnly")

    @classmethod
    def from_answer(cls, payload: object) -> PermissionRules:
        state = payload.get("state") if isinstance(payload, dict) else None
        return parse_answer(cls, state)


class HookEvent(ProtoModel):
    name: str = ""
    summary: str = ""
    supports_matcher: bool = Field(False, alias="supportsMatcher")
    hook_count: int = Field(0, alias="hookCount")


class HookRow(ProtoModel):
    event: str = ""
    matcher: str = ""
    source: str = ""
    source_label: str = Field("", alias="sourceLabel")
    type: str = ""
    display_text: str = Field("", alias="displayText")
    command_text: str = Field("", alias="commandText")
    content_label: str = Field("", alias="contentLabel")
    timeout: float | None = None
    disabled: bool = False


class HooksListing(ProtoModel):
    events: list[HookEvent] = Field(default_factory=list)
    hooks: list[HookRow] = Field(default_factory=list)
    policy: dict[str, Any] = Field(default_factory=dict)


class ReloadedPlugins(ProtoModel):
    commands: list[dict[str, Any]] = Field(default_factory=list)
    plugins: list[dict[str, Any]] = Field(default_factory=list)
    mcp_servers: list[McpServer] = Field(default_factory=list, alias="mcpServers")
    error_count: int = 0


class ReloadedSkills(ProtoModel):
    skills: list[dict[str, Any]] = Field(default_factory=list)


M = TypeVar("M", bound=ProtoModel)


def parse_answer(model: type[M], payload: object) -> M:
    """The answer as `model`; bad fields dropped (never raises: an empty model at worst)."""
    if not isinstance(payload, dict):
        return model()
    try:
        return model.model_validate(payload)
    except ValidationError as error:
        fixed = repair(model, payload, model.model_validate, error)
        return fixed[0] if fixed is not None else model()
