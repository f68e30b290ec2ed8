"""Fenced code blocks drawn exactly as Rich's `Syntax` draws them, at a fraction of the cost.

Rich's Markdown draws a fence as `Syntax(code, lexer, theme, word_wrap=True, padding=1)` (we use
no blank rows above and below, `PADDING`): a Syntax object per
block, which builds one highlighted `Text`, splits it into lines, renders every line through its
own `Console.render_lines` (wrap, justify, pad), restyles each segment, then hands the lot to a
`Padding` that splits, crops and restyles it once more. In an answer full of short blocks that was
~40 % of all rendering (~1 ms a block, whatever its size).

`HighlightedCode` yields the same segments, styles and line breaks by a direct route: the lexer and
theme are looked up once per name, each token's final style once per theme, and a code line that
fits the width becomes its segments at once (a margin, one segment per token, the padding, a
margin). Only a line that must wrap still goes through Rich's own wrapping, so a wrapped line is
cut where Rich cuts it. Anything the direct route does not model (a theme without a background,
a fixed height, no room for the margins) is drawn by `Syntax` itself.
`tests/unit/test_code_block.py` renders many blocks both ways at several widths and compares them
segment by segment.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.token import _TokenType
from pygments.util import ClassNotFound
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.control import strip_control_codes
from rich.segment import Segment
from rich.style import Style
from rich.syntax import Syntax, SyntaxTheme
from rich.text import Text

TAB_SIZE = 4
"""Rich's default for `Syntax`, which Rich's Markdown keeps."""
MARGIN = 1
"""One blank cell left and right of the code, inside its background."""
PADDING = (0, MARGIN)
"""No blank rows above and below (Rich's Markdown uses `padding=1`): with the blank line Markdown
puts between blocks they made three rows of space around each block; one, as Claude Code shows."""


@lru_cache(maxsize=64)
def lexer_for(name: str) -> Lexer:
    """The lexer `Syntax` would pick for a fence's language (plain text when unknown)."""
    try:
        return get_lexer_by_name(name, stripnl=False, ensurenl=True, tabsize=TAB_SIZE)
    except ClassNotFound:
        return get_lexer_by_name("text", stripnl=False, ensurenl=True, tabsize=TAB_SIZE)


class Palette:
    """One theme's styles as the finished segments carry them, each worked out once."""

    def __init__(self, theme: SyntaxTheme) -> None:
        self.theme = theme
        self.background = theme.get_background_style()
        self._tokens: dict[_TokenType, Style] = {}
        # The styles pile up as Rich builds them: the highlighted Text (no style, then the line's
        # background, then the token's), `render_lines(style=background)`, then the Padding's style.
        self.fill = self._through_padding(Style.combine([Style.null(), self.background]))

    def _through_padding(self, style: Style) -> Style:
        background = self.background
        return background + (background + style)

    def token(self, token_type: _TokenType) -> Style:
        style = self._tokens.get(token_type)
        if style is None:
            own = self.theme.get_style_for_token(token_type)
            style = self._tokens[token_type] = self._through_padding(
                Style.combine([Style.null(), self.background, own]))
        return style


@lru_cache(maxsize=8)
def palette_for(theme_name: str) -> Palette:
    return Palette(Syntax.get_theme(theme_name))


class HighlightedCode:
    """A code block: what `Syntax(code, lexer_name, theme=theme, word_wrap=True, padding=PADDING)` draws."""

    def __init__(self, code: str, lexer_name: str, theme: str) -> None:
        self.code = code
        self.lexer_name = lexer_name
        self.theme = theme

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        palette = palette_for(self.theme)
        width = options.max_width
        if palette.background.transparent_background or options.height is not None or width <= 2 * MARGIN:
            yield Syntax(self.code, lexer_for(self.lexer_name), theme=palette.theme, word_wrap=True,
                         padding=PADDING)
            return
        yield from self._segments(console, options, palette, width)

    def _segments(self, console: Console, options: ConsoleOptions, palette: Palette,
                  width: int) -> Iterator[Segment]:
        background = palette.background
        code_width = width - 2 * MARGIN
        margin = Segment(" " * MARGIN, background)
        new_line = Segment.line()
        wrap_options: ConsoleOptions | None = None
        for tokens in self._lines():
            cells = sum(cell_len(text) for text, _ in tokens)
            if cells <= code_width:
                yield margin
                for text, token_type in tokens:
                    yield Segment(text, palette.token(token_type))
                if cells < code_width:
                    yield Segment(" " * (code_width - cells), palette.fill)
                yield margin
                yield new_line
                continue
            # Too long: wrapped by Rich itself, on the line Syntax would have built.
            if wrap_options is None:
                wrap_options = options.update(width=code_width, height=None, justify="left")
            line = Text(style=background, justify="left")
            for text, token_type in tokens:
                line.append(text, palette.theme.get_style_for_token(token_type))
            for row in console.render_lines(line, wrap_options, style=background, pad=True):
                yield margin
                for segment in row:
                    yield Segment(segment.text, background + segment.style)
                yield margin
                yield new_line

    def _lines(self) -> Iterator[list[tuple[str, _TokenType]]]:
        """The code's lines as (text, token type) pairs, from the lexer's tokens as Syntax reads them."""
        code = self.code if self.code.endswith("\n") else self.code + "\n"
        line: list[tuple[str, _TokenType]] = []
        for token_type, text in lexer_for(self.lexer_name).get_tokens(code.expandtabs(TAB_SIZE)):
            text = strip_control_codes(text)  # as Text.append_tokens does
            while "\n" in text:
                head, _, text = text.partition("\n")
                if head:
                    line.append((head, token_type))
                yield line
                line = []
            if text:
                line.append((text, token_type))
        # The lexer ends the code with a line break; Syntax drops the empty line after it.
