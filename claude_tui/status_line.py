"""The user's own status line: Claude Code's `statusLine` setting, its input and its output (no Textual).

Claude Code runs `statusLine.command` in a shell with the session as JSON on its stdin and shows
what it prints beside its prompt. claude-tui reads the same settings files, read-only, in Claude
Code's precedence (the project's local settings, the project's, the user's), builds the same
input, and keeps the output inert: one line, no escape sequences, bounded. The running is
`ui/chat/user_status.py`'s.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_tui.protocol.sanitize import printable
from claude_tui.session.status import SessionStatus

SHOWN_LIMIT = 400
_ANSI = re.compile(r"\x1b\[[0-9;:?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]")


@dataclass(frozen=True)
class StatusLineSetting:
    command: str
    source: Path
    """The settings file it came from (named when it fails)."""


def settings_files(project: Path, config_root: Path) -> list[Path]:
    """Claude Code's settings files, the one that wins first."""
    return [project / ".claude" / "settings.local.json", project / ".claude" / "settings.json",
            config_root / "settings.json"]


def find_setting(project: Path, config_root: Path) -> StatusLineSetting | None:
    """The `statusLine` command that applies here, if any (a file that cannot be read is passed over,
    as Claude Code passes over a broken settings file)."""
    for path in settings_files(project, config_root):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        if data.get("disableAllHooks") is True:
            return None  # Claude Code turns the status line off with the hooks
        line = data.get("statusLine")
        if isinstance(line, dict) and line.get("type", "command") == "command":
            command = line.get("command")
            if isinstance(command, str) and command.strip():
                return StatusLineSetting(command, path)
    return None


def status_input(status: SessionStatus, *, project: str, transcript: str, model_name: str = "") -> dict[str, Any]:
    """What Claude Code writes to the command's stdin (the fields claude-tui knows)."""
    cwd = status.cwd or project
    return {
        "hook_event_name": "Status",
        "session_id": status.session_id,
        "transcript_path": transcript,
        "cwd": cwd,
        "model": {"id": status.model, "display_name": model_name or status.model},
        "workspace": {"current_dir": cwd, "project_dir": project},
        "version": status.cli_version,
        "output_style": {"name": "default"},
        "cost": {"total_cost_usd": status.cost_total},
        "exceeds_200k_tokens": status.context_tokens > 200_000,
    }


def shown_text(output: bytes) -> str:
    """The command's output as claude-tui shows it: its first non-empty line, escapes removed,
    every other control character made visible (`printable`), at most `SHOWN_LIMIT` characters."""
    text = _ANSI.sub("", output.decode("utf-8", "replace"))
    line = next((part for part in text.splitlines() if part.strip()), "")
    return printable(line.strip())[:SHOWN_LIMIT]
