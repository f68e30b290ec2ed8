"""F1 / ?: keys (read from the bindings themselves), slash commands, tools, agents, skills, MCP, versions."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from claude_tui.protocol.sanitize import printable

# Keys handled inside widgets rather than by bindings.
_PROMPT_KEYS = [
    ("enter", "send the prompt"),
    ("ctrl+j / alt+enter / shift+enter", "new line in the prompt"),
    ("up / down (at the first/last line)", "walk prompt history"),
    ("/", "slash-command completion"),
    ("@", "file path completion"),
    ("tab", "accept a completion"),
]


def _binding_rows(bindings: list[Binding]) -> list[tuple[str, str]]:
    rows = []
    for binding in bindings:
        if isinstance(binding, Binding) and binding.description:
            rows.append((binding.key.replace(",", " / "), binding.description))
    return rows


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1,question_mark", "dismiss_help", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(self._content(), id="help-content")

    def _content(self) -> Table:
        from claude_tui.ui.screens.chat import ChatScreen

        app = self.app
        chat = getattr(app, "chat", None)
        outer = Table.grid(padding=(0, 2))
        outer.add_column()
        keys = Table(title="Keys", title_justify="left", show_header=False, box=None, padding=(0, 2))
        rows = _binding_rows(list(app.BINDINGS)) + _binding_rows(list(ChatScreen.BINDINGS)) + _PROMPT_KEYS
        for key, words in rows:
            keys.add_row(Text(key, style="bold"), Text(words))
        outer.add_row(keys)
        if chat is not None:
            conversation = chat.conversation
            status = conversation.status
            commands = Table(title="Slash commands", title_justify="left", show_header=False, box=None, padding=(0, 2))
            for command in conversation.commands:
                name = "/" + printable(str(command.get("name", "")))
                hint = printable(str(command.get("argumentHint", "")))
                description = printable(str(command.get("description", "")).splitlines()[0] if command.get("description") else "")
                commands.add_row(Text(f"{name} {hint}".strip(), style="bold"), Text(description[:120]))
            outer.add_row(commands)
            for title, values in (("Tools", status.tools), ("Agents", status.agents), ("Skills", status.skills)):
                if values:
                    outer.add_row(Text.assemble((f"{title}: ", "bold"), printable(", ".join(values))))
            if status.mcp_servers:
                servers = ", ".join(f"{printable(str(s.get('name')))} ({printable(str(s.get('status')))})"
                                    for s in status.mcp_servers)
                outer.add_row(Text.assemble(("MCP servers: ", "bold"), servers))
            outer.add_row(Text.assemble(("Claude Code: ", "bold"), printable(status.cli_version or "unknown"),
                                        ("   claude-tui: ", "bold"), getattr(app, "version", "")))
        return outer

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
