"""`/context`: what fills the context window, drawn as Claude Code draws it.

The window as a grid of squares (each a share of the window: ⛁ full, ⛀ partly, ⛶ free, ⛝ the
autocompact buffer), coloured by category, beside the categories with their tokens and share,
then the largest named items (memory files, MCP tools, tools, agents). From `get_context_usage`;
while the screen is open it asks again after each turn of its session.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from claude_tui.protocol import manage
from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.manage.base import ManageScreen

__all__ = ["ContextScreen", "context_text", "tokens"]

_PALETTE = ["#7aa2f7", "#9ece6a", "#e0af68", "#bb9af7", "#7dcfff", "#f7768e", "#ff9e64", "#73daca",
            "#c0caf5", "#2ac3de"]
_FREE, _BUFFER = "grey42", "grey58"


def tokens(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def _colours(usage: manage.ContextUsage) -> dict[str, str]:
    colours: dict[str, str] = {}
    for category in usage.categories:
        if category.kind == "free":
            colours[category.name] = _FREE
        elif category.kind == "buffer":
            colours[category.name] = _BUFFER
        else:
            colours[category.name] = _PALETTE[len(colours) % len(_PALETTE)]
    return colours


def _grid(usage: manage.ContextUsage, raw: dict[str, Any], colours: dict[str, str]) -> list[Text]:
    rows = raw.get("gridRows")
    kinds = {c.name: c.kind for c in usage.categories}
    lines: list[Text] = []
    if not isinstance(rows, list):
        return lines
    for row in rows[:20]:
        line = Text()
        for cell in row[:40] if isinstance(row, list) else ():
            if not isinstance(cell, dict):
                continue
            name = str(cell.get("categoryName") or "")
            kind = kinds.get(name, "used")
            fullness = cell.get("squareFullness")
            if kind == "free":
                glyph = "⛶"
            elif kind == "buffer":
                glyph = "⛝"
            else:
                glyph = "⛁" if not isinstance(fullness, (int, float)) or fullness >= 0.7 else "⛀"
            line.append(glyph + " ", style=colours.get(name, _FREE))
        lines.append(line)
    return lines


def context_text(raw: dict[str, Any]) -> Text:
    """The whole drawing, from the CLI's answer (names are the CLI's and the user's: inert)."""
    usage = manage.parse_answer(manage.ContextUsage, raw)
    colours = _colours(usage)
    legend: list[Text] = [Text.assemble(
        (printable_name(usage.model) or "Context", "bold"),
        f" · {tokens(usage.total_tokens)}/{tokens(usage.max_tokens)} tokens ({usage.percentage:g}%)")]
    legend.append(Text(""))
    window = max(usage.max_tokens, 1)
    for category in usage.categories:
        glyph = {"free": "⛶", "buffer": "⛝"}.get(category.kind, "⛁")
        share = 100 * category.tokens / window
        note = ", not loaded until used" if category.kind == "deferred" and "deferred" not in category.name else ""
        legend.append(Text.assemble((glyph + " ", colours.get(category.name, _FREE)),
                                    f"{printable_name(category.name)}: {tokens(category.tokens)} tokens "
                                    f"({share:.1f}%{note})"))
    grid = _grid(usage, raw, colours)
    out = Text()
    for index in range(max(len(grid), len(legend))):
        left = grid[index] if index < len(grid) else Text(" " * (2 * len(grid[0]) if grid else 0))
        out.append_text(left)
        out.append("   ")
        if index < len(legend):
            out.append_text(legend[index])
        out.append("\n")
    largest = usage.largest()
    if largest:
        out.append("\nLargest items\n", style="bold")
        for what, name, count in largest:
            out.append(f"  {tokens(count):>7}  {what}: {printable_name(name)}\n")
    if usage.auto_compact_threshold and usage.is_auto_compact_enabled:
        out.append(f"\nAutocompact at {tokens(usage.auto_compact_threshold)} tokens.\n", style="dim")
    return out


class ContextScreen(ManageScreen):
    TITLE_TEXT = "Context"
    REQUEST = "get_context_usage"
    WHAT = "show what fills the context window"
    TIMEOUT = 60

    def compose_body(self) -> ComposeResult:
        yield Static(Text(""), id="manage-content")

    def build(self) -> dict[str, Any]:
        return manage.get_context_usage()

    def draw(self, answer: dict[str, Any]) -> None:
        self.query_one("#manage-content", Static).update(context_text(answer))

    def turn_ended(self) -> None:
        if self.lacking is None:
            self._load()
