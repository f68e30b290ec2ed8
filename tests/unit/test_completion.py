"""Completion candidates: slash commands and fuzzy ranking (pure functions)."""

from __future__ import annotations

from claude_tui.completion import Candidate, fuzzy_score, rank, slash_candidates


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
