"""An answer drawn while it streams ends exactly as the same answer drawn fresh: a burst (every
delta before the first frame) and a slow stream (a frame between deltas) give the final lines,
styles included, that a finished message gives (`AssistantText` seals segments while streaming
and renders each once; a stale cache or a cut that differs from `segments_of` would show here)."""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.app import App, ComposeResult

from claude_tui.session.items import TextItem
from claude_tui.ui.log.assistant_text import AssistantText
from claude_tui.ui.render.markdown_lines import LinkTable, render_markdown
from tests.styles import MAIN_ROW_CSS


def answer_deltas() -> list[str]:
    """A long Markdown answer in token-sized deltas: headings, paragraphs, code, a table, a list, links."""
    out: list[str] = []
    for i in range(900):
        if i % 60 == 0:
            out.append(f"\n\n## Section {i // 60}\n\n")
        elif i % 37 == 0:
            out.append("\n\n```python\ndef f(x):\n\n    return x + 1\n```\n\n")
        elif i % 97 == 0:
            out.append("\n\n| a | b |\n|---|---|\n| 1 | [two](https://two.example) |\n\n- item\n- **bold** item\n\n")
        else:
            out.append(f"word{i} ")
    return out


class Host(App[None]):
    CSS = MAIN_ROW_CSS

    def __init__(self, widget: AssistantText) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget


def lines(widget: AssistantText) -> list[list[Segment]]:
    return [list(widget.render_line(y)) for y in range(widget.region.height)]


async def fresh_lines(text: str) -> list[list[Segment]]:
    app = Host(AssistantText(TextItem(text=text)))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        return lines(app.widget)


async def streamed_lines(deltas: list[str], frame_every: int | None) -> tuple[list[list[Segment]], Any]:
    item = TextItem(streaming=True)
    app = Host(AssistantText(item))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for index, delta in enumerate(deltas):
            item.text += delta
            app.widget.append_text(delta)
            if frame_every and index % frame_every == 0:
                await pilot.pause()  # a frame: the live segment is rendered mid-stream
        item.streaming = False
        app.widget.refresh_from(item)
        await pilot.pause()
        return lines(app.widget), app.widget


async def test_a_burst_ends_as_a_fresh_render() -> None:
    deltas = answer_deltas()
    got, widget = await streamed_lines(deltas, frame_every=None)
    want = await fresh_lines("".join(deltas))
    assert len(want) > 100
    assert got == want


async def test_a_slow_stream_ends_as_a_fresh_render() -> None:
    deltas = answer_deltas()
    got, widget = await streamed_lines(deltas, frame_every=7)
    assert widget.sealed_count > 3, "the answer was sealed in several segments while streaming"
    assert got == await fresh_lines("".join(deltas))


async def test_mouse_selection_in_an_answer_gives_its_text() -> None:
    """Select-all (what a mouse drag over the whole answer does) copies the text as shown."""
    app = Host(AssistantText(TextItem(text="## Title\n\nSome **bold** words.\n\n```py\nx = 1\n```\n")))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.widget.text_select_all()
        await pilot.pause()
        selected = app.screen.get_selected_text() or ""
        assert "Title" in selected and "Some bold words." in selected and "x = 1" in selected
        assert "**" not in selected
        marked = app.screen.get_component_rich_style("screen--selection")
        assert any(segment.style and marked.bgcolor == segment.style.bgcolor
                   for segment in app.widget.render_line(2) if segment.text.strip())


def block_deltas() -> list[str]:
    """An answer whose segments start with every kind of block: lists (tight, loose, numbered from 3),
    tables, quotes, rules, code, indented code with blank lines, a paragraph with an image."""
    prose = " ".join(f"word{j}" for j in range(160)) + ".\n\n"
    blocks = ["3. third\n4. fourth\n\n", "- a\n- b\n\n", "1. loose\n\n2. list\n\n   more of two\n\n",
              "| a | b |\n|---|---|\n| 1 | 2 |\n\n", "> quoted\n> text\n\n", "---\n\n",
              "```python\nx = 1\n\n\ny = 2\n```\n\n", "    indented\n\n    code\n\n", "![alt](https://i.example/x.png) pic\n\n",
              "## Heading\n\n"]
    text = "".join(prose + block for block in blocks * 2) + "The end."
    return [text[i:i + 9] for i in range(0, len(text), 9)]


async def test_the_final_frame_equals_one_render_of_the_whole_message() -> None:
    """Cut into segments while streaming, the answer still draws as Rich draws the whole message at
    once: no extra blank line where a segment starts with a list, a table or a quote, lists not split."""
    deltas = block_deltas()
    text = "".join(deltas)
    item = TextItem(streaming=True)
    app = Host(AssistantText(item))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for index, delta in enumerate(deltas):
            item.text += delta
            app.widget.append_text(delta)
            if index % 11 == 0:
                await pilot.pause()
        item.streaming = False
        app.widget.refresh_from(item)
        await pilot.pause()
        widget = app.widget
        assert widget.sealed_count > 10
        want = render_markdown(text, widget.size.width, app.console, app.console_options, widget.rich_style,
                               LinkTable(), dark=app.current_theme.dark)
        got = [widget._line(y) for y in range(widget.region.height)]
        assert [strip.text for strip in got] == [strip.text for strip in want]
        assert got == want
