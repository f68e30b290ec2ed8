"""Pure helpers behind the permission, question and plan dialogs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from claude_tui.session.permissions import PermissionRequest
from claude_tui.ui.dialogs.plan import plan_text
from claude_tui.ui.dialogs.questions import (
    Answer,
    answer_text,
    build_answers,
    is_complete,
    parse_questions,
)
from claude_tui.ui.dialogs.tool_input import (
    DISPLAY_LIMIT,
    HIGHLIGHT_LIMIT,
    clean,
    clean_block,
    editable_field,
    file_path_of,
    has_controls,
    input_sections,
    read_guarded,
    tool_diff_preview,
    tool_title,
)
from claude_tui.ui.kit.attention import (
    notification_escape,
    notify_style,
    safe_label,
)

# ---------------------------------------------------------------- text


def test_clean_makes_escapes_visible() -> None:
    assert "\x1b" not in clean("a\x1b[31mb")
    assert clean("plain [b]markup[/b]") == "plain [b]markup[/b]"


def test_clean_takes_values_that_are_not_strings() -> None:
    # Tool input is arbitrary JSON: a non-string field must still render, not crash the dialog.
    assert clean(123) == "123"
    [url] = input_sections("WebFetch", {"url": 123})
    assert url.body.plain == "123"


def test_clean_block_keeps_lines_and_expands_tabs() -> None:
    assert clean_block("a\r\n\tb\x07") == "a\n    b␇"


@pytest.mark.parametrize(
    ("name", "display", "expected"),
    [
        ("mcp__github__create_issue", "", "github › create_issue"),
        ("mcp__srv__tool__with__parts", "", "srv › tool__with__parts"),
        ("mcp__broken", "", "mcp__broken"),
        ("Bash", "", "Bash"),
        ("Bash", "Shell", "Shell"),
        ("Evil\x1b]0;x\x07", "", "Evil␛]0;x␇"),
    ],
)
def test_tool_title(name: str, display: str, expected: str) -> None:
    assert tool_title(name, display) == expected


# ---------------------------------------------------------------- input sections


def test_bash_section_is_highlighted_with_flags() -> None:
    [section] = input_sections("Bash", {"command": "ls -la", "timeout": 120000, "run_in_background": True})
    assert section.label == "Command" and section.body.plain == "ls -la"
    assert section.body.spans  # highlighted
    assert section.note == "runs in the background · timeout 120 s"


def test_long_commands_are_plain_then_cut_with_a_warning() -> None:
    [long] = input_sections("Bash", {"command": "x" * (HIGHLIGHT_LIMIT + 1)})
    assert not long.body.spans and long.note == ""
    [huge] = input_sections("Bash", {"command": "y" * (DISPLAY_LIMIT + 10)})
    assert len(huge.body.plain) == DISPLAY_LIMIT and "press e to see all" in huge.note


def test_webfetch_and_websearch_sections() -> None:
    url, prompt = input_sections("WebFetch", {"url": "https://e.com/\x1b", "prompt": "sum"})
    assert (url.label, url.body.plain, prompt.body.plain) == ("URL", "https://e.com/␛", "sum")
    [query] = input_sections("WebSearch", {"query": "textual"})
    assert query.body.plain == "textual"


def test_other_tools_show_json_and_file_tools_nothing() -> None:
    [section] = input_sections("mcp__a__b", {"k": "v\x1b"})
    assert section.label == "Arguments" and '"k": "v\\u001b"' in section.body.plain
    [section] = input_sections("Read", {})
    assert section.body.plain == "(no input)"
    assert input_sections("Edit", {"file_path": "/a"}) == []


def test_editable_fields_and_paths() -> None:
    assert editable_field("Bash", {"command": "ls"}) == "command"
    assert editable_field("Edit", {"new_string": "x"}) == "new_string"
    assert editable_field("Write", {"content": "x"}) == "content"
    assert editable_field("Write", {"content": 3}) is None
    assert editable_field("Read", {"file_path": "x"}) is None
    assert file_path_of("Edit", {"file_path": "/a"}) == "/a"
    assert file_path_of("NotebookEdit", {"notebook_path": "/n.ipynb"}) == "/n.ipynb"
    assert file_path_of("Bash", {"file_path": "/a"}) is None


@pytest.mark.parametrize(("text", "expected"), [("ls\n\tx", False), ("a\x1bb", True), ("a\rb", True), ("é ✓", False)])
def test_has_controls(text: str, expected: bool) -> None:
    assert has_controls(text) is expected


# ---------------------------------------------------------------- previews on disk


def test_read_guarded(tmp_path: Path) -> None:
    assert read_guarded(tmp_path / "missing", "missing").exists is False
    (tmp_path / "f").write_bytes(b"abc")
    assert read_guarded(tmp_path / "f", "f").data == b"abc"
    assert read_guarded(tmp_path, "dir").guard is not None
    big = tmp_path / "big"
    big.write_bytes(b"x" * 2048)
    guarded = read_guarded(big, "big", limit=1024)
    assert guarded.data is None and guarded.guard is not None and guarded.guard.kind == "huge"
    assert "2.0 KB" in guarded.guard.note


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_read_guarded_never_opens_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = read_guarded(fifo, "pipe")  # opening it would block forever
    assert result.guard is not None and result.data is None


def test_load_preview_edit_write_multiedit(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\nbeta\n")
    edit = tool_diff_preview("Edit", {"file_path": "a.txt", "old_string": "beta", "new_string": "BETA"}, tmp_path)
    assert edit is not None and (edit.kind, edit.added, edit.removed, edit.path) == ("edit", 1, 1, "a.txt")
    create = tool_diff_preview("Write", {"file_path": str(tmp_path / "new.txt"), "content": "x\n"})
    assert create is not None and create.kind == "create"
    update = tool_diff_preview("Write", {"file_path": "a.txt", "content": "alpha\n"}, tmp_path)
    assert update is not None and (update.kind, update.removed) == ("update", 1)
    multi = tool_diff_preview("MultiEdit", {"file_path": "a.txt", "edits": [{"old_string": "alpha", "new_string": "A"},
                                                                       {"old_string": "beta", "new_string": "B"}]},
                         tmp_path)
    assert multi is not None and multi.added == 2
    assert tool_diff_preview("Bash", {"command": "ls"}) is None


def test_load_preview_binary(tmp_path: Path) -> None:
    (tmp_path / "b.bin").write_bytes(b"\0\1\2")
    diff = tool_diff_preview("Write", {"file_path": "b.bin", "content": "text"}, tmp_path)
    assert diff is not None and diff.kind == "binary"


# ---------------------------------------------------------------- questions


QUESTIONS = {
    "questions": [
        {"question": "Which color?", "header": "Color", "multiSelect": False,
         "options": [{"label": "Red", "description": "warm"}, {"label": "Blue", "description": "cool"}]},
        {"question": "Which toppings?", "header": "Toppings", "multiSelect": True,
         "options": [{"label": "Cheese"}, {"label": "Olives"}, {"label": "Basil"}]},
    ]
}


def test_parse_questions() -> None:
    color, toppings = parse_questions(QUESTIONS)
    assert (color.header, color.multi, [c.label for c in color.choices]) == ("Color", False, ["Red", "Blue"])
    assert toppings.multi and toppings.choices[0].description == ""


def test_parse_questions_is_lenient() -> None:
    assert parse_questions({"questions": "x"}) == []
    assert parse_questions({}) == []
    [only] = parse_questions({"questions": [1, {"question": ""}, {"question": "Q", "options": [{"label": 2}, "x"]}]})
    assert only.header == "Q1" and only.choices == ()
    many = parse_questions({"questions": [{"question": f"Q{i}"} for i in range(9)]})
    assert len(many) == 4


def test_answers_join_labels_and_other_text() -> None:
    color, toppings = parse_questions(QUESTIONS)
    assert answer_text(color, Answer({1})) == "Blue"
    assert answer_text(toppings, Answer({1, 0})) == "Cheese, Olives"
    assert answer_text(toppings, Answer({0, 3}, "  anchovies ")) == "Cheese, anchovies"
    assert answer_text(color, Answer({2}, "green")) == "green"
    assert not is_complete(color, Answer({2}, "   "))
    assert not is_complete(toppings, Answer())
    answers = build_answers([color, toppings], [Answer({1}), Answer({0, 1})])
    assert answers == {"Which color?": "Blue", "Which toppings?": "Cheese, Olives"}


# ---------------------------------------------------------------- attention escapes


def test_safe_label_strips_everything_dangerous() -> None:
    label = safe_label("mcp__evil__x\x1b]9;;boom\x07\u202e; rm")
    assert label == "evil x 9 boom rm"
    assert safe_label("\x1b\x07") == "a tool"
    assert len(safe_label("a" * 500)) == 48


def test_notification_escapes() -> None:
    assert notification_escape("Claude Code", "permission needed for Bash") == (
        "\x1b]9;Claude Code: permission needed for Bash\x07"
    )
    assert notification_escape("T", "b;\x07x", "osc777") == "\x1b]777;notify;T;b x\x07"


@pytest.mark.parametrize(
    ("env", "style"),
    [({"TERM": "rxvt-unicode"}, "osc777"), ({"TERM": "foot"}, "osc777"), ({"VTE_VERSION": "7000"}, "osc777"),
     ({"TERM": "xterm-kitty"}, "osc9"), ({}, "osc9")],
)
def test_notify_style(env: dict[str, str], style: str) -> None:
    assert notify_style(env) == style


# ---------------------------------------------------------------- plan text


def test_plan_text() -> None:
    assert plan_text(PermissionRequest("r", "ExitPlanMode", {}, plan="# P\n\x1b[31mx")) == "# P\n␛[31mx"
    assert plan_text(PermissionRequest("r", "ExitPlanMode", {"plan": "from input"})) == "from input"
    assert "did not include a plan" in plan_text(PermissionRequest("r", "ExitPlanMode", {}))
