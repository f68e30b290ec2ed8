"""Session metadata from bounded reads: the head and tail of a transcript only.

:func:`read_meta` reads at most ``HEAD_BYTES + TAIL_BYTES`` (128 KB) of a file
no matter how large it is, and only parses the few lines it needs. Corrupt
lines, truncated lines at the chunk edges and unknown record types are skipped.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from claude_tui.protocol.pricing import estimate_cost

from .lineage import complete_lines, root_uuid
from .text import TITLE_MAX, clean, command_label, has_tool_result, is_prompt_like, message_texts, prompt_text, scrub

HEAD_BYTES = 64 * 1024
TAIL_BYTES = 64 * 1024
SMALL_HEAD = 16 * 1024
SMALL_TAIL = 32 * 1024
#: How many candidate lines a tail lookup parses before it gives up.
_MAX_TRIES = 12

_FIELD_RE = {
    key: re.compile(rb'"' + key.encode() + rb'": ?"((?:[^"\\]|\\.)*)"')
    for key in ("cwd", "gitBranch", "entrypoint", "timestamp", "sessionId", "version")
}


@dataclass(slots=True)
class SessionMeta:
    """What the listing shows for one transcript. Times are epoch seconds."""

    session_id: str
    path: str
    project: str  # name of the project directory (encoded cwd)
    size: int
    mtime_ns: int
    title: str = ""
    title_source: str = ""  # custom | first-prompt | ai | summary | last-prompt | command | ""
    custom_title: str | None = None
    ai_title: str | None = None
    summary: str | None = None
    last_prompt: str | None = None
    first_prompt: str | None = None
    created: float | None = None
    last_active: float = 0.0
    cwd: str | None = None
    git_branch: str | None = None
    model: str | None = None
    cost_usd: float | None = None
    entrypoint: str | None = None
    version: str | None = None
    tag: str | None = None
    root_uuid: str | None = None
    """The uuid of the conversation's first record: a fork (``--fork-session``) copies its parent's
    records with their uuids, so sessions sharing it are one lineage (see :mod:`.lineage`)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_timestamp(value: Any) -> float | None:
    """ISO-8601 (``...Z``) → epoch seconds, or None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _first_field(buf: bytes, key: str) -> str | None:
    match = _FIELD_RE[key].search(buf)
    if not match:
        return None
    raw = match.group(1)
    try:
        value = json.loads(b'"' + raw + b'"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _loads(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _type_marks(kind: str) -> tuple[bytes, bytes]:
    return (b'"type":"' + kind.encode() + b'"', b'"type": "' + kind.encode() + b'"')


def _last_record(
    buf: bytes,
    needle: bytes,
    pred: Callable[[dict[str, Any]], bool],
    first_complete: int,
    kind: str | None = None,
) -> dict[str, Any] | None:
    """The last complete line of ``buf`` containing ``needle`` whose record passes ``pred``.

    With ``kind``, lines without a ``"type":"<kind>"`` mark are rejected before parsing.
    """
    marks = _type_marks(kind) if kind else None
    end = len(buf)
    for _ in range(_MAX_TRIES):
        pos = buf.rfind(needle, 0, end)
        if pos < 0:
            return None
        start = buf.rfind(b"\n", 0, pos) + 1
        if start < first_complete:
            return None  # the line began before the chunk: truncated
        stop = buf.find(b"\n", pos)
        line = buf[start : stop if stop >= 0 else len(buf)]
        end = start
        if marks and marks[0] not in line and marks[1] not in line:
            continue
        record = _loads(line)
        if record is not None and pred(record):
            return record
    return None


def _last_field(buf: bytes, key: str, first_complete: int) -> str | None:
    """The value of the last ``"key":"..."`` in the complete lines of ``buf``."""
    needle = b'"' + key.encode() + b'":'
    pos = buf.rfind(needle)
    if pos < first_complete:
        return None
    return _first_field(buf[pos : pos + 4096], key)


_TYPED = frozenset({b"custom-title", b"ai-title", b"summary", b"last-prompt", b"tag", b"cost-state"})


def _line_kind(line: bytes) -> bytes | None:
    """The type of a bookkeeping record; the CLI writes ``{"type":...`` first for those."""
    if line.startswith(b'{"type":"'):
        rest = line[9:60]
    elif line.startswith(b'{"type": "'):
        rest = line[10:60]
    else:
        return None
    q = rest.find(b'"')
    return rest[:q] if q > 0 else None


def _typed_records(buf: bytes, want_model: bool) -> dict[str, dict[str, Any]]:
    """The last record of each bookkeeping type in ``buf`` (complete lines only),
    plus the last real assistant record under ``"assistant"`` if ``want_model``."""
    found: dict[str, dict[str, Any]] = {}
    for line in reversed(buf.split(b"\n")):
        kind = _line_kind(line)
        if kind is None:
            if want_model and (b'"type":"assistant"' in line or b'"type": "assistant"' in line):
                rec = _loads(line)
                if rec is not None and _assistant_model(rec):
                    found["assistant"] = rec
                    want_model = False
            continue
        if kind in _TYPED:
            key = kind.decode()
            if key not in found:
                rec = _loads(line)
                if rec is not None and rec.get("type") == key:
                    found[key] = rec
    return found


def _first_prompt(head: bytes, complete_end: int) -> tuple[str | None, str | None]:
    """(first real prompt, first slash command) from the head's complete lines."""
    command: str | None = None
    for line in complete_lines(head, complete_end):
        if b'"user"' not in line or b'"tool_result"' in line:
            continue
        if b'"isMeta":true' in line or b'"isMeta": true' in line:
            continue
        record = _loads(line)
        if record is None or record.get("type") != "user" or record.get("isSidechain"):
            continue
        text = prompt_text(record)
        if text is not None:
            return text, command
        if command is None and not has_tool_result(record.get("message")):
            for raw in message_texts(record.get("message")):
                label = command_label(raw)
                if label:
                    command = label
                    break
    return None, command


_PARTIAL_TEXT_RE = re.compile(rb'"(?:text|content)": ?"((?:[^"\\]|\\.){1,2000})')


def _git_branch(branch: str | None, cwd: str | None) -> str | None:
    """The branch, except the ``HEAD`` the CLI writes for a folder that is not in a git work tree."""
    if branch != "HEAD" or not cwd:
        return branch
    here = cwd
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return branch  # a repository on a detached HEAD: that is worth showing
        parent = os.path.dirname(here)
        if parent == here:
            # No .git above it. A cwd that is gone from this machine cannot tell: keep the word.
            return None if os.path.isdir(cwd) else branch
        here = parent


def _partial_prompt(line: bytes) -> str | None:
    """The start of a prompt whose record is longer than the head chunk."""
    if (b'"type":"user"' not in line and b'"type": "user"' not in line) or b'"tool_result"' in line:
        return None
    if b'"isMeta":true' in line or b'"isMeta": true' in line:
        return None
    match = _PARTIAL_TEXT_RE.search(line)
    if not match:
        return None
    raw = match.group(1)
    for cut in range(4):  # drop a dangling escape sequence at the cut
        try:
            value = json.loads(b'"' + raw[: len(raw) - cut] + b'"')
        except ValueError:
            continue
        return value if isinstance(value, str) and is_prompt_like(value) else None
    return None


def _assistant_model(record: dict[str, Any]) -> bool:
    if record.get("type") != "assistant":
        return False
    message = record.get("message")
    return isinstance(message, dict) and isinstance(message.get("model"), str) and message["model"] != "<synthetic>"


_MESSAGE_MARKS = (*_type_marks("user"), *_type_marks("assistant"))


def _has_messages(data: bytes) -> bool:
    """Whether a (whole) transcript holds any conversation record: CLIs up to 2.1.0 write a file holding
    only a `file-history-snapshot` under a fresh id each time they resume a session, which listed as
    an extra "(no prompt)" session with 0 messages."""
    return any(mark in data for mark in _MESSAGE_MARKS)


def _assistant_records(data: bytes) -> list[dict[str, Any]]:
    marks = _type_marks("assistant")
    found = []
    for line in data.split(b"\n"):
        if (marks[0] in line or marks[1] in line) and b'"usage"' in line:
            record = _loads(line)
            if record is not None:
                found.append(record)
    return found


def _read_bounded(fh: Any, size: int, head_n: int, tail_n: int) -> tuple[bytes, bytes, bool]:
    """(head, tail, whole): the whole file if it fits in ``head_n + tail_n`` bytes."""
    if size <= head_n + tail_n:
        data = fh.read(head_n + tail_n)
        return data, data, True
    head = fh.read(head_n)
    fh.seek(size - tail_n)
    return head, fh.read(tail_n), False


def read_meta(path: str | os.PathLike[str], project: str | None = None) -> SessionMeta | None:
    """Metadata of one transcript from at most 128 KB of it, or None if unreadable/empty.

    Reads a small head and tail first (16 KB + 32 KB) and only widens them to
    64 KB + 64 KB (reading just the missing bytes) when the first prompt or
    the tail's bookkeeping records are not in the small chunks.
    """
    path = os.fspath(path)
    name = os.path.basename(path)
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            size = st.st_size
            if size == 0:
                return None
            if size <= HEAD_BYTES + TAIL_BYTES:  # small enough: read it all, once
                head, tail, whole = _read_bounded(fh, size, HEAD_BYTES, TAIL_BYTES)
            else:
                head, tail, whole = _read_bounded(fh, size, SMALL_HEAD, SMALL_TAIL)
            if whole and not _has_messages(head):
                return None  # e.g. the snapshot-only file an older CLI writes when it resumes a session
            meta = _extract(path, name, project, st, head, tail, whole)
            if whole:
                return meta
            need_head = meta.first_prompt is None and meta.title_source != "command"
            need_tail = (meta.cost_usd is None and meta.last_prompt is None) \
                or _last_field(tail, "timestamp", tail.find(b"\n") + 1) is None  # a big last record
            if not (need_head or need_tail):
                return meta
            if need_head:
                fh.seek(SMALL_HEAD)
                head += fh.read(HEAD_BYTES - SMALL_HEAD)
            if need_tail:
                fh.seek(size - TAIL_BYTES)
                tail = fh.read(TAIL_BYTES - SMALL_TAIL) + tail
            return _extract(path, name, project, st, head, tail, whole)
    except OSError:
        return None


def _extract(path: str, name: str, project: str | None, st: os.stat_result,
             head: bytes, tail: bytes, whole: bool) -> SessionMeta:
    size = st.st_size
    tail_first = 0 if whole else tail.find(b"\n") + 1  # skip the partial first line
    # In the head, a line only counts if its newline is inside the chunk.
    head_end = len(head) if whole else head.rfind(b"\n") + 1
    meta = SessionMeta(
        session_id=name[:-6] if name.endswith(".jsonl") else name,
        path=path,
        project=project if project is not None else os.path.basename(os.path.dirname(path)),
        size=size,
        mtime_ns=st.st_mtime_ns,
        last_active=st.st_mtime_ns / 1e9,
    )
    hb = head[:head_end]
    meta.cwd = _first_field(hb, "cwd")
    meta.entrypoint = _first_field(hb, "entrypoint")
    meta.version = _first_field(hb, "version")
    meta.created = parse_timestamp(_first_field(hb, "timestamp")) or meta.last_active

    # The CLI appends its bookkeeping (last-prompt, cost-state: no timestamps) at every exit, which
    # touches the file: every tab closed by one quit would read "just now". The last record's own
    # time is when the session was last used; the mtime stays the bound (a clock set back, no record).
    recorded = parse_timestamp(_last_field(tail, "timestamp", tail_first))
    if recorded is not None:
        meta.last_active = min(meta.last_active, recorded)
    meta.git_branch = _git_branch(_last_field(tail, "gitBranch", tail_first) or _first_field(hb, "gitBranch"),
                                  meta.cwd)
    meta.root_uuid = root_uuid(head, head_end)

    typed = _typed_records(tail[tail_first:], want_model=True)
    if not whole:
        for kind, rec in _typed_records(hb, want_model=False).items():
            typed.setdefault(kind, rec)
    custom = typed.get("custom-title", {}).get("customTitle")
    ai = typed.get("ai-title", {}).get("aiTitle")
    summary = typed.get("summary", {}).get("summary")
    last_prompt = typed.get("last-prompt", {}).get("lastPrompt")
    tag = typed.get("tag", {}).get("tag")
    meta.custom_title = clean(custom, TITLE_MAX) or None if isinstance(custom, str) else None
    meta.ai_title = clean(ai, TITLE_MAX) or None if isinstance(ai, str) else None
    meta.summary = clean(summary, TITLE_MAX) or None if isinstance(summary, str) else None
    meta.tag = clean(tag, TITLE_MAX) or None if isinstance(tag, str) else None
    if isinstance(last_prompt, str) and is_prompt_like(last_prompt):
        meta.last_prompt = clean(last_prompt, TITLE_MAX) or None

    first, command = _first_prompt(head, head_end)
    if first is None and not whole and head_end < len(head):
        first = _partial_prompt(head[head_end:])
    meta.first_prompt = clean(first, TITLE_MAX) if first else None

    cost = typed.get("cost-state", {}).get("totalCostUSD")
    if isinstance(cost, (int, float)):
        meta.cost_usd = float(cost)
    elif whole:
        # No cost-state (CLIs up to 2.1.0 write none): estimated from the token counts, as on resume.
        meta.cost_usd = estimate_cost(_assistant_records(head))
    model = typed.get("assistant")
    if model is None and not whole:
        model = _last_record(hb, b'"model":', _assistant_model, 0, "assistant")
    if model is not None:
        meta.model = model["message"]["model"]

    # A title that stays put: the name the user gave it, else the first thing they asked. The CLI's
    # last-prompt record changes every turn (and a fork would share it with its parent).
    for source, value in (
        ("custom", meta.custom_title),
        ("first-prompt", meta.first_prompt),
        ("ai", meta.ai_title),
        ("summary", meta.summary),
        ("last-prompt", meta.last_prompt),
        ("command", clean(command, TITLE_MAX) if command else None),
    ):
        if value:
            meta.title, meta.title_source = value, source
            break
    _scrub_fields(meta)
    return meta


def _scrub_fields(meta: SessionMeta) -> None:
    """No lone surrogate in any text field (JSON escapes can hold them; SQLite and stdout refuse them).
    ``path`` comes from the file system and is left alone (the index skips a path it cannot store)."""
    for name in ("session_id", "project", "cwd", "git_branch", "model", "entrypoint", "version"):
        value = getattr(meta, name)
        if isinstance(value, str):
            setattr(meta, name, scrub(value))
