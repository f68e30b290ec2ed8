"""Taking part of a change: the rebuilt edit gives exactly the original plus the accepted hunks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claude_tui.diff.compute import _replace, diff_texts
from claude_tui.diff.partial import (
    HunkChoice,
    HunkMismatch,
    apply_hunks,
    left_out_note,
    new_side,
    old_side,
    rebuilt_input,
    single_edit,
)

# Few distinct lines, so texts repeat lines (an Edit's old_string must still come out unique).
LINE = st.sampled_from(["a", "b", "c", "", "  d", "a "])
TEXT = st.lists(LINE, max_size=30).map("\n".join) | st.lists(LINE, max_size=30).map(
    lambda lines: "".join(line + "\n" for line in lines))


def spliced(before: str, after: str, keep: set[int]) -> str:
    """An independent oracle: per hunk, cut old side out of `before` at its line and put the new side in."""
    lines = before.splitlines(keepends=True)
    for number, hunk in reversed(list(enumerate(diff_texts(before, after)))):
        if number in keep:
            start = max(hunk.old_start - 1, 0)
            lines[start:start + hunk.old_lines] = [new_side(hunk)]
    return "".join(lines)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT, st.data())
def test_the_rebuilt_edit_applies_exactly_the_accepted_hunks(before: str, after: str, data: st.DataObject) -> None:
    hunks = diff_texts(before, after)
    keep = set(data.draw(st.lists(st.integers(0, max(len(hunks) - 1, 0)), max_size=len(hunks))))
    partial = apply_hunks(before, hunks, keep)
    assert partial == spliced(before, after, keep)
    assert apply_hunks(before, hunks, set(range(len(hunks)))) == after
    assert apply_hunks(before, hunks, set()) == before
    old_string, new_string = single_edit(before, partial)
    if before:
        assert before.count(old_string) == 1
        assert _replace(before, old_string, new_string, False) == partial  # as the CLI applies an Edit
    else:
        assert (old_string, new_string) == ("", partial)
    # The partial text's own diff holds the accepted hunks' changes and nothing else.
    changed = [line for h in diff_texts(before, partial) for line in h.lines if line[:1] in "+-"]
    accepted = [line for n, h in enumerate(hunks) if n in keep for line in h.lines if line[:1] in "+-"]
    assert sorted(changed) == sorted(accepted)


@settings(max_examples=200, deadline=None)
@given(TEXT, TEXT, TEXT)
def test_a_rewritten_hunk_replaces_its_old_side(before: str, after: str, rewrite: str) -> None:
    hunks = diff_texts(before, after)
    if not hunks:
        return
    partial = apply_hunks(before, hunks, {0}, {0: rewrite})
    start = max(hunks[0].old_start - 1, 0)
    lines = before.splitlines(keepends=True)
    assert partial == "".join(lines[:start]) + rewrite + "".join(lines[start + hunks[0].old_lines:])


def test_two_hunks_one_taken() -> None:
    before = "".join(f"line {n}\n" for n in range(1, 21))
    after = before.replace("line 2\n", "LINE 2\n").replace("line 18\n", "LINE 18\n")
    hunks = diff_texts(before, after)
    assert len(hunks) == 2
    partial = apply_hunks(before, hunks, {1})
    assert partial == before.replace("line 18\n", "LINE 18\n")
    edit = rebuilt_input("Edit", {"file_path": "f", "old_string": "x", "new_string": "y", "replace_all": True},
                         before, partial)
    assert edit == {"file_path": "f", "old_string": "line 18\n", "new_string": "LINE 18\n", "replace_all": False}


def test_a_repeated_line_is_widened_until_unique() -> None:
    before = "x\nsame\nx\nsame\n"
    old_string, new_string = single_edit(before, "x\nsame\nx\nSAME\n")
    assert before.count(old_string) == 1
    assert before.replace(old_string, new_string, 1) == "x\nsame\nx\nSAME\n"


def test_sides_keep_a_missing_final_newline() -> None:
    (hunk,) = diff_texts("a\nb", "a\nc")
    assert old_side(hunk) == "a\nb"
    assert new_side(hunk) == "a\nc"


def test_hunks_of_another_text_are_refused() -> None:
    hunks = diff_texts("a\nb\n", "a\nc\n")
    with pytest.raises(HunkMismatch):
        apply_hunks("q\nr\n", hunks, {0})


def test_each_tool_gets_its_own_field() -> None:
    assert rebuilt_input("Write", {"file_path": "f", "content": "new"}, "old\n", "kept\n")["content"] == "kept\n"
    multi = rebuilt_input("MultiEdit", {"file_path": "f", "edits": []}, "a\nb\n", "a\nB\n")
    assert multi["edits"] == [{"old_string": "b\n", "new_string": "B\n", "replace_all": False}]
    cell = rebuilt_input("NotebookEdit", {"notebook_path": "n", "new_source": "", "edit_mode": "delete"},
                         "x\ny\n", "x\n")
    assert (cell["new_source"], cell["edit_mode"]) == ("x\n", "replace")


def test_the_note_names_the_hunks_left_out_and_why() -> None:
    before = "".join(f"line {n}\n" for n in range(1, 21))
    hunks = diff_texts(before, before.replace("line 2\n", "LINE 2\n").replace("line 18\n", "LINE 18\n"))
    choice = HunkChoice(len(hunks))
    assert left_out_note("f.txt", hunks, choice) == ""
    choice.toggle()
    note = left_out_note("f.txt", hunks, choice, "keep line 2")
    assert "left out 1 of 2 hunks — hunk 1 (lines 1-5)" in note
    assert "-line 2\n+LINE 2" in note
    assert "LINE 18" not in note
    assert note.endswith("Why: keep line 2")
    choice.move(5)
    assert choice.cursor == 1
    assert choice.accepted == {1}
