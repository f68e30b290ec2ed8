"""A command's Markdown output (/context and others write headings and tables), as SafeMarkdown.

Its own module: SafeMarkdown brings Textual's Markdown widget and markdown-it, which the first
screen does not need (see markdown_part.py); the log imports this when such an output comes.
"""

from __future__ import annotations

from claude_tui.protocol.sanitize import printable
from claude_tui.session.items import NoteItem
from claude_tui.ui.log.items import COMMAND_OUTPUT_RULES
from claude_tui.ui.render.safe_markdown import SafeMarkdown


class CommandOutput(SafeMarkdown):
    """Output of /context and other commands that write Markdown (headings, tables)."""

    DEFAULT_CSS = f"CommandOutput {{{COMMAND_OUTPUT_RULES}}}"

    def __init__(self, item: NoteItem) -> None:
        super().__init__(printable(item.text), classes="note note-local-command")
        self.item = item

    async def refresh_from(self, item: NoteItem) -> None:
        self.item = item
        await self.update(printable(item.text))


