"""Hunks → unified rows, split alignment, word highlights, truncation, the ChangeSet."""

from __future__ import annotations

from claude_tui.diff import ChangeSet, FileDiff, Hunk, changed_spans, diff_texts, split_rows, unified_rows
from claude_tui.diff.display import display_text, map_spans
from claude_tui.diff.rows import build_rows, truncate_rows
from claude_tui.diff.words import tokenize


def _kinds(rows) -> list[str]:
    return [row.kind for row in rows]


def test_unified_rows_number_lines_and_add_headers() -> None:
    hunk = Hunk(10, 3, 10, 4, [" a", "-b", "+B", "+C", " d"])
    rows = unified_rows([hunk])
    assert _kinds(rows) == ["collapsed", "hunk-header", "context", "remove", "add", "add", "context"]
    assert rows[0].text == "⋯ 9 unchanged lines"
    assert rows[1].text == "@@ -10,3 +10,4 @@"
    assert [(r.old_no, r.new_no) for r in rows[2:]] == [(10, 10), (11, None), (None, 11), (None, 12), (12, 13)]


def test_collapsed_rows_between_hunks() -> None:
    hunks = [Hunk(1, 2, 1, 2, [" a", "-b", "+B"]), Hunk(20, 1, 20, 1, ["-x", "+y"])]
    rows = unified_rows(hunks)
    collapsed = [r for r in rows if r.kind == "collapsed"]
    assert [r.text for r in collapsed] == ["⋯ 17 unchanged lines"]
    single = unified_rows([Hunk(1, 1, 1, 1, ["-a", "+b"]), Hunk(3, 1, 3, 1, ["-c", "+d"])])
    assert [r.text for r in single if r.kind == "collapsed"] == ["⋯ 1 unchanged line"]


def test_unified_pairs_removed_and_added_lines_for_word_highlights() -> None:
    rows = unified_rows([Hunk(1, 2, 1, 3, ["-foo = 1", "-bar = 2", "+foo = 10", "+bar = 2", "+baz = 3"])])
    changed = [r for r in rows if r.kind in ("add", "remove")]
    assert [r.pair for r in changed] == ["foo = 10", "bar = 2", "foo = 1", "bar = 2", None]
    removed, added = changed[0], changed[2]
    assert removed.word_spans() == ((6, 7),)
    assert added.word_spans() == ((6, 8),)


def test_note_lines_become_note_rows() -> None:
    rows = unified_rows(diff_texts("a\nb", "a\nc"))
    assert _kinds(rows) == ["hunk-header", "context", "remove", "note", "add", "note"]
    assert rows[3].text == "No newline at end of file"


def test_split_rows_align_unequal_runs_with_blanks() -> None:
    hunk = Hunk(1, 4, 1, 5, [" a", "-b", "-c", "-d", "+B", " e", "+f", "+g"])
    rows = split_rows([hunk])
    assert rows[0].full is not None and rows[0].full.kind == "hunk-header"
    pairs = [(r.left and r.left.text, r.right and r.right.text) for r in rows[1:]]
    assert pairs == [("a", "a"), ("b", "B"), ("c", None), ("d", None), ("e", "e"), (None, "f"), (None, "g")]
    context = rows[1]
    assert (context.left.old_no, context.right.new_no) == (1, 1)
    assert rows[2].left.pair == "B" and rows[2].right.pair == "b"


def test_split_rows_put_notes_on_their_side() -> None:
    rows = split_rows(diff_texts("a\nb", "a\nc"))
    sides = [(r.left and r.left.kind, r.right and r.right.kind) for r in rows[1:]]
    assert sides == [("context", "context"), ("remove", "add"), ("note", "note")]


def test_word_spans_skip_unrelated_long_or_equal_lines() -> None:
    assert changed_spans("return total", "return total") is None
    assert changed_spans("alpha beta gamma", "completely different words here!") is None
    assert changed_spans("x" * 2000, "y" * 2000) is None
    left, right = changed_spans("print('hi', name)", "print('hello', name, end='')")
    assert left == ((7, 9),)
    assert right[0] == (7, 12)
    assert tokenize("a_b, c") == ["a_b", ",", " ", "c"]


def test_display_text_expands_tabs_and_shows_control_characters() -> None:
    shown, offsets = display_text("a\tb\x1b[31m")
    assert "\x1b" not in shown and "\t" not in shown
    assert shown.startswith("a   b")
    assert offsets is not None and offsets[2] == 4
    assert map_spans(((2, 3),), offsets) == [(4, 5)]
    assert display_text("plain") == ("plain", None)


def test_truncate_rows_adds_a_more_row() -> None:
    hunk = Hunk(1, 0, 1, 100, [f"+line {i}" for i in range(100)])
    rows = truncate_rows(unified_rows([hunk]), 10)
    assert len(rows) == 10 and rows[-1].kind == "more"
    assert rows[-1].text == "… 92 more lines"
    split = truncate_rows(split_rows([hunk]), 5)
    assert split[-1].full is not None and split[-1].full.text == "… 97 more lines"
    assert truncate_rows(rows, None) is rows


def test_build_rows_sections_for_several_diffs_and_notes() -> None:
    one = FileDiff.from_hunks("f", "edit", diff_texts("a\n", "b\n"))
    two = FileDiff.from_hunks("f", "edit", diff_texts("b\n", "c\n"))
    rows = build_rows([one, two], split=False)
    assert [r.text for r in rows if r.kind == "section"] == ["1/2 · edit · +1 −1", "2/2 · edit · +1 −1"]
    noted = build_rows([FileDiff("f", "binary", note="Binary content")], split=True)
    assert noted[0].full is not None and noted[0].full.text == "Binary content"


def test_changeset_tracks_turn_and_session() -> None:
    changes = ChangeSet()
    changes.record(FileDiff("a.py", "create", added=3))
    changes.record(FileDiff("b.py", "edit", added=1, removed=1))
    changes.begin_turn()
    changes.record(FileDiff("a.py", "edit", added=2, removed=1))
    assert [f.path for f in changes.session] == ["a.py", "b.py"]
    assert [f.path for f in changes.turn] == ["a.py"]
    a = changes.session[0]
    assert (a.added, a.removed, len(a.diffs), a.kind) == (5, 1, 2, "create")
    assert changes.totals("turn") == (1, 2, 1)
    assert changes.totals("session") == (2, 6, 2)
    version = changes.version
    changes.begin_turn()
    assert changes.turn == [] and len(changes) == 2 and changes.version > version
