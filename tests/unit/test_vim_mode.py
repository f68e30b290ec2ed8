"""The vim state machine: text + cursor + keys in, text + cursor + mode out."""

from __future__ import annotations

import pytest

from claude_tui.vim_mode import INSERT, NORMAL, VimMachine


def run(text: str, keys: str | list[str], cursor: int | None = None, *,
        machine: VimMachine | None = None) -> tuple[str, int, str, VimMachine]:
    """Start in normal mode at `cursor` (the `|` in text marks it) and feed `keys`.

    Insert-mode keys (not handled) are typed as the editor would: inserted at the cursor."""
    if cursor is None:
        cursor = text.index("|")
        text = text.replace("|", "", 1)
    vim = machine or VimMachine(mode=NORMAL)
    for key in (keys if isinstance(keys, list) else list(keys)):
        out = vim.feed(text, cursor, key)
        if not out.handled and vim.mode == INSERT and len(key) == 1:
            text, cursor = text[:cursor] + key + text[cursor:], cursor + 1
            continue
        text, cursor = out.text, out.cursor
    return text, cursor, vim.mode, vim


def shown(text: str, cursor: int) -> str:
    return text[:cursor] + "|" + text[cursor:]


@pytest.mark.parametrize(("start", "keys", "end"), [
    ("|hello world", "l", "h|ello world"),
    ("hel|lo", "h", "he|llo"),
    ("|hello", "9l", "hell|o"),
    ("he|llo", "5h", "|hello"),
    ("|one two three", "w", "one |two three"),
    ("|one two three", "2w", "one two |three"),
    ("|foo.bar baz", "w", "foo|.bar baz"),
    ("one two thr|ee", "b", "one two |three"),
    ("one two |three", "2b", "|one two three"),
    ("|one two", "e", "on|e two"),
    ("|one two", "2e", "one tw|o"),
    ("  ab|c", "0", "|  abc"),
    ("  ab|c", "^", "  |abc"),
    ("|abc def", "$", "abc de|f"),
    ("|ab\ncd", "2$", "ab\nc|d"),
    ("a|bc\ndef", "j", "abc\nd|ef"),
    ("abc\nd|ef", "k", "a|bc\ndef"),
    ("abcdef\nx|y\nlong line", "k", "a|bcdef\nxy\nlong line"),
    ("abcdef\nab", "", "abcdef\nab"),
    ("one\ntwo\nth|ree", "gg", "|one\ntwo\nthree"),
    ("o|ne\ntwo\n  three", "G", "one\ntwo\n  |three"),
    ("o|ne\ntwo\nthree", "2G", "one\n|two\nthree"),
    ("one\ntwo\nth|ree", "2gg", "one\n|two\nthree"),
    ("one\n|two", "w", "one\ntw|o"),
])
def test_motions(start: str, keys: str, end: str) -> None:
    text, cursor, mode, _ = run(start, keys) if "|" in start else run(start, keys, 0)
    assert shown(text, cursor) == (end if "|" in end else shown(end, 0))
    assert mode == NORMAL


@pytest.mark.parametrize(("start", "keys", "end", "register"), [
    ("|one two three", "dw", "|two three", "one "),
    ("one |two three four", "d2w", "one |four", "two three "),
    ("one |two three four", "2dw", "one |four", "two three "),
    ("one |two\nnext", "dw", "one| \nnext", "two"),
    ("one two |three", "db", "one |three", "two "),
    ("|one two", "de", "| two", "one"),
    ("one |two three", "d$", "one| ", "two three"),
    ("one |two three", "D", "one| ", "two three"),
    ("one tw|o", "d0", "|o", "one tw"),
    ("  one tw|o", "d^", "  |o", "one tw"),
    ("a|bc", "x", "a|c", "b"),
    ("a|bcdef", "3x", "a|ef", "bcd"),
    ("ab|c", "5x", "a|b", "c"),
    ("a|bc", "dl", "a|c", "b"),
    ("ab|c", "dh", "a|c", "b"),
])
def test_delete_charwise(start: str, keys: str, end: str, register: str) -> None:
    text, cursor, mode, vim = run(start, keys)
    assert shown(text, cursor) == end
    assert mode == NORMAL
    assert (vim.register, vim.linewise) == (register, False)


