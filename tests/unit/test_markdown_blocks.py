"""How answers' Markdown blocks look: numbered lists keep their period and start number, and one
blank line separates blocks (Rich put one before a document that starts with a list, a table or a
quote)."""

from __future__ import annotations

from rich.console import Console
from rich.style import Style

from claude_tui.ui.render.markdown_lines import LinkTable, render_markdown


def shown(source: str, width: int = 60) -> list[str]:
    console = Console(width=width, color_system=None, force_terminal=False)
    return [strip.text.rstrip() for strip in render_markdown(source, width, console, console.options, Style(),
                                                              LinkTable())]


def test_numbered_lists_show_the_period() -> None:
    assert shown("Steps:\n\n1. first\n2. second\n") == ["Steps:", "", " 1. first", " 2. second"]


def test_numbering_starts_where_the_source_does() -> None:
    assert shown("3. third\n4. fourth\n") == [" 3. third", " 4. fourth"]


def test_numbers_are_aligned_and_wrapped_lines_indented() -> None:
    lines = shown("8. a\n9. b\n10. c " + "word " * 15 + "\n", width=40)
    assert lines[:3] == ["  8. a", "  9. b", " 10. c word word word word word word"]
    assert lines[3].startswith("     word")


def test_bullets_are_unchanged() -> None:
    assert shown("- one\n- two\n") == [" • one", " • two"]


def test_no_blank_line_before_the_first_block() -> None:
    for source in ("1. a\n2. b\n", "- a\n", "> quoted\n", "| a | b |\n|---|---|\n| 1 | 2 |\n"):
        lines = shown(source)
        assert lines and lines[0] != "", source


def test_one_blank_line_between_blocks() -> None:
    lines = shown("Para.\n\n- x\n- y\n\nAfter.\n\n---\n\nEnd.\n")
    assert lines[:6] == ["Para.", "", " • x", " • y", "", "After."]


def test_code_and_tables_have_no_blank_rows_of_their_own() -> None:
    """Rich pads a code block with a blank row above and below and draws a table's top and bottom
    edges as blank rows: with the blank line between blocks, three blank rows around each."""
    lines = shown("Text.\n\n```python\nx = 1\n```\n\n| a | b |\n|---|--:|\n| 1 | 22 |\n\nEnd.\n")
    assert lines == ["Text.", "", " x = 1", "", " a   b", " ─────", " 1  22", "", "End."]
