"""Full scans of a transcript for the index worker: searchable text and counts.

Unlike :mod:`.meta` this reads whole files, so it runs in the background
worker, never on the listing hot path. A scan can start at a byte offset so an
appended transcript is indexed incrementally; it stops at the last complete
line (a line the CLI is still writing is picked up next time).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .text import clean, prompt_text, scrub

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
SNIPPET_SOURCE_MAX = 8000  # characters of one block kept for search
TOOL_INPUT_MAX = 4000  # characters of one call's input kept for search (commands, patterns, edits …)
TOOL_OUTPUT_MAX = 2000  # characters of one call's output kept for search
READ_CHUNK = 1 << 22  # a scan reads 4 MB at a time: a 20 MB transcript is never held whole
_TOOL_NAMES_MAX = 512  # tool_use id → name, for naming outputs (bounded: a scan can be long)


@dataclass(slots=True)
class Doc:
    """One searchable piece of a record."""

    kind: str  # prompt | answer | thinking | tool (its name and input) | output
    uuid: str
    turn: int  # number of real user prompts before (0-based turn of the hit)
    text: str
    tool: str = ""  # the tool's name, for tool and output docs


@dataclass(slots=True)
class ScanState:
    """Counters carried between incremental scans of one file."""

    offset: int = 0
    turns: int = 0  # real user prompts seen
    messages: int = 0  # user + assistant messages (assistant counted once per message id)
    last_msg_id: str = ""
    bad_lines: int = 0
    docs: list[Doc] = field(default_factory=list)
    tool_names: dict[str, str] = field(default_factory=dict)
    chain: dict[str, int] = field(default_factory=dict)
    """uuid → the prompts on that record's branch, up to it: a search hit's turn is counted along its
    own branch, as the resumed log shows it, not in file order (a rewind leaves the old branch first)."""
    earlier: Callable[[str], int | None] | None = None
    """The same for a record an earlier scan read (incremental scans: the index's docs know it)."""

    def prompts_before(self, parent: object) -> int:
        """The prompts on the branch up to ``parent``; where it is unknown, the file order's count."""
        if parent is None:
            return 0
        if isinstance(parent, str):
            known = self.chain.get(parent)
            if known is None and self.earlier is not None:
                known = self.earlier(parent)
            if known is not None:
                return known
        return self.turns


def _is_attachment_line(line: bytes) -> bool:
    head = line[:400]
    return b'"attachment":' in head and b'"type":"user"' not in head and b'"type": "user"' not in head


def _input_text(inp: dict[str, Any]) -> str:
    """The string values of a tool call's input (command, pattern, path, old/new strings …), bounded."""
    parts: list[str] = []
    size = 0
    for value in inp.values():
        if isinstance(value, str) and value and size < TOOL_INPUT_MAX:
            parts.append(value[:TOOL_INPUT_MAX - size])
            size += len(parts[-1])
    return " ".join(parts)


def _result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content[:TOOL_OUTPUT_MAX]
    if isinstance(content, list):
        texts = [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
        return "\n".join(texts)[:TOOL_OUTPUT_MAX]
    return ""


def record_docs(record: dict[str, Any], turn: int, tool_names: dict[str, str] | None = None) -> Iterator[Doc]:
    """Searchable docs of a user/assistant record (sidechains included): what the user saw."""
    uuid = scrub(record["uuid"]) if isinstance(record.get("uuid"), str) else ""
    message = record.get("message")
    names = tool_names if tool_names is not None else {}
    if record.get("type") == "user":
        text = prompt_text(record)
        if text:
            yield Doc("prompt", uuid, turn, clean(text, SNIPPET_SOURCE_MAX))
            return
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_result":
                output = clean(_result_text(block), TOOL_OUTPUT_MAX)
                if output:
                    tool_id = block.get("tool_use_id")
                    name = names.get(tool_id) if isinstance(tool_id, str) else None
                    yield Doc("output", uuid, turn, output, name or "")
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
                yield Doc("answer", uuid, turn, text)
        elif kind == "thinking" and isinstance(block.get("thinking"), str):
            text = clean(block["thinking"], SNIPPET_SOURCE_MAX)
            if text:
                yield Doc("thinking", uuid, turn, text)
        elif kind == "tool_use" and isinstance(block.get("name"), str):
            name = clean(block["name"], 200)
            if isinstance(block.get("id"), str):
                if len(names) >= _TOOL_NAMES_MAX:
                    names.pop(next(iter(names)))
                names[block["id"]] = name
            inp = block.get("input")
            inp = inp if isinstance(inp, dict) else {}
            # One doc per call: its name and every string of its input (paths, commands, patterns …).
            yield Doc("tool", uuid, turn, clean(f"{name} {_input_text(inp)}", TOOL_INPUT_MAX + 200), name)


def complete_blocks(fh: Any, offset: int) -> Iterator[tuple[bytes, int]]:
    """``(complete lines, end offset)`` from ``offset``, about ``READ_CHUNK`` bytes at a time: a
    transcript is never held whole, and a line still being written is left for the next scan."""
    fh.seek(offset)
    pending = b""
    pos = offset
    while True:
        chunk = fh.read(READ_CHUNK)
        if not chunk:
            return
        data = pending + chunk if pending else chunk
        cut = data.rfind(b"\n") + 1
        pending = data[cut:]
        if cut:
            pos += cut
            yield data[:cut], pos


def _lines(fh: Any, offset: int) -> Iterator[tuple[bytes, int]]:
    """``(line, end offset)`` of each complete line from ``offset``."""
    for block, end in complete_blocks(fh, offset):
        base = end - len(block)
        start = 0
        while True:
            nl = block.find(b"\n", start)
            if nl < 0:
                break
            yield block[start:nl], base + nl + 1
            start = nl + 1


def scan_file(path: str | os.PathLike[str], state: ScanState | None = None, *, with_docs: bool = True) -> ScanState:
    """Scan ``path`` from ``state.offset`` to its last complete line, updating counters.

    The file is streamed (never read whole). Corrupt lines and unknown record types are
    counted/skipped, never fatal.
    """
    state = state if state is not None else ScanState()
    state.docs = []
    try:
        with open(path, "rb") as fh:
            for line, end in _lines(fh, state.offset):
                state.offset = end
                _scan_line(line, state, with_docs)
    except OSError:
        return state
    return state


def _scan_line(line: bytes, state: ScanState, with_docs: bool) -> None:
    if not line.strip() or line.startswith(_SKIP_PREFIXES):
        return
    attachment = _is_attachment_line(line)
    if attachment and b'"queued_command"' not in line:
        _link_attachment(line, state)
        return
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        state.bad_lines += 1
        return
    if not isinstance(record, dict):
        state.bad_lines += 1
        return
    if attachment:
        # A prompt typed while a turn ran, kept only as an attachment: the user record the resumed
        # session shows it as; any other attachment is nothing. (Imported here: `claude-tui sessions`
        # need not load the protocol.)
        from claude_tui.session.replay import queued_as_prompt

        record = queued_as_prompt(record) or {}
    kind = record.get("type")
    if kind not in ("user", "assistant"):
        return
    sidechain = bool(record.get("isSidechain"))
    uuid = record.get("uuid")
    # No parentUuid at all (a queued prompt rebuilt from its attachment): the file order's count
    linked = "parentUuid" in record and not sidechain
    before = state.prompts_before(record["parentUuid"]) if linked else state.turns
    if kind == "user":
        is_prompt = prompt_text(record) is not None
        if not record.get("isMeta") and not sidechain:
            state.messages += 1
        if with_docs:
            # A prompt opens turn `before`; a tool result belongs to the turn already open,
            # as the call it answers does (search would otherwise jump one turn too far).
            turn = before if is_prompt else max(before - 1, 0)
            state.docs.extend(record_docs(record, turn, state.tool_names))
        if is_prompt and not sidechain:
            state.turns += 1
            before += 1
    else:
        message = record.get("message")
        msg_id = message.get("id") if isinstance(message, dict) else None
        if not sidechain and (not isinstance(msg_id, str) or msg_id != state.last_msg_id):
            state.messages += 1
            state.last_msg_id = scrub(msg_id) if isinstance(msg_id, str) else ""
        if with_docs:
            state.docs.extend(record_docs(record, max(before - 1, 0), state.tool_names))
    if isinstance(uuid, str) and not sidechain:
        state.chain[uuid] = before


_PARENT = re.compile(rb'"parentUuid":(?:"([^"\\]+)"|null)')
_ATTACHMENT_UUID = re.compile(rb'"type":"attachment","uuid":"([^"\\]+)"')


def _link_attachment(line: bytes, state: ScanState) -> None:
    """An attachment (not parsed: some are 60 KB) links its branch: the next record's parent is often
    one. Its parent opens the line, its own uuid follows its content, as the CLI writes it."""
    parent = _PARENT.search(line, 0, 300)
    own = _ATTACHMENT_UUID.search(line, max(0, len(line) - 2000))
    if parent is not None and own is not None:
        link = parent.group(1)
        state.chain[own.group(1).decode()] = state.prompts_before(link.decode() if link else None)


def count_messages(path: str | os.PathLike[str]) -> int:
    """Message count of a transcript (a full scan; the listing gets it from the index)."""
    return scan_file(path, with_docs=False).messages
