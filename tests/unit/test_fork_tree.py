"""A fork of a fork is put under its direct parent, read from the transcripts (as the CLI writes a fork:
its parent's records copied with their uuids and times, after a first line of its own)."""

from __future__ import annotations

import json

from claude_tui.history.fork_tree import direct_parents


def _line(uuid: str | None, at: int, kind: str = "user") -> str:
    record: dict[str, object] = {"type": kind, "timestamp": f"2026-01-01T00:00:{at:02d}.000Z"}
    if uuid:
        record["uuid"] = uuid
    return json.dumps(record)


def transcript(start: int, copied: list[tuple[str, int]], own: list[tuple[str, int]]) -> bytes:
    lines = [_line(None, start, "queue-operation"), *(_line(u, t) for u, t in copied), *(_line(u, t) for u, t in own)]
    return ("\n".join(lines) + "\n").encode()


def test_a_fork_of_a_fork_goes_under_its_parent_and_a_second_fork_under_the_original() -> None:
    original = transcript(0, [], [("o1", 1), ("o2", 2)])
    first = transcript(10, [("o1", 1), ("o2", 2)], [("f1", 11), ("f2", 12)])
    second = transcript(20, [("o1", 1), ("o2", 2), ("f1", 11), ("f2", 12)], [("s1", 21)])
    again = transcript(30, [("o1", 1), ("o2", 2)], [("a1", 31)])
    files = {"O": original, "F": first, "S": second, "A": again}
    # The index's own start times may all be the same copied time: the transcripts decide.
    members = [(name, 5.0, name) for name in files]
    assert direct_parents(members, "O", files.get) == {"F": "O", "S": "F", "A": "O"}


def test_an_unreadable_fork_stays_under_the_original() -> None:
    original = transcript(0, [], [("o1", 1)])
    first = transcript(10, [("o1", 1)], [("f1", 11)])
    files = {"O": original, "F": first}
    members = [("O", 0.0, "O"), ("F", 10.0, "F"), ("S", 20.0, "missing")]
    assert direct_parents(members, "O", files.get) == {"F": "O", "S": "O"}


def test_the_listing_puts_each_fork_under_its_parent() -> None:
    from claude_tui.history.fork_tree import as_tree

    # (id, parent) in sort order: the newest first; the forks are newer than what they forked.
    rows = [("S", "F"), ("A", "O"), ("X", None), ("F", "O"), ("O", None), ("L", "gone")]
    tree = as_tree(rows, lambda r: r[0], lambda r: r[1])
    assert [(r[0], depth) for r, depth in tree] == [("X", 0), ("O", 0), ("A", 1), ("F", 1), ("S", 2), ("L", 0)]
    looped = as_tree([("P", "Q"), ("Q", "P")], lambda r: r[0], lambda r: r[1])
    assert sorted(r[0] for r, _ in looped) == ["P", "Q"]


def test_the_browser_listing_is_the_tree_with_indented_fork_marks() -> None:
    from claude_tui.history.index import SessionRow
    from claude_tui.ui.browser.listing import filtered
    from claude_tui.ui.browser.table import fork_prefix

    def row(sid: str, active: float, parent: str | None = None) -> SessionRow:
        made = SessionRow(sid, f"/{sid}.jsonl", "-p", 1, 1, title="same title", last_active=active)
        made.forked_from = parent
        return made

    rows = [row("original", 1.0), row("first", 2.0, "original"), row("second", 3.0, "first"), row("other", 4.0)]
    listing = filtered(rows, "active", "", all_projects=False)
    assert [r.session_id for r in listing.rows] == ["other", "original", "first", "second"]
    second = listing.rows[3]
    assert fork_prefix(second, listing.depths[second.path]) == "  ↳ fork of first · "
    assert filtered(rows, "active", "same", all_projects=False).depths == {}  # a filter lists by score
