"""The card of a `!command` the user ran: the command, its output's last lines, how it ended."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from claude_tui.protocol.sanitize import printable, printable_name
from claude_tui.session.items import ShellItem

SHOWN_LINES = 30
"""The card shows this many last lines (the whole output still goes to Claude, bounded there)."""


class ShellCard(Static):
    DEFAULT_CSS = """
    ShellCard {
        margin: 1 0 0 0;
        padding: 0 1;
        border-left: outer $warning;
    }
    """

    def __init__(self, item: ShellItem) -> None:
        super().__init__(classes="shell-card")
        self.item = item

    def on_mount(self) -> None:
        self.refresh_from(self.item)

    def refresh_from(self, item: ShellItem) -> None:
        out = Text("! ", style="bold")
        out.append(printable_name(item.command), style="bold")
        lines = item.text.splitlines()
        if len(lines) > SHOWN_LINES:
            out.append(f"\n  … {len(lines) - SHOWN_LINES} earlier lines", style="dim")
        for line in lines[-SHOWN_LINES:]:
            out.append("\n  " + printable(line))  # untrusted, like any tool's output: inert
        if item.running:
            out.append("\n  running… Ctrl+C stops it", style="dim italic")
        else:
            how = "stopped" if item.stopped else f"exit {item.exit_code}" if item.exit_code else "done"
            after = "sent to Claude with your prompt" if item.sent else "goes to Claude with your next prompt"
            out.append(f"\n  {how} · {after}", style="dim italic")
        self.update(out)
