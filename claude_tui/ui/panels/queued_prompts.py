"""The prompts held until the turn ends, shown just above the prompt (see `ui/chat/prompt_queue.py`)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from claude_tui.protocol.sanitize import printable_name

_SHOWN = 3
"""At most this many held prompts get a row each; the rest are counted."""


class QueuedPrompts(Static):
    DEFAULT_CSS = """
    QueuedPrompts {
        height: auto;
        padding: 0 1;
        color: $text-muted;
        display: none;

        &.-held {
            display: block;
        }
    }
    """

    def show(self, texts: list[str]) -> None:
        self.set_class(bool(texts), "-held")
        out = Text()
        for text in texts[-_SHOWN:]:
            # One row per prompt: a held paste or a long prompt is cut by the width, not wrapped.
            out.append("❯ " + printable_name(text.strip().splitlines()[0] if text.strip() else ""), style="italic")
            out.append("\n")
        if len(texts) > _SHOWN:
            out.append(f"  … {len(texts) - _SHOWN} more\n", style="italic")
        out.append("  queued until the turn ends · ↑ on an empty prompt takes them back to edit", style="dim")
        out.no_wrap = True
        out.overflow = "ellipsis"
        self.update(out)
