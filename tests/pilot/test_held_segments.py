"""A burst into a log that follows its end renders what reaches the view, and the rest only when read.

`AssistantText` holds back the segments a burst has already scrolled past (their heights estimated)
for as long as the log follows its end, after the burst too, and renders them when the reader leaves
the end or selects. These tests look at the answer in between: every row in view is drawn, nothing
scrolled past is rendered while the view stays at the end, the answer read from the top equals one
render of the whole text, and a reader who scrolls up keeps their place although the rows above
them change height.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from claude_tui.protocol.decode import decode_obj
from claude_tui.ui.chat.connection import CliConnection
from claude_tui.ui.log.assistant_text import AssistantText
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.render import answer_lines
from claude_tui.ui.render.markdown_lines import LinkTable, render_markdown
from tests.conftest import recording
from tests.pilot.helpers import chat, make_app, wait_for

TOKEN = re.compile(r"token\d+")


async def burst(pilot: Pilot) -> tuple[ChatLog, AssistantText]:
    """The recorded 2,000-delta answer, posted back to back in batches of 256 lines, as the connection
    posts what its reads find of a fast CLI's output."""
    view = chat(pilot.app)  # type: ignore[arg-type]
    await wait_for(pilot, lambda: view.session.alive, what="the CLI ready")
    lines = [json.loads(line) for line in recording("long-stream")]
    streamed = [decode_obj(line) for line in lines if line.get("type") == "stream_event"]
    for start in range(0, len(streamed), 256):
        view.post_message(CliConnection.Events(streamed[start:start + 256]))
    log = view.query_one(ChatLog)
    await wait_for(pilot, lambda: list(log.query(AssistantText)) and log.max_scroll_y > 0, what="the answer drawn")
    await pilot.pause()
    return log, list(log.query(AssistantText))[-1]


def visible_rows(log: ChatLog, widget: AssistantText) -> range:
    top, region = round(log.scroll_y), widget.virtual_region
    return range(max(0, top - region.y), min(region.height, top - region.y + log.scrollable_content_region.height))


def word_on_top(log: ChatLog, widget: AssistantText) -> tuple[str, int] | None:
    """The first of the answer's words in the first rows of the view, and its row in the view."""
    rows = visible_rows(log, widget)
    for y in rows[:4]:
        found = TOKEN.search(widget.render_line(y).text)
        if found:
            return found.group(), y - rows.start
    return None


async def test_a_burst_draws_the_view_and_reads_from_the_top_as_one_render(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        log, widget = await burst(pilot)
        assert log.follows_end
        assert widget.rows_pending, "segments scrolled past in the burst were held back"
        laid_out = widget._sealed.lines  # what the layout placed, before any paint renders a held row
        for y in visible_rows(log, widget):
            assert y >= len(laid_out) or laid_out[y] is not answer_lines.HELD, f"row {y} is in view but held back"
        assert any(TOKEN.search(widget.render_line(y).text) for y in visible_rows(log, widget))
        log.scroll_home(animate=False, immediate=True)
        await wait_for(pilot, lambda: not widget.rows_pending, what="the whole answer rendered away from the end")
        want = render_markdown(widget.source, widget.size.width, app.console, app.console_options,
                               widget.rich_style, LinkTable(), dark=app.current_theme.dark)
        got = [widget._line(y) for y in range(widget.region.height)]
        assert [strip.text for strip in got] == [strip.text for strip in want]


async def test_a_page_up_paints_no_blank_rows(tmp_path: Path) -> None:
    """A scroll away from the end asks for a layout, but a frame may paint the scroll before that
    layout runs: held rows in view are then rendered by the paint itself, never shown blank."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        log, widget = await burst(pilot)
        assert widget.rows_pending
        # Two pages up (past the rows the burst rendered for the view), as PageUp scrolls: at once.
        log.scroll_to(y=log.scroll_y - 2 * log.scrollable_content_region.height, animate=False, immediate=True)
        rows = visible_rows(log, widget)
        held = widget._sealed.lines
        assert any(y < len(held) and held[y] is answer_lines.HELD for y in rows), "the page is on held rows"
        texts = [widget.render_line(y).text.strip() for y in rows]  # what that early frame paints
        longest = max((len(run) for run in "".join("." if text else " " for text in texts).split(".")), default=0)
        assert longest <= 2, texts
        assert sum(bool(TOKEN.search(text)) for text in texts) > len(texts) // 3, texts
        # The layout then renders them all, keeping the word that frame showed at the top on its row.
        on_top = word_on_top(log, widget)
        assert on_top is not None
        word, row = on_top
        await pilot.pause()
        await pilot.pause()
        assert not widget.rows_pending
        rows = visible_rows(log, widget)
        assert [y - rows.start for y in rows if word in widget.render_line(y).text.split()] == [row]


@pytest.mark.parametrize("rows_up", [2, 6])
async def test_scrolling_up_keeps_the_words_in_place(tmp_path: Path, rows_up: int) -> None:
    """A few rows up (2: one wheel notch, which lets go of Textual's anchor): the reader is on rendered
    rows, with held-back ones above them that the next layout renders."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        log, widget = await burst(pilot)
        assert widget.rows_pending
        log.scroll_to(y=log.scroll_y - rows_up, animate=False, immediate=True)
        assert not log.follows_end
        on_top = word_on_top(log, widget)
        assert on_top is not None
        word, row = on_top
        height = widget.virtual_region.height
        await pilot.pause()
        await pilot.pause()
        assert not widget.rows_pending, "away from the end, the whole answer is rendered"
        assert widget.virtual_region.height != height, "the estimates were off (else this proves nothing)"
        rows = visible_rows(log, widget)
        shown = [y - rows.start for y in rows if word in widget.render_line(y).text.split()]
        assert shown == [row], (word, row, shown)


async def test_a_selection_gets_every_row_drawn_at_once(tmp_path: Path) -> None:
    """Rows must not change height under a mouse selection: selecting renders what was held back."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        log, widget = await burst(pilot)
        assert widget.rows_pending
        widget.text_select_all()
        await pilot.pause()
        await pilot.pause()
        assert not widget.rows_pending


async def test_what_scrolled_past_is_not_rendered_while_the_view_follows_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the burst, the view at the end: the segments it scrolled past stay held back (unread,
    unrendered), the ones in view were rendered once each, and the live one once a frame at most."""
    rendered: list[str] = []
    render = AssistantText._render_segment

    def counted(self: AssistantText, source: str, width: int) -> object:
        rendered.append(source)
        return render(self, source, width)

    monkeypatch.setattr(AssistantText, "_render_segment", counted)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        log, widget = await burst(pilot)
        await wait_for(pilot, lambda: not widget.item.streaming, what="the answer's end")
        sealed = widget.sealed_count
        for _ in range(10):  # the frames after the burst, and longer than a timer would wait to render the rest
            await pilot.pause(0.02)
        assert log.follows_end and widget.rows_pending
        held = widget._sealed.held
        assert held > sealed // 2, f"only {held} of {sealed} segments scrolled past unrendered"
        segments = set(widget._segments.sealed)
        sealed_renders = [source for source in rendered if source in segments]
        assert len(sealed_renders) == len(set(sealed_renders)), "a sealed segment was rendered twice"
        assert len(sealed_renders) <= sealed - held + 1, (len(sealed_renders), sealed, held)
        assert len(rendered) - len(sealed_renders) <= 40, "the live segment is rendered at most once a frame"
