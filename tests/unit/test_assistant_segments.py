"""Splitting long answers into Markdown segments (pure functions of assistant_text)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from claude_tui.ui.render.answer_segments import HARD_CUT_CHARS, SEGMENT_CHARS, Segmenter, segments_of


def stream(text: str, chunk: int) -> list[str]:
    """Segments as streaming produces them, for deltas of `chunk` characters."""
    segmenter = Segmenter()
    for start in range(0, len(text), chunk):
        segmenter.feed(text[start:start + chunk])
    return [*segmenter.sealed, segmenter.live]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab \n`~#-*")), max_size=40_000), st.integers(1, 500))
def test_segments_rebuild_the_text_stay_bounded_and_do_not_depend_on_the_deltas(text: str, chunk: int) -> None:
    whole = segments_of(text)
    assert "".join(whole) == text
    assert all(len(part) <= HARD_CUT_CHARS for part in whole[:-1])
    # A streamed answer is cut where the finished message is: it is drawn the same.
    assert stream(text, chunk) == whole


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
    assert segments_of("a\n\n" * (SEGMENT_CHARS // 12)) == ["a\n\n" * (SEGMENT_CHARS // 12)]
