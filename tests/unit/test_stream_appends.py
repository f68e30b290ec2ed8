"""Streamed deltas grow items' text in place: every reader sees exact strings, at every step."""

from __future__ import annotations

import json

from claude_tui import protocol as p
from claude_tui.session import content
from claude_tui.session.items import TextItem, ThinkingItem, ToolItem, ToolState
from claude_tui.ui.render.answer_segments import Segmenter, TextBuffer, segments_of


def test_text_and_thinking_read_exactly_between_deltas() -> None:
    text, thinking = TextItem(streaming=True), ThinkingItem(streaming=True)
    expected = ""
    kept: list[tuple[str, str]] = []
    for n in range(500):
        piece = f"word{n} "
        assert content.apply_delta(text, p.TextDelta(text=piece)) == piece
        assert content.apply_delta(thinking, p.ThinkingDelta(thinking=piece)) == piece
        expected += piece
        assert text.text == expected and thinking.text == expected
        if n % 50 == 0:
            # A reader keeping the string (a find cache, a label), and an independent copy of it.
            kept.append((text.text, (text.text + ".")[:-1]))
    # Growing in place never changes a string someone else holds.
    assert all(held == copy for held, copy in kept)
    assert kept[0][0] == "word0 "


def test_a_streamed_tool_input_is_parsed_when_it_ends() -> None:
    tool = ToolItem(tool_use_id="t", name="Write", state=ToolState.STREAMING)
    body = json.dumps({"file_path": "/tmp/big.py", "content": "x = 1\n" * 2000})
    for start in range(0, len(body), 7):
        content.apply_delta(tool, p.InputJsonDelta(partial_json=body[start:start + 7]))
    assert tool.partial_input == body
    content.finish_tool_input(tool)
    assert tool.input["content"] == "x = 1\n" * 2000 and tool.state is ToolState.PENDING


def test_deltas_of_the_wrong_kind_change_nothing() -> None:
    text = TextItem(text="kept")
    assert content.apply_delta(text, p.ThinkingDelta(thinking="no")) == ""
    assert text.text == "kept"


def test_text_buffer_is_a_string_built_by_appends() -> None:
    buffer = TextBuffer("ab")
    for piece in ("c", "", "de"):
        buffer.append(piece)
    assert len(buffer) == 5 and str(buffer) == "abcde"
    buffer.append("f")
    assert str(buffer) == "abcdef" and str(TextBuffer()) == "" and len(TextBuffer()) == 0


def test_segment_cuts_are_the_same_whatever_the_deltas() -> None:
    text = ("A paragraph of words. " * 40 + "\n\n") * 6 + "```\n" + "code\n\ncode\n" * 600 + "```\n"
    for size in (1, 7, 64, 700):
        segmenter = Segmenter()
        for start in range(0, len(text), size):
            segmenter.feed(text[start:start + size])
        assert [*segmenter.sealed, segmenter.live] == segments_of(text)
    assert "".join(segments_of(text)) == text
