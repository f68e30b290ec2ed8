"""What a rendered piece of Markdown hands to the widgets that draw it, without the renderer.

`markdown_lines.py` renders (Rich's Markdown, markdown-it, Pygments: ~45 ms to import); the
widgets that draw its lines import these two from here, so that the app's first screen is painted
before any of that is loaded (the Markdown warm-up loads it in a thread right after).
"""

from __future__ import annotations

from typing import NamedTuple

from textual.strip import Strip


class LinkTable:
    """Addresses of the links a widget showed, numbered for click actions (same address, same number)."""

    def __init__(self) -> None:
        self.hrefs: list[str] = []
        self._ids: dict[str, int] = {}

    def number(self, href: str) -> int:
        found = self._ids.get(href)
        if found is None:
            found = self._ids[href] = len(self.hrefs)
            self.hrefs.append(href)
        return found


class MarkdownPart(NamedTuple):
    """One segment of a longer text, rendered alone, with what joining it to the others needs."""

    lines: list[Strip]
    blank_before: bool | None
    """See `InertMarkdown.blank_line_before`."""
    ends_with_rule: bool
