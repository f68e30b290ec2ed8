"""Which Claude Code versions claude-tui drives, and what each one offers.

The range is what CI runs the core flows against (`tests/e2e/test_version_matrix.py`):
the oldest supported, one from the band that starts stream-json sessions in `auto` mode,
the pinned version and the newest tested. A version outside it still runs; the app only
says so in a note (`support_note`).

The version comes from the CLI itself (`system/init`'s `claude_code_version`, the
`initialize` response on newer CLIs) or from its npm package (`transport.locate.installed_version`).
Pure: no I/O here.
"""

from __future__ import annotations

import re

__all__ = [
    "NEWEST_TESTED",
    "OLDEST_SUPPORTED",
    "accepts_thinking_display",
    "offers_resume_session_at",
    "offers_auto",
    "parse_version",
    "support_note",
]

OLDEST_SUPPORTED = "2.0.77"
NEWEST_TESTED = "2.1.332"
# The oldest versions checked that offer these (2.1.0 offers neither; from here on all do).
_AUTO_FROM = "2.1.285"
"""`--permission-mode auto` (2.1.285 to 2.1.301 even start stream-json sessions in it)."""
_THINKING_DISPLAY_FROM = "2.1.290"
"""`--thinking-display summarized|omitted` (a hidden flag: `claude --help` does not list it)."""

_RESUME_SESSION_AT_FROM = OLDEST_SUPPORTED
"""`--resume ID --resume-session-at UUID` (hidden, print mode): 2.0.77, 2.1.290, 2.1.330 and 2.1.332
all take it, matched on the message's uuid. Older CLIs are outside the range: a rewind offers a fork."""

_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def parse_version(text: object) -> tuple[int, int, int] | None:
    """(2, 1, 330) from "2.1.330", "2.1.330 (Claude Code)"; None for anything else."""
    match = _VERSION.search(text) if isinstance(text, str) else None
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def _at_least(version: object, floor: str) -> bool:
    parsed = parse_version(version)
    return parsed is not None and parsed >= parse_version(floor)  # type: ignore[operator]


def offers_auto(version: object) -> bool:
    return _at_least(version, _AUTO_FROM)


def accepts_thinking_display(version: object) -> bool:
    return _at_least(version, _THINKING_DISPLAY_FROM)


def offers_resume_session_at(version: object) -> bool:
    """True also for an unknown version: the CLI then says itself if it cannot."""
    return parse_version(version) is None or _at_least(version, _RESUME_SESSION_AT_FROM)


def support_note(version: object) -> str | None:
    """A sentence for a version outside the tested range; None inside it (or when unknown)."""
    parsed = parse_version(version)
    if parsed is None:
        return None
    shown = ".".join(map(str, parsed))
    if parsed < parse_version(OLDEST_SUPPORTED):  # type: ignore[operator]
        return (f"Claude Code {shown} is older than the oldest version claude-tui supports "
                f"({OLDEST_SUPPORTED}): some things may not show or work. Update with "
                "`npm install -g @anthropic-ai/claude-code` (or `claude update`).")
    if parsed > parse_version(NEWEST_TESTED):  # type: ignore[operator]
        return (f"Claude Code {shown} is newer than the newest version claude-tui was tested with "
                f"({NEWEST_TESTED}): it should work; anything it adds may not show yet.")
    return None


