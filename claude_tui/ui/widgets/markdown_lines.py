"""Untrusted Markdown rendered to lines once, for widgets that draw many of them cheaply.

Textual's `Markdown` widget mounts one widget per block: a 2,000-token answer becomes hundreds
of widgets, each styled and laid out on every frame. Here a piece of Markdown is rendered by
Rich's Markdown renderer straight to `Strip`s, once per width, and a widget only hands out
cached lines.

What stays as `SafeMarkdown` guarantees (see `safe_markdown.py`): the source went through
`printable()` before; the parser is the same `safe_parser()` (no character references
decoded, every token made printable again); and a link never opens on a click. Rich would
emit a link as an OSC 8 hyperlink, which a terminal opens by itself, so each link's style
is replaced by a click action that names the address by number; the widget then asks first
(`ask_to_open`).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import CodeBlock, Heading
from rich.markdown import Markdown as RichMarkdown
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from claude_tui.ui.widgets.code_block import HighlightedCode
from claude_tui.ui.widgets.safe_markdown import safe_parser

_PARSER = safe_parser()


class LeftHeading(Heading):
    """Headings start at the left, as in the rest of the app (Rich centres a level-1 heading)."""

    LEVEL_ALIGN = dict.fromkeys(Heading.LEVEL_ALIGN, "left")


class FastCodeBlock(CodeBlock):
    """A fenced block drawn as Rich draws it, without a `Syntax` per block (see `code_block.py`)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield HighlightedCode(str(self.text).rstrip(), self.lexer_name, self.theme)


class InertMarkdown(RichMarkdown):
    """Rich's Markdown parsed by our safe parser instead of its own."""

    elements = {**RichMarkdown.elements, "heading_open": LeftHeading, "fence": FastCodeBlock,
                "code_block": FastCodeBlock}

    def __init__(self, markup: str, code_theme: str = "monokai") -> None:
        # Rich's own __init__ builds a MarkdownIt parser per document (most of the cost of a short
        # one): take its settings from one made at import, and parse with the shared safe parser.
        self.__dict__.update(_DEFAULTS)
        self.markup = markup
        self.code_theme = code_theme
        self.parsed = _PARSER.parse(markup)


_DEFAULTS = {name: value for name, value in vars(RichMarkdown("", hyperlinks=True)).items()
             if name not in ("markup", "parsed")}


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


def _inert_segments(segments: Iterable[Segment], links: LinkTable, action: str) -> list[Segment]:
    out: list[Segment] = []
    for segment in segments:
        style = segment.style
        if style is not None and style.link:
            style = style.clear_meta_and_links() + Style.from_meta({"@click": f"{action}({links.number(style.link)})"})
            segment = Segment(segment.text, style)
        out.append(segment)
    return out


def render_markdown(source: str, width: int, console: Console, options: ConsoleOptions, base: Style,
                    links: LinkTable, action: str = "open_link", dark: bool = True) -> list[Strip]:
    """`source` (already printable) as lines `width` cells wide, on the `base` style."""
    if not source.strip() or width <= 0:
        return []
    markdown = InertMarkdown(source, "monokai" if dark else "default")
    lines = console.render_lines(markdown, options.update(width=width, highlight=False),
                                 style=base, pad=False)
    return [Strip(_inert_segments(line, links, action)) for line in lines]
