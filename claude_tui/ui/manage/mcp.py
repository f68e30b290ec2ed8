"""`/mcp`: every MCP server the session has, its state and tools; turn one off or on, reconnect it.

States as the CLI reports them (`mcp_status`): connected, failed (with the reason), needs-auth
(with the address to sign in at, for an HTTP/SSE server), pending, disabled. A server's resources
are not in the CLI's answer (2.1.330 has no request that lists them: `mcp_read_resource` reads only
an MCP App's `ui://` page), so the screen says so and how to see them; listed if a CLI reports them. Space turns the
highlighted server off or on (`mcp_toggle`), r reconnects it (`mcp_reconnect`); each change is
sent through the CLI, which keeps it for this session, and the list is asked for again after it.
Server names, tool names and descriptions are the servers' own words: shown inert.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from claude_tui.protocol import manage
from claude_tui.protocol.sanitize import one_line, printable, printable_name
from claude_tui.ui.manage.base import ManageScreen
from claude_tui.ui.manage.rows import RowList

__all__ = ["NO_RESOURCES", "McpScreen", "server_line", "server_details"]

_MARKS = {"connected": "●", "failed": "✗", "needs-auth": "!", "pending": "…", "disabled": "○"}
_STYLES = {"connected": "$text-success", "failed": "$text-error", "needs-auth": "$text-warning",
           "pending": "$text-muted", "disabled": "$text-muted"}
_WORDS = {"connected": "connected", "failed": "failed", "needs-auth": "needs authentication",
          "pending": "connecting", "disabled": "turned off"}


def server_line(server: manage.McpServer) -> str:
    state = _WORDS.get(server.status, printable_name(server.status))
    tools = f" · {len(server.tools)} tool{'s' * (len(server.tools) != 1)}" if server.status == "connected" else ""
    where = f" · {printable_name(server.source or server.scope or '')}" if server.source or server.scope else ""
    return f"{_MARKS.get(server.status, '?')} {printable_name(server.name)}  {state}{tools}{where}"


def server_details(server: manage.McpServer) -> str:
    lines = [f"{printable_name(server.name)}: {_WORDS.get(server.status, printable_name(server.status))}"]
    if server.status == "failed":
        lines.append(f"Why: {one_line(server.error or 'no reason given')}")
    if server.status == "needs-auth":
        url = server.url
        lines.append(f"Sign in to use it: open {printable(url)}" if url else
                     "It needs you to sign in; Claude Code gives no address for it here.")
        lines.append("Then press r to reconnect.")
    if server.status == "disabled":
        lines.append("Turned off for this session: Space turns it on.")
    info = server.server_info or {}
    if info.get("name"):
        version = printable_name(str(info.get("version") or ""))
        lines.append(f"Server: {printable_name(str(info.get('name')))} {version}".rstrip())
    config = server.config or {}
    if config.get("command"):
        args = " ".join(str(a) for a in config.get("args") or [])
        lines.append(f"Runs: {one_line(str(config['command']) + (' ' + args if args else ''))}")
    elif server.url:
        lines.append(f"At: {printable(server.url)}")
    if server.tools:
        lines.append("")
        lines.append("Tools:")
        for tool in server.tools:
            words = f" — {one_line(tool.description)[:160]}" if tool.description else ""
            lines.append(f"  {printable_name(tool.name)}{words}")
    elif server.status == "connected":
        lines.append("No tools.")
    if server.status == "connected":
        lines.append("")
        lines.extend(_resource_lines(server.resources))
    return "\n".join(lines)


def _resource_lines(resources: list[manage.McpResource] | None) -> list[str]:
    if resources is None:
        return [NO_RESOURCES]
    if not resources:
        return ["No resources."]
    lines = ["Resources:"]
    for resource in resources:
        name = f"{printable_name(resource.name)} " if resource.name else ""
        words = f" — {one_line(resource.description)[:160]}" if resource.description else ""
        lines.append(f"  {name}{printable_name(resource.uri)}{words}")
    return lines


NO_RESOURCES = ("Resources: not shown. Claude Code does not tell claude-tui a server's resources (its status lists "
                "tools only); Claude reads them with its ListMcpResourcesTool: ask it to list them.")


class McpScreen(ManageScreen):
    DEFAULT_CSS = """
    McpScreen #mcp-servers { height: auto; max-height: 12; }
    McpScreen #mcp-detail { height: auto; margin-top: 1; padding: 0 1; background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_server", "Off / on"),
        Binding("r", "reconnect", "Reconnect"),
    ]
    TITLE_TEXT = "MCP servers"
    REQUEST = "mcp_status"
    WHAT = "list MCP servers"
    KEYS = "↑↓ choose · Space turn off / on · r reconnect · F5 refresh · Esc close"

    @property
    def listing(self) -> RowList:
        return self.query_one("#mcp-servers", RowList)

    @property
    def servers(self) -> list[manage.McpServer]:
        return list(self.listing.rows)

    def compose_body(self) -> ComposeResult:
        yield RowList(id="mcp-servers")
        yield Static(Content(""), id="mcp-detail")

    def build(self) -> dict[str, Any]:
        return manage.mcp_status()

    def draw(self, answer: dict[str, Any]) -> None:
        servers = manage.parse_answer(manage.McpStatus, answer).servers
        self.listing.show_rows([Option(Content.assemble((server_line(s)[:1], _STYLES.get(s.status, "")),
                                                server_line(s)[1:])) for s in servers], list(servers),
                       focus=bool(servers))
        if not servers:
            self._detail("No MCP servers in this session. Add one with `claude mcp add`, a .mcp.json in "
                         "the project, or --mcp-config.")
            return
        self._show_highlighted()

    def _detail(self, text: str) -> None:
        self.query_one("#mcp-detail", Static).update(Content(text))

    @on(OptionList.OptionHighlighted, "#mcp-servers")
    def _show_highlighted(self) -> None:
        server = self.listing.current
        if server is not None:
            self._detail(server_details(server))

    def action_toggle_server(self) -> None:
        if not self.may_act("mcp_toggle", "turn MCP servers off or on") or (server := self.listing.current) is None:
            return
        enable = server.status == "disabled"
        name = printable_name(server.name)
        self.act(manage.mcp_toggle(server.name, enable), f"Turning {name} {'on' if enable else 'off'}",
                 f"{name} turned {'on' if enable else 'off'}")

    def action_reconnect(self) -> None:
        if not self.may_act("mcp_reconnect", "reconnect MCP servers") or (server := self.listing.current) is None:
            return
        name = printable_name(server.name)
        self.act(manage.mcp_reconnect(server.name), f"Reconnecting {name}", f"{name} reconnected")
