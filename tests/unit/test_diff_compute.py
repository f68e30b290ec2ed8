"""diff_texts against the CLI's structuredPatch, and the permission-dialog previews."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_tui.diff import (
    compute,
    count_changes,
    diff_texts,
    file_diff_from_tool_result,
    hunks_from_structured_patch,
    preview_delete,
    preview_edit,
    preview_multiedit,
    preview_notebook,
    preview_write,
)
from claude_tui.diff.model import NO_NEWLINE, Hunk

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "claude-code-2.1.330"


def _tool_results(name: str) -> list[dict]:
    out = []
    for line in (FIXTURES / f"{name}.stdout.ndjson").read_text().splitlines():
        record = json.loads(line)
        if isinstance(record.get("tool_use_result"), dict):
            out.append(record["tool_use_result"])
    assert out, f"no tool_use_result in {name}"
    return out


def _structured(hunks: list[Hunk]) -> list[dict]:
    return [h.to_structured() for h in hunks]


@pytest.mark.parametrize("name", ["edit-allow", "write-overwrite"])
def test_diff_texts_reproduces_the_cli_structured_patch(name: str) -> None:
    for result in _tool_results(name):
        original = result["originalFile"]
        if "content" in result:
            updated = result["content"]
        else:
            updated = original.replace(result["oldString"], result["newString"], 1)
        assert result["structuredPatch"], "the recording must carry a patch"
        assert _structured(diff_texts(original, updated)) == result["structuredPatch"]


def test_preview_edit_matches_the_recorded_edit_before_approval() -> None:
    (result,) = _tool_results("edit-allow")
    diff = preview_edit(result["originalFile"], result["oldString"], result["newString"], False, path="a.txt")
    assert _structured(diff.hunks) == result["structuredPatch"]
    assert (diff.kind, diff.added, diff.removed, diff.note) == ("edit", 1, 1, "")


def test_write_create_result_is_all_added_though_the_cli_patch_is_empty() -> None:
    (result,) = _tool_results("write-create")
    assert result["structuredPatch"] == []
    diff = file_diff_from_tool_result("Write", {}, result)
    assert diff is not None
    assert diff.kind == "create" and diff.path.endswith("new.txt")
    assert (diff.added, diff.removed) == (2, 0)
    assert _structured(diff.hunks) == [
        {"oldStart": 1, "oldLines": 0, "newStart": 1, "newLines": 2, "lines": ["+line1", "+line2"]}
    ]
    assert diff.hunks[0].header == "@@ -0,0 +1,2 @@"


def test_tool_results_for_edit_and_write_update() -> None:
    (edit,) = _tool_results("edit-allow")
    diff = file_diff_from_tool_result("Edit", {}, edit)
    assert diff is not None and diff.kind == "edit" and diff.path == "/home/user/project/a.txt"
    (write,) = _tool_results("write-overwrite")
    diff = file_diff_from_tool_result("Write", {}, write)
    assert diff is not None and (diff.kind, diff.added, diff.removed) == ("update", 2, 1)
    assert file_diff_from_tool_result("Bash", {}, {"stdout": ""}) is None
    assert file_diff_from_tool_result("Edit", {}, None) is None


def test_hunks_joined_within_six_context_lines_and_split_beyond() -> None:
    old = "".join(f"l{i}\n" for i in range(1, 30))
    joined = diff_texts(old, old.replace("l5\n", "L5\n").replace("l12\n", "L12\n"))
    assert len(joined) == 1 and (joined[0].old_start, joined[0].old_lines) == (2, 14)
    split = diff_texts(old, old.replace("l5\n", "L5\n").replace("l13\n", "L13\n"))
    assert [(h.old_start, h.old_lines, h.new_start, h.new_lines) for h in split] == [(2, 7, 2, 7), (10, 7, 10, 7)]


def test_missing_final_newline_gets_the_jsdiff_marker() -> None:
    (hunk,) = diff_texts("a\nb", "a\nc")
    assert hunk.lines == [" a", "-b", NO_NEWLINE, "+c", NO_NEWLINE]
    (hunk,) = diff_texts("a\nb", "a\nb\n")
    assert hunk.lines == [" a", "-b", NO_NEWLINE, "+b"]


def test_identical_texts_have_no_hunks() -> None:
    assert diff_texts("same\n", "same\n") == []


def test_preview_edit_replace_all_and_first_occurrence() -> None:
    text = "x = 1\ny = x\nz = x\n"
    first = preview_edit(text, "x", "w", replace_all=False)
    assert "occurs 3 times" in first.note
    assert (first.added, first.removed) == (1, 1)
    every = preview_edit(text, "x", "w", replace_all=True)
    assert every.note == ""
    assert (every.added, every.removed) == (3, 3)
    assert [line for line in every.hunks[0].lines if line.startswith("+")] == ["+w = 1", "+y = w", "+z = w"]


def test_preview_edit_old_string_not_found() -> None:
    diff = preview_edit("alpha\n", "beta", "gamma", path="a.txt")
    assert diff.hunks == [] and "not found" in diff.note
    assert (diff.added, diff.removed) == (0, 0)


def test_preview_edit_straightens_curly_quotes_like_the_cli() -> None:
    diff = preview_edit("say(\u201chi\u201d)\n", 'say("hi")', 'say("bye")')
    assert diff.hunks and diff.hunks[0].lines == ["-say(\u201chi\u201d)", '+say("bye")']


def test_preview_edit_deleting_a_line_takes_its_newline() -> None:
    diff = preview_edit("a\nb\nc\n", "b", "")
    assert diff.hunks[0].lines == [" a", "-b", " c"]


def test_preview_edit_on_missing_file() -> None:
    created = preview_edit(None, "", "hello\n", path="n.txt")
    assert created.kind == "create" and created.added == 1
    refused = preview_edit(None, "x", "y")
    assert refused.hunks == [] and "does not exist" in refused.note


def test_preview_multiedit_applies_in_order_and_refuses_on_failure() -> None:
    text = "one\ntwo\nthree\n"
    diff = preview_multiedit(text, [{"old_string": "one", "new_string": "1"}, {"old_string": "1\ntwo", "new_string": "1\n2"}])
    assert (diff.added, diff.removed) == (2, 2)
    failed = preview_multiedit(text, [{"old_string": "one", "new_string": "1"}, {"old_string": "four", "new_string": "4"}])
    assert failed.hunks == [] and failed.note.startswith("Edit 2 of 2")


def test_preview_write_create_update_and_delete() -> None:
    created = preview_write(False, None, "a\nb\n", path="n.py")
    assert (created.kind, created.added, created.removed) == ("create", 2, 0)
    assert all(line.startswith("+") for line in created.hunks[0].lines)
    updated = preview_write(True, "a\nb\n", "a\nc\n")
    assert (updated.kind, updated.added, updated.removed) == ("update", 1, 1)
    same = preview_write(True, "a\n", "a\n")
    assert same.hunks == [] and same.note == "No changes."
    deleted = preview_delete("a\nb\nc\n", path="gone.txt")
    assert (deleted.kind, deleted.added, deleted.removed) == ("delete", 0, 3)
    assert deleted.hunks[0].header == "@@ -1,3 +0,0 @@"


def test_binary_content_is_guarded() -> None:
    for content in (b"\x89PNG\x00\x01", b"\xff\xfe\xfa", "text\x00more"):
        diff = preview_write(True, content, "x\n", path="img.png")
        assert diff.kind == "binary" and diff.hunks == [] and "Binary" in diff.note
    assert preview_edit(b"\x00\x01", "a", "b").kind == "binary"


def test_huge_content_is_guarded_quickly() -> None:
    many_lines = "x\n" * (compute.MAX_LINES + 1)
    diff = preview_write(True, many_lines, many_lines + "y\n", path="big.log")
    assert diff.kind == "huge" and diff.hunks == [] and "Large content" in diff.note
    long_text = "y" * (compute.MAX_CHARS + 1)
    assert preview_edit(long_text, "y", "z").kind == "huge"
    assert preview_write(False, None, long_text).kind == "huge"


def _notebook() -> str:
    cells = [
        {"id": "c1", "cell_type": "markdown", "source": ["# Title\n"]},
        {"id": "c2", "cell_type": "code", "source": ["x = 1\n", "print(x)"]},
    ]
    return json.dumps({"cells": cells, "nbformat": 4})


def test_preview_notebook_replace_insert_delete() -> None:
    replaced = preview_notebook(_notebook(), "c2", "x = 2\nprint(x)", path="n.ipynb")
    assert replaced.kind == "notebook" and "code" in replaced.note
    assert (replaced.added, replaced.removed) == (1, 1)
    inserted = preview_notebook(_notebook(), "c1", "y = 3\n", "code", "insert")
    assert (inserted.added, inserted.removed) == (1, 0) and "Insert code cell after cell c1" in inserted.note
    deleted = preview_notebook(_notebook(), "c1", "", edit_mode="delete")
    assert (deleted.added, deleted.removed) == (0, 1) and "markdown" in deleted.note
    by_index = preview_notebook(_notebook(), "cell-1", "z\n")
    assert by_index.removed == 2
    missing = preview_notebook(_notebook(), "nope", "z\n")
    assert "not found" in missing.note and missing.added == 1


def test_hunks_from_structured_patch_skips_bad_entries() -> None:
    patch = [
        {"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-a", "+b"]},
        {"oldStart": "1", "oldLines": 1, "newStart": 1, "newLines": 1, "lines": []},
        {"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1},
        "junk",
        {"oldStart": 5, "oldLines": 0, "newStart": 5, "newLines": 1, "lines": ["+c", 7, "?bad"]},
    ]
    hunks = hunks_from_structured_patch(patch)
    assert [(h.old_start, h.lines) for h in hunks] == [(1, ["-a", "+b"]), (5, ["+c"])]
    assert hunks_from_structured_patch(None) == []


def _apply(old: str, hunks: list[Hunk]) -> str:
    """Apply structuredPatch hunks to ``old`` (a tiny patch(1)) to check they are right."""
    lines = old.splitlines(keepends=True)
    out: list[str] = []
    cursor = 0
    for hunk in hunks:
        start = hunk.old_start - 1
        out += lines[cursor:start]
        cursor = start
        body = hunk.lines
        for index, line in enumerate(body):
            if line == NO_NEWLINE:
                continue
            missing_newline = index + 1 < len(body) and body[index + 1] == NO_NEWLINE
            text = line[1:] + ("" if missing_newline else "\n")
            if line[0] in " -":
                assert lines[cursor] == text, (cursor, lines[cursor], text)
                cursor += 1
            if line[0] in " +":
                out.append(text)
    out += lines[cursor:]
    return "".join(out)


def test_hunks_apply_back_on_small_random_edits() -> None:
    import random

    rng = random.Random(5)
    for _ in range(300):
        old_lines = [rng.choice("abcdef") for _ in range(rng.randint(0, 30))]
        new_lines = list(old_lines)
        for _ in range(rng.randint(1, 5)):
            spot = rng.randint(0, len(new_lines))
            if new_lines and rng.random() < 0.5:
                del new_lines[min(spot, len(new_lines) - 1)]
            else:
                new_lines.insert(spot, rng.choice("abcxyz"))
        old = "\n".join(old_lines) + ("\n" if rng.random() < 0.8 else "")
        new = "\n".join(new_lines) + ("\n" if rng.random() < 0.8 else "")
        old = "" if old == "\n" else old
        new = "" if new == "\n" else new
        assert _apply(old, diff_texts(old, new)) == new, (old, new)


def test_large_inputs_take_the_anchored_path_and_stay_correct() -> None:
    old = "".join(f"row {i}\n" for i in range(12_000))
    new = "".join(f"row {i}{' changed' if i % 5 == 0 else ''}\n" for i in range(12_000)) + "tail\n"
    hunks = diff_texts(old, new)
    assert _apply(old, hunks) == new
    assert count_changes(hunks) == (2_401, 2_400)
