"""Completion candidates: slash commands and fuzzy ranking (pure functions)."""

from __future__ import annotations

from pathlib import Path

from claude_tui.completion import Candidate, dropped_files_mention, fuzzy_score, rank, slash_candidates


def test_slash_candidates_merge_sources_and_hide_internal_ones() -> None:
    commands = [{"name": "compact", "description": "Compact", "argumentHint": "[focus]"},
                {"name": "__remote-workflow", "description": "internal"},
                {"name": "agents (removed)", "description": "gone"}]
    names = [c.value for c in slash_candidates(commands, ["context", "compact"])]
    assert names == sorted(names)
    assert {"compact", "context", "cost"} <= set(names)
    assert not any(n.startswith("_") or "(removed)" in n for n in names)
    compact = next(c for c in slash_candidates(commands, []) if c.value == "compact")
    assert compact.hint == "[focus]"


def test_fuzzy_prefers_prefixes_and_word_starts() -> None:
    assert fuzzy_score("", "anything") == 0
    assert fuzzy_score("xyz", "compact") is None
    ranked = [c.value for c in rank("par", [Candidate("src/compare.py"), Candidate("src/parser.py"),
                                             Candidate("parser.py")])]
    assert ranked[0] == "parser.py" and ranked[1] == "src/parser.py"


def test_dropped_files_become_mentions(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"x")
    (tmp_path / "my pic.png").write_bytes(b"x")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.txt"
    outside.write_text("x")
    root = tmp_path
    assert dropped_files_mention(str(tmp_path / "a.png"), root) == "@a.png "
    # Quoted, backslash-escaped and file:// forms (what terminals paste on drop).
    for dropped in (f"'{tmp_path}/my pic.png'", f"{tmp_path}/my\\ pic.png", f"file://{tmp_path}/my%20pic.png"):
        assert dropped_files_mention(dropped, root) == '@"my pic.png" ', dropped
    assert dropped_files_mention(f"{outside} {tmp_path}/a.png", root) == f"@{outside} @a.png "


def test_other_pastes_stay_text(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"x")
    for text in ("hello world", "a.png", "it's", f"{tmp_path}/missing.png", f"{tmp_path}", "",
                 f"{tmp_path}/a.png\n{tmp_path}/a.png", f"see {tmp_path}/a.png"):
        assert dropped_files_mention(text, tmp_path) is None, text


def test_claude_tuis_own_screens_are_offered_and_win_their_own_name() -> None:
    # The CLI lists no /permissions in stream-json mode; Enter on "/permissions" took the first match,
    # /fewer-permission-prompts, instead of opening the screen.
    candidates = slash_candidates([{"name": "fewer-permission-prompts", "description": "skill"},
                                   {"name": "context", "description": "the CLI's own"}], [])
    for name in ("mcp", "context", "permissions", "hooks"):
        assert rank(name, candidates)[0].value == name
    assert next(c for c in candidates if c.value == "context").description == "What fills the context window"
