"""The supported range of Claude Code versions and what each version offers."""

from __future__ import annotations

import json
from pathlib import Path

from claude_tui.protocol.versions import (
    NEWEST_TESTED,
    OLDEST_SUPPORTED,
    accepts_thinking_display,
    offers_auto,
    parse_version,
    support_note,
)
from claude_tui.transport import locate
from claude_tui.transport.locate import installed_version


def test_versions_parse_from_what_the_cli_prints() -> None:
    assert parse_version("2.1.330 (Claude Code)") == (2, 1, 330)
    assert parse_version("2.0.77") == (2, 0, 77)
    assert parse_version("") is None
    assert parse_version(None) is None
    assert parse_version(2.1) is None


def test_inside_the_range_no_note_outside_a_note_not_a_refusal() -> None:
    assert support_note(OLDEST_SUPPORTED) is None
    assert support_note(NEWEST_TESTED) is None
    assert support_note("2.1.290") is None
    old = support_note("1.0.128")
    assert old is not None and "older" in old and OLDEST_SUPPORTED in old
    new = support_note("2.2.0")
    assert new is not None and "newer" in new and NEWEST_TESTED in new
    assert support_note("garbage") is None  # unknown: nothing to say


def test_features_by_version() -> None:
    assert not offers_auto("2.1.0") and not offers_auto("2.0.77") and not offers_auto(None)
    assert offers_auto("2.1.285") and offers_auto("2.1.332")
    assert not accepts_thinking_display("2.1.0")
    assert accepts_thinking_display("2.1.290") and accepts_thinking_display("2.1.330")


def test_installed_version_reads_the_npm_package(tmp_path: Path) -> None:
    # Old CLIs: node_modules/.bin/claude -> ../@anthropic-ai/claude-code/cli.js
    package = tmp_path / "node_modules" / "@anthropic-ai" / "claude-code"
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "@anthropic-ai/claude-code", "version": "2.0.77"}))
    (package / "cli.js").write_text("")
    link = tmp_path / "node_modules" / ".bin" / "claude"
    link.parent.mkdir()
    link.symlink_to(package / "cli.js")
    assert installed_version(str(link)) == "2.0.77"
    locate._versions.clear()
    (package / "package.json").write_text(json.dumps({"name": "something-else", "version": "9.9.9"}))
    assert installed_version(str(link)) is None  # someone else's package.json says nothing
    assert installed_version(str(tmp_path / "missing")) is None
    assert installed_version(None) is None
