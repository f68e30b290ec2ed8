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
    "MANAGE_REQUESTS",
    "accepts_hook_events",
    "accepts_thinking_display",
    "offers_resume_session_at",
    "lacks",
    "offers",
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

_HOOK_EVENTS_FROM = "2.1.290"
"""`--include-hook-events` (every hook's runs in the stream): in 2.1.290's and 2.1.330's binaries, not in
2.0.77's cli.js, which exits on a flag it does not know."""

_RESUME_SESSION_AT_FROM = OLDEST_SUPPORTED
"""`--resume ID --resume-session-at UUID` (hidden, print mode): 2.0.77, 2.1.290, 2.1.330 and 2.1.332
all take it, matched on the message's uuid. Older CLIs are outside the range: a rewind offers a fork."""

_MANAGE_FROM = "2.1.290"
"""Of the versions checked, the oldest that answers the manage requests (2.0.77 has only mcp_status)."""
MANAGE_REQUESTS: dict[str, str] = {
    "mcp_status": OLDEST_SUPPORTED,
    **{name: _MANAGE_FROM for name in (
        "mcp_toggle", "mcp_reconnect", "get_context_usage", "get_usage", "list_permission_rules",
        "get_hooks_listing", "rename_session", "reload_plugins", "reload_skills", "apply_flag_settings",
        "elicitation", "request_user_dialog",
    )},
}
"""Control request -> the oldest checked version that has it (found in each CLI's own code:
2.0.77's cli.js, the 2.1.290 and 2.1.330 binaries). `elicitation` and `request_user_dialog`
are the CLI's requests to us; the rest are ours to it."""

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


def accepts_hook_events(version: object) -> bool:
    return _at_least(version, _HOOK_EVENTS_FROM)


def offers_resume_session_at(version: object) -> bool:
    """True also for an unknown version: the CLI then says itself if it cannot."""
    return parse_version(version) is None or _at_least(version, _RESUME_SESSION_AT_FROM)


def offers(version: object, request: str) -> bool:
    """Whether a CLI of `version` answers control request `request`. An unknown version is
    taken to have it (the CLI's own error then says otherwise); an unknown request, not."""
    floor = MANAGE_REQUESTS.get(request)
    if floor is None:
        return False
    return parse_version(version) is None or _at_least(version, floor)


def lacks(version: object, request: str, what: str) -> str | None:
    """One line for a screen whose CLI cannot do `what` (None when it can)."""
    if offers(version, request):
        return None
    shown = ".".join(map(str, parse_version(version) or ())) or "this version"
    floor = MANAGE_REQUESTS.get(request, NEWEST_TESTED)
    return f"Claude Code {shown} cannot {what} (it has no {request} request; {floor} or newer can)."


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


