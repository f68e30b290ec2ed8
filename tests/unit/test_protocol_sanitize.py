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


# -- names, the prompt, copies (issue 15) ------------------------------------------------------------------

COPY_FORBIDDEN = set(range(0x00, 0x09)) | set(range(0x0B, 0x20)) | set(range(0x7F, 0xA0))


def _clean_copy(s: str) -> bool:
    return not any(ord(c) in COPY_FORBIDDEN for c in s) and "[201~" not in s and "[200~" not in s


def test_lone_surrogates_become_the_replacement_character() -> None:
    assert printable("cut \ud83d emoji") == "cut \ufffd emoji"
    assert printable("\udc80").encode("utf-8") == "\ufffd".encode()


def test_a_name_is_one_inert_row() -> None:
    from claude_tui.protocol.sanitize import printable_name

    assert printable_name("new\nline.txt") == "new␊line.txt"
    assert printable_name("tab\there") == "tab␉here"
    assert printable_name("clip\x1b]52;c;UFdORUQ=\x1b\\.txt") == "clip␛]52;c;UFdORUQ=␛\\.txt"
    assert printable_name("sep\u2028para\u2029") == "sep\\u2028para\\u2029"
    assert printable_name("we[@click=app.quit]ird") == "we[@click=app.quit]ird"  # markup is the widgets' job
    name = "plain/path.py"
    assert printable_name(name) is name


def test_prompt_text_keeps_layout_and_shows_the_rest() -> None:
    from claude_tui.protocol.sanitize import prompt_text

    assert prompt_text("a\r\nb\rc\n\td\x1b[31m\x07") == "a\nb\nc\n\td␛[31m␇"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("answer \x1b[201~echo PASTEJACK\n", "answer echo PASTEJACK\n"),  # bracketed paste end: gone whole
        ("\x1b[200~inner\x1b[201~", "inner"),
        ("clip \x1b]52;c;UFdORUQ=\x07 and \x1b]2;title\x1b\\ end", "clip  and  end"),
        ("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("\x1b[31mred\x1b[0m plain", "red plain"),
        ("\x9b31mC1\x9d0;t\x9c \x90q\x9c", "C1 "),
        ("windows\r\nline\rend", "windows\nline\nend"),
        ("bell\x07 nul\x00 del\x7f", "bell␇ nul␀ del␡"),
        ("\x1bPunterminated dcs\nnext line", "\nnext line"),  # a cut string ends at its line
        ("ok \x1b", "ok "),
        ("tabs\tand\nnewlines stay", "tabs\tand\nnewlines stay"),
    ],
)
def test_clipboard_text(text: str, expected: str) -> None:
    from claude_tui.protocol.sanitize import clipboard_text

    assert clipboard_text(text) == expected
    assert _clean_copy(clipboard_text(text))


@given(st.text(alphabet=st.sampled_from(list("ab[]2;01~\\\n\t\r\x1b\x07\x9b\x9c\x9d\x90\x00\x7f\u202e😀"))))
def test_clipboard_text_is_always_clean_and_stable(s: str) -> None:
    from claude_tui.protocol.sanitize import clipboard_text

    out = clipboard_text(s)
    assert not any(ord(c) in COPY_FORBIDDEN for c in out)
    assert "\x1b" not in out and "\r" not in out
    assert clipboard_text(out) == out


def test_typed_characters_that_draw_as_nothing_get_a_stand_in() -> None:
    from claude_tui.protocol.sanitize import typed_stand_in

    assert typed_stand_in("\u202e") == printable("\u202e") == "\\u202e"  # as the log shows it
    assert typed_stand_in("\u200b") == "\\u200b"
    assert typed_stand_in("\u2028") == "\\u2028"
    assert typed_stand_in("a") is None and typed_stand_in("\x01") is None and typed_stand_in(None) is None
