"""What a permission dialog shows of an input: nothing that runs hidden in whitespace (issue 28, item 2)."""

from __future__ import annotations

from claude_tui.protocol.reveal import LONG_RUN, conceals, reveal
from claude_tui.ui.dialogs.tool_input import input_sections

HIDDEN = "echo hello" + "\n" * 200 + "touch PWNED"


def marked(text: str) -> list[str]:
    shown = reveal(text)
    return [shown.text[start:end] for start, end in shown.marks]


def test_a_run_of_blank_lines_is_one_marker_saying_how_many() -> None:
    shown = reveal(HIDDEN)
    assert shown.text == "echo hello\n⋯ 199 blank lines ⋯\ntouch PWNED"
    assert marked(HIDDEN) == ["⋯ 199 blank lines ⋯"]
    assert shown.lines == 201
    assert shown.last_line == "touch PWNED"


def test_lines_of_spaces_count_as_blank() -> None:
    assert reveal("a\n   \n\t\n \nb").text == "a\n⋯ 3 blank lines ⋯\nb"


def test_one_blank_line_stays_a_row() -> None:
    assert reveal("a\n\nb").text == "a\n\nb"
    assert marked("a\n\nb") == []


def test_a_final_newline_is_no_blank_line() -> None:
    assert reveal("ls\n").text == "ls"
    assert reveal("ls\n").lines == 1
    assert reveal("ls\n\n\n").text == "ls\n⋯ 2 blank lines ⋯"


def test_trailing_spaces_show() -> None:
    assert reveal("rm -rf build  \nls").text == "rm -rf build··\nls"
    assert marked("x \t") == ["···"]  # the space and the tab (to column 4): each cell shown


def test_a_long_run_of_spaces_inside_a_line_is_counted() -> None:
    # Wrapped, 500 spaces are rows of nothing between "echo hi" and what runs after them.
    text = "echo hi" + " " * 500 + "; touch PWNED"
    assert reveal(text).text == "echo hi⟨500 spaces⟩; touch PWNED"
    assert reveal("a" + " " * LONG_RUN + "b").text == "a" + " " * LONG_RUN + "b"
    assert reveal("a" + " " * 999).text == "a⟨999 spaces⟩"


def test_carriage_returns_show_crlf_included() -> None:
    # bash takes a \r as part of the word; a terminal would move back over the line with it.
    assert reveal("echo ok\r\nls").text == "echo ok␍\nls"
    assert reveal("harmless\rrm -rf ~").text == "harmless␍rm -rf ~"
    assert marked("a\rb") == ["␍"]


def test_controls_bidi_and_invisible_characters_show() -> None:
    assert reveal("a\x1b[2Jb").text == "a␛[2Jb"
    assert reveal("a\u202eb").text == "a\\u202eb"
    assert reveal("a\u200bb\u200fc\ufeff").text == "a\\u200bb\\u200fc\\ufeff"
    assert reveal("l1\u2028l2").text == "l1\\u2028l2"
    assert marked("a\u200bb") == ["\\u200b"]


def test_bytes_that_were_not_utf8_show_as_hex() -> None:
    assert reveal("a\udcffb").text == "a\\xffb"


def test_the_last_line_is_its_end_when_long() -> None:
    shown = reveal("echo start\n" + "x" * 500 + "; touch PWNED\n\n\n")
    assert shown.last_line.startswith("…")
    assert shown.last_line.endswith("x; touch PWNED")
    assert len(shown.last_line) == 120


def test_plain_text_is_unchanged() -> None:
    script = "set -e\n\nfor f in *.py; do\n    echo \"$f\"\ndone"
    assert reveal(script).text == script
    assert reveal(script).marks == ()


def test_conceals_names_what_a_plain_view_would_hide() -> None:
    assert conceals(HIDDEN)
    assert conceals("x\r\n")
    assert conceals("a" + " " * 40 + "b")
    assert conceals("a\u200bb")
    assert not conceals("def f():\n    pass\n\n\nclass C:\n    pass\n")


# ---------------------------------------------------------------- every input a dialog shows


def test_bash_command_section_is_revealed_with_its_last_line() -> None:
    [section] = input_sections("Bash", {"command": HIDDEN})
    assert section.body.plain == "echo hello\n⋯ 199 blank lines ⋯\ntouch PWNED"
    assert section.last_line == "touch PWNED"


def test_webfetch_url_and_prompt_are_revealed() -> None:
    url, prompt = input_sections("WebFetch", {"url": "https://ok.example\n\n\n\nhttps://evil.example",
                                              "prompt": "summarise  "})
    assert url.body.plain == "https://ok.example\n⋯ 3 blank lines ⋯\nhttps://evil.example"
    assert prompt.body.plain == "summarise··"


def test_mcp_arguments_json_is_revealed() -> None:
    [section] = input_sections("mcp__srv__run", {"cmd": "ls" + " " * 300 + "&& touch PWNED"})
    assert '"ls⟨300 spaces⟩&& touch PWNED"' in section.body.plain


def test_write_content_that_hides_something_gets_its_own_section() -> None:
    # The diff preview would draw 200 blank rows; the section says what is there.
    [content] = input_sections("Write", {"file_path": "run.sh", "content": HIDDEN})
    assert content.label == "Content"
    assert "⋯ 199 blank lines ⋯" in content.body.plain
    assert content.last_line == "touch PWNED"
    [new] = input_sections("Edit", {"file_path": "a.py", "old_string": "a", "new_string": "b\r\n"})
    assert new.body.plain == "b␍"
    assert input_sections("Write", {"file_path": "a.py", "content": "print(1)\n"}) == []


def test_an_always_allow_rule_is_shown_as_the_input_is() -> None:
    from claude_tui.ui.dialogs.permission import suggestion_content

    rule = {"type": "addRules", "behavior": "allow", "destination": "localSettings",
            "rules": [{"toolName": "Bash", "ruleContent": HIDDEN}]}
    shown = suggestion_content(rule).plain
    assert "⋯ 199 blank lines ⋯" in shown and "touch PWNED" in shown


def test_multiedit_edits_that_hide_something_get_their_own_section() -> None:
    edits = [{"old_string": "a", "new_string": "b"}, {"old_string": "x", "new_string": HIDDEN}]
    [section] = input_sections("MultiEdit", {"file_path": "run.sh", "edits": edits})
    assert section.label == "Edit 2: new text" and section.last_line == "touch PWNED"
