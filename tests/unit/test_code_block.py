"""The light code-block renderer draws exactly what Rich's `Syntax` draws.

Every sample is rendered by our Markdown (fences through `HighlightedCode`) and by the same
Markdown with a `Syntax(word_wrap=True, padding=PADDING)` per block, as Rich's `CodeBlock` makes
it, at several widths, in both code themes, and the lines are compared segment by segment: text,
style, control.
"""

from __future__ import annotations

import re

import pytest
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import CodeBlock
from rich.segment import Segment
from rich.style import Style

from claude_tui.protocol.sanitize import printable
from claude_tui.ui.render import code_block
from claude_tui.ui.render.markdown_lines import InertMarkdown

LONG_WORD = "x" * 150
SAMPLES = {
    "python": "```python\ndef f(a, b):\n    return a + b  # sum\n\nprint(f(1, 2))\n```\n",
    "rust": "```rust\nfn main() {\n    let v: Vec<String> = vec![];\n    println!(\"{}\", v.len());\n}\n```\n",
    "json info words": "```json title=x.json\n{\"a\": [1, 2, {\"b\": null}], \"c\": \"d\"}\n```\n",
    "bash": "```bash\nfor f in *.py; do echo \"$f\" | wc -c; done\n```\n",
    "diff": "```diff\n--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n```\n",
    "unknown language": "```nosuchlanguage\nsome text\nmore text\n```\n",
    "no language": "```\nplain\n  indented\n```\n",
    "tilde fence": "~~~js\nconst x = `a\nb`;\n~~~\n",
    "indented code": "para\n\n    indented code\n    second line\n\nafter\n",
    "empty": "```python\n```\n",
    "blank lines only": "```\n\n\n\n```\n",
    "leading and trailing blank lines": "```python\n\n\nx = 1\n\n\n```\n",
    "tabs": "```go\nfunc f() {\n\tif x {\n\t\treturn\t// t\n\t}\n}\n```\n",
    "trailing spaces": "```\nx = 1      \n   \n```\n",
    "multi-line string token": "```python\ns = '''one\ntwo\n    three'''\nt = 1\n```\n",
    "long line that wraps": "```python\n" + "value = " + " + ".join(f"name_{i}" for i in range(40)) + "\n```\n",
    "long word": f"```\n{LONG_WORD}\nshort\n{LONG_WORD} {LONG_WORD}\n```\n",
    "long string token": "```python\nx = '" + "abc " * 60 + "'\n```\n",
    "wide characters": "```\n漢字かなカナ " * 3 + "\n😀 emoji 👍🏽 and ｆｕｌｌｗｉｄｔｈ\n" + "界" * 70 + "\n```\n",
    "combining marks": "```\ne\u0301 a\u0308 zero\u200bwidth\n```\n",
    "control characters": "```\nred \x1b[31mRED\x1b[0m bell\x07 cr\rback\x08 \u202eevil\u202c nul\x00 c1\x9b\n```\n",
    "raw carriage returns": "```python\na = 1\r\nb = 2\rc = 3\n```\n",
    "in a list": "1. first\n\n   ```python\n   x = [i for i in range(100)]  # a comment long enough to wrap somewhere\n   ```\n\n2. second\n",
    "in a quote": "> quoted\n>\n> ```sh\n> echo hello there, this line is long enough to wrap in a quote\n> ```\n",
    "between paragraphs": "Before.\n\n```python\nprint('x')\n```\n\nAfter.\n\n```python\nprint('y')\n```\n",
    "unclosed fence": "```python\nx = 1\ny = 2\n",
    "html and entities": "```html\n<div class=\"a\">&amp; &#x202E; </div>\n```\n",
}
WIDTHS = [1, 2, 3, 4, 5, 8, 13, 20, 40, 79, 118, 200]


class SyntaxBlock(CodeBlock):
    """Rich's CodeBlock (a Syntax per block, the lexer looked up by name), with our padding."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield code_block.Syntax(str(self.text).rstrip(), self.lexer_name, theme=self.theme, word_wrap=True,
                                padding=code_block.PADDING)


class RichCodeBlocks(InertMarkdown):
    """The reference: the same Markdown, fences drawn by a Syntax per block."""

    elements = {**InertMarkdown.elements, "fence": SyntaxBlock, "code_block": SyntaxBlock}


def _lines(markdown: InertMarkdown, console: Console, width: int) -> list[list[Segment]]:
    options = console.options.update(width=width, highlight=False)
    return console.render_lines(markdown, options, style=Style(color="#e0e0e0", bgcolor="#101010"), pad=False)


@pytest.mark.parametrize("color_system", ["truecolor", "standard"])
@pytest.mark.parametrize("theme", ["monokai", "default"])
@pytest.mark.parametrize("name", list(SAMPLES))
def test_code_blocks_render_exactly_as_rich_does(name: str, theme: str, color_system: str) -> None:
    source = printable(SAMPLES[name])
    console = Console(width=120, color_system=color_system, force_terminal=True, legacy_windows=False)
    for width in WIDTHS:
        ours = _lines(InertMarkdown(source, theme), console, width)
        rich = _lines(RichCodeBlocks(source, theme), console, width)
        assert ours == rich, f"{name!r} at width {width} ({theme}) differs"


def test_samples_cover_wrapped_and_plain_lines() -> None:
    """The comparison means something: code is drawn, and some samples wrap at the widths tested."""
    console = Console(width=120, color_system="truecolor", force_terminal=True)
    lines = _lines(InertMarkdown(printable(SAMPLES["long word"])), console, 40)
    assert sum(LONG_WORD[:20] in "".join(s.text for s in line) for line in lines) >= 3
    python = _lines(InertMarkdown(SAMPLES["python"]), console, 80)
    styles = {segment.style for line in python for segment in line if segment.text.strip() == "def"}
    assert styles and all(style is not None and style.color is not None for style in styles)


def test_control_characters_stay_inert() -> None:
    console = Console(width=120, color_system="truecolor", force_terminal=True)
    source = printable(SAMPLES["control characters"])
    for width in (20, 80):
        text = "".join(s.text for line in _lines(InertMarkdown(source), console, width) for s in line)
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text)
        assert "␛[31mRED" in text.replace("\n", "")


def test_a_short_block_needs_no_syntax_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of the renderer: an ordinary block (even one with a wrapped line) builds no Syntax."""
    made: list[object] = []

    class Counting(code_block.Syntax):  # type: ignore[misc]
        def __init__(self, *args: object, **kwargs: object) -> None:
            made.append(args)
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(code_block, "Syntax", Counting)
    console = Console(width=120, color_system="truecolor", force_terminal=True)
    _lines(InertMarkdown(SAMPLES["python"] + SAMPLES["long line that wraps"]), console, 60)
    assert made == []
    _lines(InertMarkdown(SAMPLES["python"]), console, 2)  # no room for the margins: Syntax draws it
    assert len(made) == 1


def test_warm_up_builds_the_common_lexers_and_both_palettes() -> None:
    """What the chat warms up off the UI thread at start: the first Python, shell or JSON block of a
    fresh session then does not build its lexer on the way to the first paint."""
    from claude_tui.ui.render.markdown_lines import warm_up

    code_block.lexer_for.cache_clear()
    code_block.palette_for.cache_clear()
    warm_up()
    lexers = {type(code_block.lexer_for(name)).__name__ for name in ("python", "bash", "json")}
    assert code_block.lexer_for.cache_info().hits >= 3 and code_block.lexer_for.cache_info().misses == 3, lexers
    assert code_block.palette_for.cache_info().currsize == 2
