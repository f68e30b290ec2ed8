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
from rich.markdown import CodeBlock, Heading, ListElement, TableElement
from rich.markdown import Markdown as RichMarkdown
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from claude_tui.ui.render.code_block import HighlightedCode
from claude_tui.ui.render.markdown_part import LinkTable, MarkdownPart
from claude_tui.ui.render.safe_markdown import safe_parser

_PARSER = safe_parser()


class LeftHeading(Heading):
    """Headings start at the left, as in the rest of the app (Rich centres a level-1 heading)."""

    LEVEL_ALIGN = dict.fromkeys(Heading.LEVEL_ALIGN, "left")


class FastCodeBlock(CodeBlock):
    """A fenced block drawn as Rich draws it, without a `Syntax` per block (see `code_block.py`)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield HighlightedCode(str(self.text).rstrip(), self.lexer_name, self.theme)


class NumberedList(ListElement):
    """Rich draws a numbered item as `1 first`; Markdown writes, and Claude Code shows, `1. first`.
    Numbers are right-aligned after one space (as bullets are), counted from the source's start."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.list_type != "ordered_list_open":
            yield from super().__rich_console__(console, options)
            return
        first = 1 if self.list_start is None else self.list_start
        label_width = len(str(first + len(self.items) - 1)) + 1  # the widest number and its period
        indent = label_width + 2
        number_style = console.get_style("markdown.item.number", default="none")
        padding = Segment(" " * indent, number_style)
        new_line = Segment("\n")
        for index, item in enumerate(self.items):
            numeral = Segment(f" {f'{first + index}.'.rjust(label_width)} ", number_style)
            lines = console.render_lines(item.elements, options.update(width=options.max_width - indent),
                                         style=item.style)
            for row, line in enumerate(lines):
                yield padding if row else numeral
                yield from line
                yield new_line


class TightTable(TableElement):
    """Rich's table without its top and bottom edges, which its box draws as rows of spaces: with the
    blank line between blocks they made three blank rows around each table; one, as Claude Code shows."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment("\n")
        for table in super().__rich_console__(console, options):
            if isinstance(table, Segment):
                yield table
                continue
            lines = console.render_lines(table, options, pad=False)
            if len(lines) > 2 and _blank(lines[0]) and _blank(lines[-1]):
                lines = lines[1:-1]
            for line in lines:
                yield from line
                yield new_line


def _blank(line: list[Segment]) -> bool:
    return not "".join(segment.text for segment in line).strip()


class InertMarkdown(RichMarkdown):
    """Rich's Markdown parsed by our safe parser instead of its own.

    One fix to Rich's spacing: it puts a blank line before a block when the block *just closed*
    asks for one, and inside a list, a table or a quote that is the block's own last paragraph,
    so a document that starts with one of those started with a blank line. It is dropped here and
    remembered (`blank_first`): a segment of an answer starting so needs it between it and the last.
    """

    elements = {**RichMarkdown.elements, "heading_open": LeftHeading, "fence": FastCodeBlock,
                "code_block": FastCodeBlock, "ordered_list_open": NumberedList, "bullet_list_open": NumberedList,
                "table_open": TightTable}
    blank_first = False

    def __init__(self, markup: str, code_theme: str = "monokai") -> None:
        # Rich's own __init__ builds a MarkdownIt parser per document (most of the cost of a short
        # one): take its settings from one made at import, and parse with the shared safe parser.
        self.__dict__.update(_DEFAULTS)
        self.markup = markup
        self.code_theme = code_theme
        self.parsed = _PARSER.parse(markup)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rendered = iter(super().__rich_console__(console, options))
        first = next(rendered, None)
        # Every block's own drawing starts with text or a styled cell; a bare line break first is
        # the blank line Rich adds before a block (only ever there, at the start, by the quirk above).
        if isinstance(first, Segment) and first.text == "\n" and first.style is None and not first.control:
            self.blank_first = True
        elif first is not None:
            yield first
        yield from rendered

    def blank_line_before(self) -> bool | None:
        """Whether a render of a longer text puts a blank line before this one (which follows a
        block there). A list, a table or a quote decides it itself (`blank_first`); before a
        paragraph, a heading, code or a rule it depends on the block before (None)."""
        tokens = self.parsed
        if tokens and tokens[0].nesting == 1 and tokens[0].type not in ("paragraph_open", "heading_open"):
            return self.blank_first
        return None

    def ends_with_rule(self) -> bool:
        """Rich puts no blank line after a horizontal rule."""
        return bool(self.parsed) and self.parsed[-1].type == "hr"


_DEFAULTS = {name: value for name, value in vars(RichMarkdown("", hyperlinks=True)).items()
             if name not in ("markup", "parsed")}


def _inert_segments(segments: Iterable[Segment], links: LinkTable, action: str) -> list[Segment]:
    out: list[Segment] = []
    for segment in segments:
        style = segment.style
        if style is not None and style.link:
            style = style.clear_meta_and_links() + Style.from_meta({"@click": f"{action}({links.number(style.link)})"})
            segment = Segment(segment.text, style)
        out.append(segment)
    return out


def render_part(source: str, width: int, console: Console, options: ConsoleOptions, base: Style,
                links: LinkTable, action: str = "open_link", dark: bool = True) -> MarkdownPart:
    """`source` (already printable) as lines `width` cells wide, on the `base` style."""
    if not source.strip() or width <= 0:
        return MarkdownPart([], None, False)
    markdown = InertMarkdown(source, "monokai" if dark else "default")
    lines = console.render_lines(markdown, options.update(width=width, highlight=False),
                                 style=base, pad=False)
    return MarkdownPart([Strip(_inert_segments(line, links, action)) for line in lines],
                        markdown.blank_line_before(), markdown.ends_with_rule())


def render_markdown(source: str, width: int, console: Console, options: ConsoleOptions, base: Style,
                    links: LinkTable, action: str = "open_link", dark: bool = True) -> list[Strip]:
    """`source` (already printable) as lines `width` cells wide, on the `base` style."""
    return render_part(source, width, console, options, base, links, action, dark).lines


WARM_UP_SAMPLE = """# Title

Some **bold** and `code` text with a link https://example.com and a list:

1. first
- bullet

```python
def f(x: int) -> int:
    return x * 2  # comment
```

```bash
echo "$HOME" | wc -c
```

```json
{"a": [1, 2]}
```

| a | b |
|---|--:|
| 1 | 2 |

> quoted
"""


def warm_up() -> None:
    """Render a sample once, off the UI thread, while nothing is asked of it yet (the first
    screen is up, the CLI starting). The first code block of a language built its lexer's
    regular expressions (~70 ms for Python), and Markdown's own rules and linkify compiled theirs,
    on the path from Enter to the first answer painted."""
    console = Console(width=80, color_system="truecolor", force_terminal=True, legacy_windows=False)
    for dark in (True, False):
        render_markdown(WARM_UP_SAMPLE, 80, console, console.options, Style(), LinkTable(), dark=dark)