@pytest.mark.parametrize(("start", "keys", "end", "register"), [
    ("one\nt|wo\nthree", "dd", "one\n|three", "two\n"),
    ("one\ntwo\nthr|ee", "dd", "one\n|two", "three\n"),
    ("o|ne\ntwo\nthree", "2dd", "|three", "one\ntwo\n"),
    ("o|ne\ntwo\nthree", "d2d", "|three", "one\ntwo\n"),
    ("o|ne\ntwo\nthree", "dj", "|three", "one\ntwo\n"),
    ("one\ntwo\nth|ree", "dk", "|one", "two\nthree\n"),
    ("one\nt|wo\nthree", "dG", "|one", "two\nthree\n"),
    ("one\nt|wo\nthree", "dgg", "|three", "one\ntwo\n"),
    ("o|nly", "dd", "|", "only\n"),
    ("  one\n|  two", "dd", "  |one", "  two\n"),
])
def test_delete_linewise(start: str, keys: str, end: str, register: str) -> None:
    text, cursor, _, vim = run(start, keys)
    assert shown(text, cursor) == end
    assert (vim.register, vim.linewise) == (register, True)


@pytest.mark.parametrize(("start", "keys", "end"), [
    ("one |two three", "cwX", "one X| three"),
    ("one |two three four", "c2wX", "one X| four"),
    ("one |two three", "ceX", "one X| three"),
    ("one |two three", "cbX", "X|two three"),
    ("one |two three", "c$X", "one X|"),
    ("one |two three", "CX", "one X|"),
    ("one\n  t|wo\nthree", "ccX", "one\n  X|\nthree"),
    ("one\nt|wo\nthree", "cjX", "one\nX|"),
])
def test_change_enters_insert(start: str, keys: str, end: str) -> None:
    text, cursor, mode, _ = run(start, keys)
    assert shown(text, cursor) == end
    assert mode == INSERT


@pytest.mark.parametrize(("start", "keys", "end", "register", "linewise"), [
    ("one |two three", "yw", "one |two three", "two ", False),
    ("one two |three", "yb", "one |two three", "two ", False),
    ("one |two three", "y$", "one |two three", "two three", False),
    ("one\nt|wo\nthree", "yy", "one\nt|wo\nthree", "two\n", True),
    ("one\nt|wo\nthree", "2yy", "one\nt|wo\nthree", "two\nthree\n", True),
    ("one\nt|wo\nthree", "yj", "one\nt|wo\nthree", "two\nthree\n", True),
])
def test_yank_leaves_text(start: str, keys: str, end: str, register: str, linewise: bool) -> None:
    text, cursor, _, vim = run(start, keys)
    assert shown(text, cursor) == end
    assert (vim.register, vim.linewise) == (register, linewise)


@pytest.mark.parametrize(("start", "keys", "end"), [
    ("|one two", "ywP", "one| one two"),
    ("|one two", "dwp", "tone| wo"),
    ("a|bc", "xp", "ac|b"),
    ("a|bc", "x2p", "acb|b"),
    ("o|ne\ntwo", "yyp", "one\n|one\ntwo"),
    ("one\nt|wo", "yyP", "one\n|two\ntwo"),
    ("o|ne\ntwo", "ddp", "two\n|one"),
    ("o|ne\ntwo", "yy2p", "one\n|one\none\ntwo"),
    ("|", "p", "|"),
])
def test_put(start: str, keys: str, end: str) -> None:
    text, cursor, _, _ = run(start, keys)
    assert shown(text, cursor) == end


@pytest.mark.parametrize(("start", "keys", "end"), [
    ("a|bc", "rX", "a|Xc"),
    ("a|bcd", "3rX", "aXX|X"),
    ("a|bc", "5rX", "a|bc"),  # too few characters: nothing, as in vim
    ("a|bc", ["r", "escape"], "a|bc"),
])
def test_replace(start: str, keys: str | list[str], end: str) -> None:
    text, cursor, mode, _ = run(start, keys)
    assert shown(text, cursor) == end
    assert mode == NORMAL


@pytest.mark.parametrize(("start", "keys", "end"), [
    ("ab|c", "iX", "abX|c"),
    ("ab|c", "aX", "abcX|"),
    ("  ab|c", "IX", "  X|abc"),
    ("a|bc", "AX", "abcX|"),
    ("a|bc\ndef", "oX", "abc\nX|\ndef"),
    ("abc\nd|ef", "OX", "abc\nX|\ndef"),
])
def test_insert_commands(start: str, keys: str, end: str) -> None:
    text, cursor, mode, _ = run(start, keys)
    assert shown(text, cursor) == end
    assert mode == INSERT


