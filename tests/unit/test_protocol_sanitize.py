from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claude_tui.protocol.sanitize import needs_sanitizing, printable

DANGEROUS = set(range(0x00, 0x09)) | set(range(0x0B, 0x20)) | set(range(0x7F, 0xA0)) | set(range(0x202A, 0x202F)) \
    | set(range(0x2066, 0x206A))


def _clean(s: str) -> bool:
    return not any(ord(c) in DANGEROUS for c in s)


@pytest.mark.parametrize(
    "text",
    [
        "\x1b[31mred\x1b[0m",                 # CSI SGR
        "\x1b]52;c;ZXZpbA==\x07",             # OSC 52 clipboard write
        "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\",  # OSC 8 hyperlink
        "\x9b2J",                             # C1 CSI
        "\x9d0;title\x9c",                    # C1 OSC / ST
        "abc\u202edcba",                      # RLO
        "\u2066isolate\u2069",
        "bell\x07 del\x7f nul\x00 cr\r",
    ],
)
def test_dangerous_sequences_are_neutralised(text: str) -> None:
    out = printable(text)
    assert _clean(out)
    assert "\x1b" not in out and "\x9b" not in out
    assert needs_sanitizing(text)


def test_visible_replacements() -> None:
    assert printable("\x1b[1m") == "\u241b[1m"  # ␛
    assert printable("\x9b") == "\\x9b"
    assert printable("\u202e") == "\\u202e"
    assert printable("\x7f") == "\u2421"


def test_newline_tab_and_unicode_kept() -> None:
    s = "line1\n\tindented — café 日本 🎉"
    assert printable(s) == s


def test_plain_ascii_fast_path_returns_same_object() -> None:
    s = "plain ascii text " * 100
    assert printable(s) is s


@given(st.text())
def test_printable_never_leaves_controls(s: str) -> None:
    out = printable(s)
    assert _clean(out)
    if _clean(s):
        assert out == s


def test_one_line_collapses_whitespace_and_stays_inert() -> None:
    from claude_tui.protocol.sanitize import one_line

    assert one_line("a\n  b\t c") == "a b c"
    assert one_line(None) == ""
    assert "\x1b" not in one_line("x\x1b]52;c;AA\x07y")
