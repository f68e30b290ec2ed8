"""A long tool output says how much of it is not shown (an expanded Read of 4,000 lines showed 20
and simply stopped)."""

from __future__ import annotations

from textual.widgets import Static

from claude_tui.ui.log.tool_card import OUTPUT_ROWS, _output


def _texts(text: str) -> list[str]:
    return [str(widget.content) for widget in _output(text, "tool-output") if isinstance(widget, Static)]


def test_an_output_that_fits_is_shown_whole_with_no_note() -> None:
    text = "\n".join(f"line {n}" for n in range(OUTPUT_ROWS))
    assert _texts(text) == [text]


def test_a_longer_output_shows_its_head_and_counts_the_rest() -> None:
    text = "\n".join(f"line {n}" for n in range(1979))
    shown, note = _texts(text)
    assert shown.splitlines() == [f"line {n}" for n in range(OUTPUT_ROWS - 1)]
    assert note.startswith(f"… {1979 - (OUTPUT_ROWS - 1):,} more lines")


def test_the_output_stays_inert() -> None:
    shown, _note = _texts("\x1b]52;c;eA==\x07\n" * 40)
    assert "\x1b" not in shown and "␛" in shown


def test_the_newline_that_ends_the_output_is_no_line_of_its_own() -> None:
    text = "".join(f"line {n}\n" for n in range(OUTPUT_ROWS))
    assert len(_texts(text)) == 1  # 20 lines and their newlines: all shown, no note
    longer = "".join(f"line {n}\n" for n in range(4000))
    assert _texts(longer)[1].startswith(f"… {4000 - (OUTPUT_ROWS - 1):,} more lines")
