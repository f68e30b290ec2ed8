"""The render-boundary filter (claude_tui.ui.kit.inert): what a widget lets through never reaches the terminal."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.strip import Strip

from claude_tui.ui.kit.inert import TerminalSafe, terminal_safe

BLACK = Color(0, 0, 0)


def _apply(segments: list[Segment]) -> Strip:
    return Strip(segments).apply_filter(TerminalSafe(), BLACK)


def test_controls_are_dropped_and_the_width_kept() -> None:
    raw = [Segment("ok "), Segment("clip\x1b]52;c;UFdORUQ=\x07.txt", Style(bold=True)), Segment(" \x9b2J\u202e\n\t")]
    strip = Strip(raw)
    out = _apply(raw)
    assert out.cell_length == strip.cell_length
    text = out.text
    assert text == "ok clip]52;c;UFdORUQ=.txt 2J"
    assert [seg.style for seg in out][1] == Style(bold=True)


def test_a_lone_surrogate_becomes_a_replacement_character_of_the_same_width() -> None:
    out = _apply([Segment("cut \ud83d here")])
    assert out.text == "cut \ufffd here"
    assert out.cell_length == Strip([Segment("cut \ud83d here")]).cell_length
    out.text.encode("utf-8")  # would raise on the surrogate


def test_links_are_unset_and_control_segments_dropped() -> None:
    out = _apply([Segment("link", Style(link="http://evil\x1b]2;x\x07")), Segment("\x07", None, [(1,)])])
    assert [seg.text for seg in out] == ["link"]
    assert all(not (seg.style and seg.style.link) for seg in out)


def test_clean_lines_pass_untouched_and_count_no_leak() -> None:
    flt = TerminalSafe()
    segments = [Segment("日本語 😀 café "), Segment("plain", Style(color="red")), Segment("\u00a0nbsp")]
    assert flt.apply(segments, BLACK) is segments
    assert flt.leaks == 0
    flt.apply([Segment("\x1b")], BLACK)
    assert flt.leaks == 1


def test_terminal_safe_text() -> None:
    assert terminal_safe("a\x1bb\x00c\u2028d\udc80") == "abcd\ufffd"
