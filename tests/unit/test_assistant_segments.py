"""Splitting long answers into Markdown segments (pure functions of assistant_text)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from claude_tui.ui.widgets.assistant_text import HARD_CUT_CHARS, SEGMENT_CHARS, cut_in, segments_of


def stream(text: str, chunk: int) -> list[str]:
    """Segments as streaming produces them, for deltas of `chunk` characters."""
    parts, live = [], ""
    for start in range(0, len(text), chunk):
        piece = text[start:start + chunk]
        while piece:
            cut = cut_in(live, piece)
            if cut is None or cut >= len(piece):
                live += piece
                break
            parts.append(live + piece[:cut])
            live, piece = "", piece[cut:]
    return parts + [live]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab \n`~#-*")), max_size=40_000), st.integers(1, 500))
def test_segments_rebuild_the_text_and_stay_bounded(text: str, chunk: int) -> None:
    for parts in (segments_of(text), stream(text, chunk)):
        assert "".join(parts) == text
        assert all(len(part) <= HARD_CUT_CHARS + 500 for part in parts[:-1])


def test_paragraph_breaks_are_preferred() -> None:
    paragraph = "word " * 80 + "\n\n"
    parts = segments_of(paragraph * 20)
    assert len(parts) > 3
    assert all(part.endswith("\n\n") for part in parts[:-1])


def test_code_fences_are_not_split_at_blank_lines() -> None:
    code = "```python\n" + "x = 1\n\n" * 400 + "```\n\n"
    text = "intro\n\n" + code + "after\n\n" * 400
    for part in segments_of(text)[:-1]:
        fences = sum(1 for line in part.splitlines() if line.startswith("```"))
        assert fences % 2 == 0, "a segment ends inside a code fence"


def test_one_giant_line_is_cut_hard() -> None:
    parts = segments_of("x" * (HARD_CUT_CHARS * 3 + 10))
    assert len(parts) == 4
    assert len(parts[0]) == HARD_CUT_CHARS


def test_short_answers_are_one_segment() -> None:
    assert segments_of("Hello! **42**.") == ["Hello! **42**."]
    assert cut_in("", "a" * (SEGMENT_CHARS // 4)) is None
