"""The review tray: comments survive a restart, go stale when their lines change, and make one prompt."""

from __future__ import annotations

from pathlib import Path

from claude_tui.diff.compute import diff_texts
from claude_tui.store.review import ReviewComment, ReviewTray, is_stale, read_text, review_prompt

BEFORE = "".join(f"line {n}\n" for n in range(1, 21))
AFTER = BEFORE.replace("line 18\n", "LINE 18\n")


def test_comments_survive_a_restart_and_only_in_our_dir(tmp_path: Path) -> None:
    project, data = tmp_path / "project", tmp_path / "data"
    project.mkdir()
    [hunk] = diff_texts(BEFORE, AFTER)
    tray = ReviewTray(project, root=data)
    assert tray.add(ReviewComment.on_hunk(str(project / "f.txt"), hunk, "why upper case?"))
    again = ReviewTray(project, root=data)
    assert [(c.line, c.words) for c in again.comments] == [(18, "why upper case?")]
    assert again.path.is_relative_to(data)
    again.remove(again.comments[0].id)
    assert len(ReviewTray(project, root=data)) == 0


def test_a_comment_goes_stale_when_its_lines_change(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text(AFTER)
    [hunk] = diff_texts(BEFORE, AFTER)
    comment = ReviewComment.on_hunk(str(target), hunk, "ok?")
    assert not is_stale(comment, read_text)
    target.write_text(AFTER.replace("LINE 18", "Line 18"))
    assert is_stale(comment, read_text)
    target.unlink()
    assert is_stale(comment, read_text)


def test_the_prompt_holds_every_file_line_hunk_and_words() -> None:
    [one] = diff_texts(BEFORE, AFTER)
    [two] = diff_texts("a\nb\n", "a\nB\n")
    comments = [ReviewComment.on_hunk("x.py", one, "first"), ReviewComment.on_hunk("y.py", two, "second")]
    prompt = review_prompt(comments, lambda c: c.path == "y.py")
    assert "1. x.py:18\n```diff\n@@ -15,6 +15,6 @@" in prompt and "+LINE 18" in prompt
    assert "2. y.py:2 (these lines have changed since" in prompt
    assert prompt.index("first") < prompt.index("second")


def test_a_broken_tray_file_loads_what_it_can(tmp_path: Path) -> None:
    tray = ReviewTray(tmp_path, root=tmp_path / "data")
    tray.path.parent.mkdir(parents=True)
    tray.path.write_text('[{"path": "a", "line": 1, "hunk": "", "lines": "", "words": "w", "id": "1"}, {"x": 1}]')
    assert [c.words for c in ReviewTray(tmp_path, root=tmp_path / "data").comments] == ["w"]
    tray.path.write_text("not json")
    assert ReviewTray(tmp_path, root=tmp_path / "data").comments == []
