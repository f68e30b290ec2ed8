"""Help's one-line descriptions: a long one is cut at a word, and says so with "…"."""

from __future__ import annotations

from claude_tui.ui.app.help import DESCRIPTION_LIMIT, first_line


def test_a_long_description_is_cut_at_a_word_with_an_ellipsis() -> None:
    words = "check the tests or types and lint everything the CI runs " * 6
    shown = first_line(words)
    assert shown.endswith("…") and len(shown) <= DESCRIPTION_LIMIT
    assert words.startswith(shown[:-1]) and words[len(shown) - 1] == " "  # whole words only


def test_a_short_description_is_its_first_line_unchanged() -> None:
    assert first_line("Review the diff\nthen more detail") == "Review the diff"
    assert first_line("") == ""


def test_a_word_longer_than_the_limit_is_cut_hard() -> None:
    assert first_line("x" * 500) == "x" * (DESCRIPTION_LIMIT - 1) + "…"


def test_control_characters_do_not_survive() -> None:
    assert "\x1b" not in first_line("bad \x1b[31mred\x1b[0m text")
