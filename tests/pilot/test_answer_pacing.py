"""While an answer streams, it is laid out at most once per `STREAM_GAP` (the first delta and the
answer's end at once), and a frame styles again only the rows whose text changed (`StyledRows`):
each layout of the burst is a frame of the whole log, and each frame styled every row in view."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

import claude_tui.ui.log.assistant_text as assistant_text
from claude_tui.session.items import TextItem
from claude_tui.ui.log.assistant_text import AssistantText
from tests.styles import MAIN_ROW_CSS


class Host(App[None]):
    CSS = MAIN_ROW_CSS + "\nAssistantText.-marked { background: red; }\n"

    def __init__(self, widget: AssistantText) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget


def shown(widget: AssistantText) -> str:
    return "\n".join(widget.render_line(y).text for y in range(widget.region.height))


def long_text(paragraphs: int = 40) -> str:
    return "".join(f"Paragraph {i} has a few words in it.\n\n" for i in range(paragraphs))


async def test_a_delta_soon_after_a_layout_waits_for_the_gap_and_the_end_is_drawn_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assistant_text, "STREAM_GAP", 600.0)  # the paced layout never comes by itself here
    item = TextItem(text="first words", streaming=True)
    app = Host(AssistantText(item))
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        assert "first words" in shown(app.widget)
        item.text += " later words"
        app.widget.append_text(" later words")
        await pilot.pause()
        await pilot.pause()
        assert "later" not in shown(app.widget)  # put off: the last layout was just now
        item.streaming = False
        app.widget.refresh_from(item)  # the end of the answer: drawn in the next frame, not the gap's
        await pilot.pause()
        assert "first words later words" in shown(app.widget)


async def test_with_no_gap_a_delta_is_drawn_in_the_next_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assistant_text, "STREAM_GAP", 0.0)
    item = TextItem(text="first words", streaming=True)
    app = Host(AssistantText(item))
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        app.widget.append_text(" later words")
        await pilot.pause()
        assert "first words later words" in shown(app.widget)


async def test_a_frame_styles_again_only_the_rows_that_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assistant_text, "STREAM_GAP", 0.0)
    styled: list[int] = []
    textual_render_lines = Widget.render_lines

    def counting(self: Widget, crop: Region) -> list[Strip]:
        if isinstance(self, AssistantText):
            styled.append(crop.height)
        return textual_render_lines(self, crop)

    monkeypatch.setattr(Widget, "render_lines", counting)
    item = TextItem(streaming=True)
    app = Host(AssistantText(item))
    async with app.run_test(size=(80, 60)) as pilot:
        for paragraph in range(6):  # streamed: segments of ~800 characters are sealed as they come
            app.widget.append_text(f"Paragraph {paragraph} " + "has a few words in it " * 18 + "\n\n")
        await pilot.pause()
        widget = app.widget
        assert widget.sealed_count >= 2
        rows = widget.region.height
        assert 30 < rows < 60  # all on screen: a frame paints every row of it
        styled.clear()
        widget.append_text("one more word")  # rows change at the end only, and the widget grows
        await pilot.pause()
        await pilot.pause()
        assert "one more word" in shown(widget)
        assert widget.region.height > rows
        assert 0 < sum(styled) < rows // 2, (styled, rows)  # the live segment's rows, not every row


async def test_kept_rows_equal_textual_styling_after_a_change_of_look(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assistant_text, "STREAM_GAP", 0.0)
    item = TextItem(text=long_text(), streaming=True)
    app = Host(AssistantText(item))
    async with app.run_test(size=(80, 20)) as pilot:
        widget = app.widget
        await pilot.pause()

        def both() -> tuple[list[Any], list[Any]]:
            crop = Region(0, 0, widget.region.width, widget.region.height)
            return ([list(strip) for strip in widget.render_lines(crop)],
                    [list(strip) for strip in Widget.render_lines(widget, crop)])

        before, textual = both()
        assert before == textual
        widget.add_class("-marked")  # another background: every kept row is stale
        await pilot.pause()
        kept, textual = both()
        assert kept == textual
        assert kept != before
