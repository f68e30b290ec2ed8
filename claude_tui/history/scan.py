"""Full scans of a transcript for the index worker: searchable text and counts.

Unlike :mod:`.meta` this reads whole files, so it runs in the background
worker, never on the listing hot path. A scan can start at a byte offset so an
appended transcript is indexed incrementally; it stops at the last complete
line (a line the CLI is still writing is picked up next time).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .text import clean, prompt_text

#: Record types with no uuid and nothing searchable: skipped without parsing.
_SKIP_PREFIXES = tuple(
    prefix
    for kind in (
        "api-request", "api-request-blob", "api-request-shape", "queue-operation", "atis-latch",
        "tools-used", "cost-state", "last-prompt", "mode", "file-history-snapshot",
        "custom-title", "ai-title", "summary", "tag", "attachment", "progress", "system",
    )
    for prefix in (b'{"type":"' + kind.encode() + b'"', b'{"type": "' + kind.encode() + b'"')
)
#: Input keys of tool calls that name files.
PATH_KEYS = ("file_path", "path", "notebook_path", "filePath")
SNIPPET_SOURCE_MAX = 8000  # characters of one block kept for search


@dataclass(slots=True)
class Doc:
    """One searchable piece of a record."""

    kind: str  # prompt | assistant | tool | path
    uuid: str
    turn: int  # number of real user prompts before (0-based turn of the hit)
    text: str


@dataclass(slots=True)
class ScanState:
    """Counters carried between incremental scans of one file."""

    offset: int = 0
    turns: int = 0  # real user prompts seen
    messages: int = 0  # user + assistant messages (assistant counted once per message id)
    last_msg_id: str = ""
    bad_lines: int = 0
    docs: list[Doc] = field(default_factory=list)


def _is_attachment_line(line: bytes) -> bool:
    head = line[:400]
    return b'"attachment":' in head and b'"type":"user"' not in head and b'"type": "user"' not in head


def record_docs(record: dict[str, Any], turn: int) -> Iterator[Doc]:
    """Searchable docs of a user/assistant record (sidechains included)."""
    uuid = record.get("uuid") if isinstance(record.get("uuid"), str) else ""
    message = record.get("message")
    if record.get("type") == "user":
        text = prompt_text(record)
        if text:
            yield Doc("prompt", uuid, turn, clean(text, SNIPPET_SOURCE_MAX))
        return
    if not isinstance(message, dict) or not isinstance(message.get("content"), list):
        return
    for block in message["content"]:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            text = clean(block["text"], SNIPPET_SOURCE_MAX)
            if text:
                yield Doc("assistant", uuid, turn, text)
        elif kind == "tool_use" and isinstance(block.get("name"), str):
            yield Doc("tool", uuid, turn, clean(block["name"], 200))
            inp = block.get("input")
            if isinstance(inp, dict):
                for key in PATH_KEYS:
                    value = inp.get(key)
                    if isinstance(value, str) and value:
                        yield Doc("path", uuid, turn, clean(value, 1000))


def scan_file(path: str | os.PathLike[str], state: ScanState | None = None, *, with_docs: bool = True) -> ScanState:
    """Scan ``path`` from ``state.offset`` to its last complete line, updating counters.

    Corrupt lines and unknown record types are counted/skipped, never fatal.
    """
    state = state if state is not None else ScanState()
    state.docs = []
    try:
        with open(path, "rb") as fh:
            fh.seek(state.offset)
            data = fh.read()
    except OSError:
        return state
    complete = data.rfind(b"\n") + 1
    pos = 0
    while pos < complete:
        nl = data.find(b"\n", pos, complete)
        line = data[pos:nl]
        pos = nl + 1
        if not line.strip() or line.startswith(_SKIP_PREFIXES) or _is_attachment_line(line):
            continue
        try:
            record = json.loads(line)
        except ValueError:
            state.bad_lines += 1
            continue
        if not isinstance(record, dict):
            state.bad_lines += 1
            continue
        kind = record.get("type")
        if kind not in ("user", "assistant"):
            continue
        sidechain = bool(record.get("isSidechain"))
        if kind == "user":
            is_prompt = prompt_text(record) is not None
            if not record.get("isMeta") and not sidechain:
                state.messages += 1
            if with_docs:
                state.docs.extend(record_docs(record, state.turns))
            if is_prompt and not sidechain:
                state.turns += 1
        else:
            message = record.get("message")
            msg_id = message.get("id") if isinstance(message, dict) else None
            if not sidechain and (not isinstance(msg_id, str) or msg_id != state.last_msg_id):
                state.messages += 1
                state.last_msg_id = msg_id if isinstance(msg_id, str) else ""
            if with_docs:
                state.docs.extend(record_docs(record, max(state.turns - 1, 0)))
    state.offset += complete
    return state


def count_messages(path: str | os.PathLike[str]) -> int:
    """Message count of a transcript (a full scan; the listing gets it from the index)."""
    return scan_file(path, with_docs=False).messages
