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
_MODEL_ID = re.compile(r"claude-([a-z]+)-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?")
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


def model_display_name(models: list[dict[str, Any]], model: str) -> str:
    """Claude Code's name for ``model`` ("Opus 5.5" for claude-opus-5-5). The CLI's `initialize` model
    list has it as the first words of an alias's description ("Opus 5.5 · Best for …"; the default
    entry's is "Use the default model …"); a model the list lacks is named from its id; else the id."""
    for entry in models:
        if entry.get("value") == "default" or not model or model not in (entry.get("value"),
                                                                        entry.get("resolvedModel")):
            continue
        description = entry.get("description")
        first = description.split(" · ")[0].strip() if isinstance(description, str) else ""
        if first and len(first) <= 40 and not first.lower().startswith("use "):
            return first
    named = _MODEL_ID.fullmatch(model)
    if named:
        family, major, minor = named.groups()
        return f"{family.title()} {major}" + (f".{minor}" if minor else "")
    return model


def status_input(status: SessionStatus, *, project: str, transcript: str, model_name: str = "",
                 duration_ms: float = 0.0, vim_mode: str | None = None, session_name: str | None = None,
                 thinking: bool = True) -> dict[str, Any]:
    """What Claude Code 2.1.330 writes to the command's stdin, field for field as its own TUI sent it
    (recorded against the API stand-in), for the fields claude-tui knows. It has no
    ``hook_event_name``, whatever older docs say; ``effort``, ``prompt_id`` and ``prompt_cache`` are
    left out (stream-json does not tell them)."""
    cwd = status.cwd or project
    window = status.context_window or 0
    usage = status.last_usage
    used = round(100 * status.context_tokens / window) if window and usage is not None else None
    payload: dict[str, Any] = {
        "session_id": status.session_id,
        "transcript_path": transcript,
        "cwd": cwd,
        "model": {"id": status.model, "display_name": model_name or status.model},
        "workspace": {"current_dir": cwd, "project_dir": project, "added_dirs": list(status.added_dirs)},
        "version": status.cli_version,
        "output_style": {"name": status.output_style or "default"},
        "cost": {
            "total_cost_usd": status.cost_total,
            "total_duration_ms": round(duration_ms),
            "total_api_duration_ms": round(status.api_duration_ms),
            "total_lines_added": status.lines_added,
            "total_lines_removed": status.lines_removed,
        },
        "context_window": {
            "total_input_tokens": (usage["input_tokens"] + usage["cache_creation_input_tokens"]
                                   + usage["cache_read_input_tokens"]) if usage is not None else 0,
            "total_output_tokens": usage["output_tokens"] if usage is not None else 0,
            "context_window_size": window,
            "current_usage": dict(usage) if usage is not None else None,
            "used_percentage": used,
            "remaining_percentage": 100 - used if used is not None else None,
        },
        "exceeds_200k_tokens": status.context_tokens > 200_000,
        "fast_mode": status.fast_mode,
        "thinking": {"enabled": thinking},
    }
    if vim_mode is not None:
        payload["vim"] = {"mode": vim_mode}
    if session_name:
        payload["session_name"] = session_name
    return payload


def shown_text(output: bytes) -> str:
    """The command's output as claude-tui shows it: its first non-empty line, escapes removed,
    every other control character made visible (`printable`), at most `SHOWN_LIMIT` characters."""
    text = _ANSI.sub("", output.decode("utf-8", "replace"))
    line = next((part for part in text.splitlines() if part.strip()), "")
    return printable(line.strip())[:SHOWN_LIMIT]
