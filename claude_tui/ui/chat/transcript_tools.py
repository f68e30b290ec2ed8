"""Copying from and exporting a conversation: what the chat view's copy and export commands do.

No widget: these take the conversation and an app (or a node of it) to copy with or notify through.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from textual.app import App
from textual.widget import Widget

from claude_tui import paths
from claude_tui.protocol.sanitize import clipboard_text, printable
from claude_tui.session.conversation import Conversation
from claude_tui.session.export import code_blocks, item_text, last_answer, to_json, to_markdown, tool_output
from claude_tui.session.items import Item, NoteItem, TextItem, ThinkingItem, ToolItem, UserItem


def item_by_id(conversation: Conversation, item_id: str) -> Item | None:
    for item in reversed(conversation.items):
        if item.id == item_id:
            return item
    return None


def describe_item(item: Item) -> str:
    """A one-line label for a selected item."""
    if isinstance(item, UserItem):
        kind, text = "You", item.text
    elif isinstance(item, TextItem):
        kind, text = "Claude", item.text
    elif isinstance(item, ThinkingItem):
        kind, text = "Thinking", item.text
    elif isinstance(item, ToolItem):
        kind, text = f"Tool {item.name}", item_text(item)
    elif isinstance(item, NoteItem):
        kind, text = "Note", item_text(item)
    else:
        kind, text = "Item", ""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return printable(f"{kind}: {first[:100]}")


def copy_text(app: App[Any], text: str, what: str) -> bool:
    # What the clipboard will hold (App.copy_to_clipboard cleans every copy): count that.
    text = clipboard_text(text)
    if not text:
        app.notify(f"Nothing to copy: {what} is empty.", severity="warning")
        return False
    app.copy_to_clipboard(text)
    lines = text.count("\n") + 1
    app.notify(f"Copied {what} ({len(text):,} characters, {lines:,} line{'s' if lines != 1 else ''}).", timeout=3)
    return True


class Copier:
    """Copies a conversation's messages; remembers which code block of a message was copied last."""

    def __init__(self, node: Widget, conversation: Conversation) -> None:
        self.node = node
        """The session's view: its app copies and tells (read when it does, not at construction)."""
        self.conversation = conversation
        self._code_cycle: tuple[str, int] = ("", 0)

    def last_answer(self) -> None:
        answer = last_answer(self.conversation.items)
        if answer is None:
            self.node.app.notify("No answer to copy yet.", severity="warning")
            return
        copy_text(self.node.app, answer.text, "the last answer")

    def item(self, item_id: str, what: str) -> None:
        item = item_by_id(self.conversation, item_id)
        if item is None:
            return
        if what == "code":
            blocks = code_blocks(item.text if isinstance(item, (TextItem, UserItem)) else "")
            if not blocks:
                self.node.app.notify("This message has no code block.", severity="warning")
                return
            last_id, last_index = self._code_cycle
            index = (last_index + 1) % len(blocks) if last_id == item_id else 0
            self._code_cycle = (item_id, index)
            copy_text(self.node.app, blocks[index], f"code block {index + 1} of {len(blocks)}")
        elif what == "output":
            if not isinstance(item, ToolItem):
                self.node.app.notify("Only tool calls have an output.", severity="warning")
                return
            copy_text(self.node.app, tool_output(item), f"the {item.name} output")
        else:
            copy_text(self.node.app, item_text(item), "the message")


def export_transcript(app: App[Any], conversation: Conversation, cwd: str | None, fmt: str = "md") -> Path | None:
    if not conversation.items:
        app.notify("Nothing to export yet.", severity="warning")
        return None
    status = conversation.status
    text = to_json(conversation.items, status) if fmt == "json" else to_markdown(conversation.items, status)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    name = f"claude-session-{status.short_session_id or 'new'}-{stamp}.{'json' if fmt == 'json' else 'md'}"
    project = Path(cwd or ".")
    for folder in (project, paths.data_path() / "exports"):
        target = folder / name
        try:
            # The project folder keeps its own permissions; our fallback dir stays private.
            paths.atomic_write_text(target, text, private=folder != project)
        except OSError:
            continue
        app.notify(f"Exported the transcript to {printable(str(target.resolve()))}", timeout=8)
        return target
    app.notify("Could not write the export file.", severity="error")
    return None
