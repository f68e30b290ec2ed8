"""Text helpers shared by the history layer: sanitising and prompt classification.

Everything read from a transcript is untrusted. Titles and snippets leave this
layer with C0/C1 control characters (ESC included) removed and whitespace
collapsed, so a caller can print them or put them in a widget as plain text.
"""

from __future__ import annotations

import re
from typing import Any

from claude_tui.protocol.sanitize import CONTROL_CLASS, CONTROL_CLASS_BUT_LAYOUT

# Titles and snippets drop controls (as spaces) rather than showing them as pictures the way
# protocol.sanitize.printable does: they are one-line labels, and search must match their words.
_CONTROL_RE = re.compile(CONTROL_CLASS + "+")
_CONTROL_KEEP_LAYOUT_RE = re.compile(CONTROL_CLASS_BUT_LAYOUT)
_SPACES_RE = re.compile(r"\s+")
# A lone surrogate (``"\ud83d"`` in a JSON string: what a Node CLI writes when it cuts an emoji in
# half) decodes to a str that cannot be encoded as UTF-8: SQLite and a UTF-8 stdout raise on it.
_SURROGATE_RE = re.compile("[\ud800-\udfff]")

#: Text blocks the CLI writes as "user" records but which are not prompts.
_NOT_A_PROMPT_RE = re.compile(
    r"^\s*(?:<local-command-stdout>|<local-command-stderr>|<local-command-caveat>"
    r"|<command-message>|<command-args>|<session-start-hook>|<tick>|<goal>"
    r"|<system-reminder>|<user-prompt-submit-hook>"
    r"|<task-notification>"  # a background task ended: a note in the resumed log, not a turn
    r"|\[Request interrupted by user[^\]]*\]"
    r"|<ide_opened_file>[\s\S]*</ide_opened_file>\s*$"
    r"|<ide_selection>[\s\S]*</ide_selection>\s*$)"
)
_COMMAND_NAME_RE = re.compile(r"<command-name>(.*?)</command-name>", re.S)
_COMMAND_ARGS_RE = re.compile(r"<command-args>(.*?)</command-args>", re.S)

TITLE_MAX = 200


def scrub(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so it can be stored and printed."""
    return _SURROGATE_RE.sub("\ufffd", text)


def clean(text: str, max_len: int | None = None) -> str:
    """One line of printable text: control chars become spaces, runs collapse, lone surrogates become U+FFFD."""
    text = _CONTROL_RE.sub(" ", scrub(text))
    text = _SPACES_RE.sub(" ", text).strip()
    if max_len is not None and len(text) > max_len:
        text = text[: max_len - 1].rstrip() + "\u2026"
    return text


def strip_controls(text: str) -> str:
    """Remove control characters but keep newlines and tabs (for multi-line text); scrub lone surrogates."""
    return _CONTROL_KEEP_LAYOUT_RE.sub("", scrub(text))


def message_texts(message: Any) -> list[str]:
    """The text blocks of a user/assistant ``message`` (str content or block list)."""
    if not isinstance(message, dict):
        return []
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    out: list[str] = []
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                text = block.get("text")
                if isinstance(text, str):
                    out.append(text)
    return out


def has_tool_result(message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in content
    )


def command_label(text: str) -> str | None:
    """``/name args`` for a slash-command wrapper, else None."""
    match = _COMMAND_NAME_RE.search(text)
    if not match:
        return None
    name = match.group(1).strip()
    args = _COMMAND_ARGS_RE.search(text)
    if args and args.group(1).strip():
        name = f"{name} {args.group(1).strip()}"
    return name


def prompt_text(record: dict[str, Any]) -> str | None:
    """The user's own words in a ``user`` record, or None if it is not a real prompt.

    Skips meta records, compaction summaries, tool results, command wrappers
    (``<command-name>``, ``<local-command-stdout>`` …) and interruption markers.
    """
    if record.get("type") != "user" or record.get("isMeta") or record.get("isCompactSummary"):
        return None
    if record.get("isVisibleInTranscriptOnly"):
        return None
    message = record.get("message")
    if has_tool_result(message):
        return None
    for raw in message_texts(message):
        if not raw.strip() or _COMMAND_NAME_RE.search(raw) or _NOT_A_PROMPT_RE.match(raw):
            continue
        return raw
    return None


def is_prompt_like(text: str) -> bool:
    """False for command wrappers and interruption markers (used on lastPrompt)."""
    return bool(text.strip()) and not _COMMAND_NAME_RE.search(text) and not _NOT_A_PROMPT_RE.match(text)
