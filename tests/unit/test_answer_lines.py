"""SealedLines: held-back segments take estimated rows until rendered, and the lines stay in order."""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip

from claude_tui.ui.render.answer_lines import HELD, SealedLines, estimate
from claude_tui.ui.render.markdown_lines import MarkdownPart


def fake_render(source: str, width: int) -> MarkdownPart:
    """Each source line one row, so that what was rendered is easy to read back."""
    return MarkdownPart([Strip([Segment(line)]) for line in source.split("\n")], None, False)


def sealed_lines(sources: list[str], width: int = 40) -> tuple[SealedLines, list[str]]:
    previews: list[str] = []
    return SealedLines(sources, width, fake_render, lambda: previews.append("laid out")), previews


def texts(lines: list[Strip]) -> list[str]:
    return [line.text for line in lines]


def test_new_segments_are_held_back_with_estimated_rows() -> None:
    sources = ["a\nb", "c", "d\ne\nf"]
    sealed, _ = sealed_lines(sources)
    assert sealed.take_new() == 0
    assert sealed.held == 3
    sealed.build(0)
    assert len(sealed.lines) == sum(estimate(source, 40) for source in sources)
    assert all(line is HELD for line in sealed.lines)
    sources.append("g")  # the segmenter seals one more
    assert sealed.take_new() == 3 and sealed.held == 4


def test_rendering_some_keeps_the_others_held_and_the_order() -> None:
    sources = ["a", "b", "c"]
    sealed, _ = sealed_lines(sources)
    sealed.take_new()
    sealed.build(0)
    sealed.build(sealed.render([2]))
    assert sealed.held == 2
    assert texts(sealed.lines[sealed.starts[2]:]) == ["", "c"]  # the blank line a whole render puts before it
    assert sealed.held_after(sealed.starts[2]) == []
    assert sealed.held_after(0) == [0, 1]
    sealed.build(sealed.render(sealed.held_indexes()))
    assert texts(sealed.lines) == ["a", "", "b", "", "c"]
    assert sealed.after_rule is False


def test_newest_reaches_back_only_as_far_as_the_rows_asked() -> None:
    sources = [f"line {n}" for n in range(10)]
    sealed, _ = sealed_lines(sources)
    sealed.take_new()
    one = estimate(sources[0], 40)
    assert sealed.newest(2 * one) == [9, 8]
    assert sealed.newest(0) == []


def test_a_paint_on_a_held_row_renders_a_preview_that_the_layout_then_uses() -> None:
    sources = ["a\nb\nc", "d"]
    sealed, previews = sealed_lines(sources)
    sealed.take_new()
    sealed.build(0)
    live = [Strip([Segment("live")])]
    assert sealed.row(0, live).text == "a"
    assert sealed.row(2, live).text == "c"
    assert previews == ["laid out"], "one preview, and a layout asked for once"
    # Past the first segment's rendered rows, the paint runs on into the next one and the live lines.
    assert texts([sealed.row(y, live) for y in range(sealed.starts[1], sealed.starts[1] + 3)])[:2] == ["", "d"]
    rendered = sealed.render([0])
    assert rendered == 0 and sealed.parts[0] == fake_render(sources[0], 40)
