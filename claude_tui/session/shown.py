"""The one bound on what the log shows of any one text: a prompt, a thinking block, a note, a tool's
input or output. Answers stream into their own widget with its own cut (`assistant_text.MAX_SHOWN`);
everything else is cut here, at :data:`SHOWN_CHARS`, with a line saying how much more there is.

The items keep the whole text: a tool's input is what a permission answer sends back, and copy and
export give everything. Only what is drawn is cut: laid out and wrapped, a 50 MB one-line prompt
was half a million rows (14 s per key, 1 GB).
"""

from __future__ import annotations

from typing import Any

SHOWN_CHARS = 30_000


def more_note(hidden: int) -> str:
    return f"… {hidden:,} more characters not shown (copy or export has the whole text)"


def shown(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` as drawn: whole up to ``limit`` characters, else its start and how much is left."""
    if len(text) <= limit:
        return text
    return text[:limit] + "\n" + more_note(len(text) - limit)


def shown_value(value: Any, limit: int = SHOWN_CHARS) -> Any:
    """``value`` (a tool input: JSON data) with every string in it :func:`shown`; at most ``limit``
    characters of strings in all, so a thousand big fields cannot add up to a big one."""
    budget = [limit]

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            keep = shown(node, max(budget[0], 0))
            budget[0] -= min(len(node), budget[0])
            return keep
        if isinstance(node, dict):
            return {key: walk(item) for key, item in node.items()}
        if isinstance(node, (list, tuple)):
            return [walk(item) for item in node]
        return node

    return walk(value)
