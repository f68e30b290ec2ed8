"""Raw HTML in model text is shown as written: with markdown-it's `html` on, `Vec<T>` and a
`<details>` block became HTML tokens that no renderer draws, and the words vanished."""

from __future__ import annotations

from rich.console import Console
from rich.style import Style

from claude_tui.ui.render.markdown_lines import LinkTable, render_markdown
from claude_tui.ui.render.safe_markdown import safe_parser

SOURCE = "Use Vec<T> or Option<String> in a <div> element, x < y.\n\n<details>\nsecret words\n</details>\n"


def _rendered(source: str, width: int = 100) -> str:
    console = Console(width=width, color_system=None, force_terminal=False)
    strips = render_markdown(source, width, console, console.options, Style(), LinkTable())
    return "\n".join(strip.text.rstrip() for strip in strips)


def test_inline_and_block_html_are_text() -> None:
    tokens = safe_parser().parse(SOURCE)
    assert not {"html_inline", "html_block"} & {t.type for tok in tokens for t in [tok, *(tok.children or [])]}
    shown = _rendered(SOURCE)
    assert "Vec<T> or Option<String> in a <div> element" in shown
    assert "<details>" in shown and "secret words" in shown


def test_autolinks_and_markdown_still_work() -> None:
    tokens = safe_parser().parse("**bold** <https://example.com> `a<b>`")
    kinds = {t.type for tok in tokens for t in [tok, *(tok.children or [])]}
    assert {"strong_open", "link_open", "code_inline"} <= kinds
    assert "a<b>" in _rendered("`a<b>`")
