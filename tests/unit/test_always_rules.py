""""Always allow" notes tell the truth (issue 14): said once, and a saved rule that did not apply is named."""

from __future__ import annotations

from claude_tui.session.permissions import describe_suggestion, rule_covers, saved_rule_for, without_verb

BASH_PREFIX = {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "npm test:*"}],
               "behavior": "allow", "destination": "localSettings"}


def test_bash_rules_cover_exact_commands_and_prefixes() -> None:
    assert rule_covers({"toolName": "Bash", "ruleContent": "npm test:*"}, "Bash", {"command": "npm test -- -x"})
    assert rule_covers({"toolName": "Bash", "ruleContent": "npm test:*"}, "Bash", {"command": "npm test"})
    assert not rule_covers({"toolName": "Bash", "ruleContent": "npm test:*"}, "Bash", {"command": "npm testing"})
    assert rule_covers({"toolName": "Bash", "ruleContent": "ls"}, "Bash", {"command": "ls"})
    assert not rule_covers({"toolName": "Bash", "ruleContent": "ls"}, "Bash", {"command": "ls -la"})
    assert not rule_covers({"toolName": "Bash", "ruleContent": "ls"}, "Edit", {"command": "ls"})
    assert rule_covers({"toolName": "Read"}, "Read", {"file_path": "/x"})


def test_web_and_path_rules() -> None:
    assert rule_covers({"toolName": "WebFetch", "ruleContent": "domain:example.com"}, "WebFetch",
                       {"url": "https://example.com/a"})
    assert not rule_covers({"toolName": "WebFetch", "ruleContent": "domain:example.com"}, "WebFetch",
                           {"url": "https://evil.example.org/"})
    assert rule_covers({"toolName": "Edit", "ruleContent": "/p/src/*"}, "Edit", {"file_path": "/p/src/a.py"})
    assert not rule_covers({"toolName": "Edit", "ruleContent": "/p/src/*"}, "Edit", {"file_path": "/p/b.py"})


def test_saved_rule_for_finds_only_allow_rules_that_cover() -> None:
    deny = {**BASH_PREFIX, "behavior": "deny"}
    mode = {"type": "setMode", "mode": "acceptEdits", "destination": "session"}
    assert saved_rule_for([mode, deny, BASH_PREFIX], "Bash", {"command": "npm test"}) is BASH_PREFIX
    assert saved_rule_for([mode, deny], "Bash", {"command": "npm test"}) is None
    assert saved_rule_for([BASH_PREFIX], "Bash", {"command": "rm -rf /"}) is None


def test_the_note_says_always_once() -> None:
    words = "Always allowed: " + without_verb(describe_suggestion(BASH_PREFIX))
    assert words == "Always allowed: Bash commands starting with `npm test` — saved in .claude/settings.local.json"
    assert without_verb("Add /x to this session's directories") == "Add /x to this session's directories"