def test_escape_leaves_insert_one_left() -> None:
    text, cursor, mode, _ = run("ab|c", ["i", "X", "Y", "escape"])
    assert (shown(text, cursor), mode) == ("abX|Yc", NORMAL)


def test_insert_mode_leaves_keys_to_the_editor() -> None:
    vim = VimMachine()
    assert vim.mode == INSERT  # as Claude Code's vim mode starts
    for key in ("a", "d", "enter", "backspace", "left"):
        assert not vim.feed("text", 2, key).handled


def test_normal_mode_swallows_letters_and_passes_other_keys() -> None:
    vim = VimMachine(mode=NORMAL)
    out = vim.feed("text", 1, "z")
    assert out.handled and out.text == "text"
    assert not vim.feed("text", 1, "left").handled
    out = vim.feed("text", 1, "backspace")
    assert (out.handled, out.text, out.cursor) == (True, "text", 0)  # moves left, deletes nothing


def test_escape_in_normal_mode_is_not_handled_so_it_interrupts() -> None:
    vim = VimMachine(mode=NORMAL)
    assert not vim.feed("text", 1, "escape").handled


def test_escape_cancels_a_pending_operator_first() -> None:
    vim = VimMachine(mode=NORMAL)
    vim.feed("text", 1, "d")
    assert vim.pending == "d"
    assert vim.feed("text", 1, "escape").handled
    assert vim.pending == ""
    assert not vim.feed("text", 1, "escape").handled


def test_undo_steps_back_through_changes() -> None:
    text, cursor, _, vim = run("|one two three", "dwdw")
    assert text == "three"
    text, cursor, _, _ = run(text, "u", cursor, machine=vim)
    assert text == "two three"
    text, cursor, _, _ = run(text, "u", cursor, machine=vim)
    assert text == "one two three"
    text, cursor, _, _ = run(text, "u", cursor, machine=vim)
    assert text == "one two three"


def test_undo_takes_back_an_insert_as_one_change() -> None:
    text, cursor, _, _ = run("ab|c", ["i", "X", "Y", "escape", "u"])
    assert text == "abc"


@pytest.mark.parametrize(("start", "keys", "end"), [
    ("|a b c d", "dw.", "|c d"),
    ("|abcdef", "2x.", "|ef"),
    ("|one two three", ["c", "w", "X", "escape", "w", "."], "X |X three"),
    ("|a\nb", ["A", "!", "escape", "j", "."], "a!\nb|!"),
    ("o|ne\ntwo\nthree", "dd.", "|three"),
    ("a|bc", "rX.", "a|Xc"),
])
def test_dot_repeats_the_last_change(start: str, keys: str | list[str], end: str) -> None:
    text, cursor, _, _ = run(start, keys)
    assert shown(text, cursor) == end


def test_dot_without_a_change_does_nothing() -> None:
    text, cursor, _, _ = run("a|bc", "l.")
    assert shown(text, cursor) == "ab|c"


def test_counts_of_more_than_one_digit() -> None:
    text, cursor, _, _ = run("|" + "x" * 15, "12x")
    assert text == "xxx"


def test_zero_is_a_motion_unless_in_a_count() -> None:
    text, cursor, _, _ = run("|" + "abcdefghijklm", "10l0")
    assert cursor == 0
    text, cursor, _, _ = run("|" + "abcdefghijklm", "10l")
    assert cursor == 10


def test_cursor_never_rests_on_the_newline_in_normal_mode() -> None:
    text, cursor, _, _ = run("ab|\ncd", [], 2)
    vim = VimMachine(mode=NORMAL)
    out = vim.feed("ab\ncd", 1, "l")
    assert out.cursor == 1  # stays on b
    out = vim.feed("ab\ncd", 0, "$")
    assert out.cursor == 1


def test_an_empty_prompt_takes_every_key_safely() -> None:
    for key in "hjklwbe0^$GxpPu.DCdd":
        vim = VimMachine(mode=NORMAL)
        out = vim.feed("", 0, key)
        assert (out.text, out.cursor) == ("", 0)
