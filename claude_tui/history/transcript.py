"""Load a transcript for rendering or resuming.

The main chain is found by taking the newest non-sidechain user/assistant
record (the leaf of the branch the conversation continued on; abandoned
branches are left out) and following ``parentUuid`` to the root. Where a
``compact_boundary`` record has no parent, the walk continues through its
``logicalParentUuid`` so the history before the compaction stays visible;
:attr:`Transcript.boundaries` marks where each compaction happened.

Subagent records (``isSidechain`` records in the file, progress records with a
``parentToolUseID``, and ``<session-id>/subagents/agent-*.jsonl`` files) are
attached to the id of the Task/Agent ``tool_use`` that started them.
Records are returned as the dicts the CLI wrote: ``message`` has the shape of a
stream-json message, tool results carry ``toolUseResult``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .paths import find_session_file, subagent_files

Record = dict[str, Any]
TASK_TOOLS = frozenset({"Task", "Agent"})
_CHAIN_TYPES = frozenset({"user", "assistant", "system", "attachment", "progress"})
#: Types with no uuid and nothing to show: not parsed at all.
_SKIP_PREFIXES = tuple(
    p
    for k in ("api-request", "api-request-blob", "api-request-shape", "queue-operation", "atis-latch", "tools-used")
    for p in (b'{"type":"' + k.encode() + b'"', b'{"type": "' + k.encode() + b'"')
)


@dataclass(slots=True)
class Transcript:
    session_id: str
    path: Path
    records: list[Record]  # the main chain, oldest first
    boundaries: list[int] = field(default_factory=list)  # indexes of compact_boundary records in ``records``
    subagents: dict[str, list[Record]] = field(default_factory=dict)  # Task tool_use_id → records
    cost_state: Record | None = None  # the last cost-state record
    leaf_uuid: str | None = None
    skipped_lines: int = 0  # corrupt lines
    other_branches: list[str] = field(default_factory=list)
    """The prompts off the main chain, in file order: turns a rewind (`--resume-session-at`) went back
    before. Left out of ``records``; they stay in the file, where search finds them."""

    def before_compaction(self, i: int) -> bool:
        """True if ``records[i]`` precedes the last compaction boundary (summarised away)."""
        return bool(self.boundaries) and i < self.boundaries[-1]

    def messages(self) -> list[Record]:
        """Only the user and assistant records of the main chain."""
        return [r for r in self.records if r.get("type") in ("user", "assistant")]


_CUT_KINDS = frozenset({"interrupted", "cancelled"})


def tool_denial(record: Record) -> str | None:
    """Why a user record's error tool results did not come from running the tool, from the fields the
    CLI writes: ``"denied"`` (``permissionDecision`` reject, or a ``toolDenialKind`` such as
    ``permission-rule``/``user-rejected``), ``"interrupted"`` (``interrupted``/``cancelled``), else None."""
    kind = record.get("toolDenialKind")
    decision = record.get("permissionDecision")
    if isinstance(decision, dict) and decision.get("decision") == "reject":
        return "denied"
    if isinstance(kind, str) and kind:
        return "interrupted" if kind in _CUT_KINDS else "denied"
    return None


def is_compact_boundary(record: Record) -> bool:
    return record.get("type") == "system" and record.get("subtype") == "compact_boundary"


def _parse(line: bytes) -> Record | None:
    """One JSON object line, or None (blank, skipped type: not counted as corrupt)."""
    if not line.strip() or line.startswith(_SKIP_PREFIXES):
        return None
    rec = json.loads(line)  # ValueError / RecursionError: the caller counts a corrupt line
    if not isinstance(rec, dict):
        raise ValueError("not a JSON object")
    return rec


class _Lines:
    """The records of a transcript file, parsed one line at a time (the file is never held whole:
    a 20 MB transcript would otherwise sit in memory as bytes, as lines and as records at once)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.bad = 0

    def __iter__(self) -> Iterator[Record]:
        try:
            fh = open(self.path, "rb")
        except OSError:
            return
        with fh:
            for line in fh:
                try:
                    rec = _parse(line)
                except (ValueError, RecursionError):  # bad JSON, or nested too deep to parse
                    self.bad += 1
                    continue
                if rec is not None:
                    yield rec


def parse_lines(data: bytes) -> tuple[list[Record], int]:
    """Every parseable JSON object line of ``data``; returns (records, corrupt line count)."""
    records: list[Record] = []
    bad = 0
    for line in data.split(b"\n"):
        try:
            rec = _parse(line)
        except (ValueError, RecursionError):
            bad += 1
            continue
        if rec is not None:
            records.append(rec)
    return records, bad


def _tool_ids(record: Record, block_type: str, key: str) -> list[str]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return []
    return [b[key] for b in content
            if isinstance(b, dict) and b.get("type") == block_type and isinstance(b.get(key), str)]


def _msg_id(record: Record) -> str | None:
    message = record.get("message")
    mid = message.get("id") if isinstance(message, dict) else None
    return mid if isinstance(mid, str) and mid else None


def build_chain(by_uuid: dict[str, Record], leaf: Record) -> tuple[list[Record], list[int]]:
    """Walk from ``leaf`` to the root (crossing compaction boundaries); oldest first."""
    chain: list[Record] = []
    seen: set[str] = set()
    boundary_uuids: set[str] = set()
    cur: Record | None = leaf
    while cur is not None and cur["uuid"] not in seen:
        seen.add(cur["uuid"])
        chain.append(cur)
        parent = cur.get("parentUuid")
        if not parent and is_compact_boundary(cur):
            boundary_uuids.add(cur["uuid"])
            parent = cur.get("logicalParentUuid")
        cur = by_uuid.get(parent) if isinstance(parent, str) else None
    chain.reverse()
    return chain, [i for i, r in enumerate(chain) if r["uuid"] in boundary_uuids]


def recover_parallel_tools(by_uuid: dict[str, Record], chain: list[Record]) -> list[Record]:
    """Put back sibling tool calls and their results that the parent walk skipped.

    The CLI writes one assistant record per content block; parallel tool calls
    fan their results out from different parents, so the walk keeps only one
    branch. Missing siblings and results go right after their response.
    """
    on_chain = {r["uuid"] for r in chain}
    groups: dict[str, list[Record]] = {}
    results: dict[str, list[Record]] = {}
    for rec in by_uuid.values():
        if rec.get("isSidechain"):
            continue
        mid = _msg_id(rec) if rec.get("type") == "assistant" else None
        if mid:
            groups.setdefault(mid, []).append(rec)
        elif rec.get("type") == "user":
            for tid in _tool_ids(rec, "tool_result", "tool_use_id"):
                results.setdefault(tid, []).append(rec)
    answered = {tid for r in chain for tid in _tool_ids(r, "tool_result", "tool_use_id")}
    out: list[Record] = []
    anchors: dict[str, int] = {}
    for i, rec in enumerate(chain):
        mid = _msg_id(rec) if rec.get("type") == "assistant" else None
        if mid:
            anchors[mid] = i
    inserts: dict[int, list[Record]] = {}
    for mid, i in anchors.items():
        extra: list[Record] = []
        for sib in groups.get(mid, []):
            if sib["uuid"] not in on_chain:
                extra.append(sib)
                on_chain.add(sib["uuid"])
        for sib in groups.get(mid, []):
            for tid in _tool_ids(sib, "tool_use", "id"):
                if tid in answered:
                    continue
                for res in results.get(tid, []):
                    if res["uuid"] not in on_chain:
                        extra.append(res)
                        on_chain.add(res["uuid"])
                        answered.add(tid)
        if extra:
            inserts[i] = extra
    if not inserts:
        return chain
    for i, rec in enumerate(chain):
        out.append(rec)
        out.extend(inserts.get(i, ()))
    return out


def _linear(records: list[Record]) -> list[Record]:
    """A subagent's records in chain order when linked, else file order."""
    with_uuid = [r for r in records if isinstance(r.get("uuid"), str)]
    by_uuid = {r["uuid"]: r for r in with_uuid}
    leaf = next((r for r in reversed(with_uuid) if r.get("type") in ("user", "assistant")), None)
    if leaf is None:
        return with_uuid
    chain, _ = build_chain(by_uuid, leaf)
    return chain if len(chain) >= len([r for r in with_uuid if r.get("type") in ("user", "assistant")]) else with_uuid


def _task_links(chain: list[Record]) -> tuple[dict[str, str], dict[str, str]]:
    """(agentId → tool_use_id, first prompt → tool_use_id) for Task/Agent calls."""
    by_agent: dict[str, str] = {}
    by_prompt: dict[str, str] = {}
    task_ids: set[str] = set()
    for rec in chain:
        message = rec.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") in TASK_TOOLS:
                tid = block.get("id")
                if isinstance(tid, str):
                    task_ids.add(tid)
                    prompt = (block.get("input") or {}).get("prompt") if isinstance(block.get("input"), dict) else None
                    if isinstance(prompt, str):
                        by_prompt.setdefault(prompt.strip(), tid)
    for rec in chain:
        result = rec.get("toolUseResult")
        if isinstance(result, dict) and isinstance(result.get("agentId"), str):
            for tid in _tool_ids(rec, "tool_result", "tool_use_id"):
                if tid in task_ids:
                    by_agent[result["agentId"]] = tid
    return by_agent, by_prompt


def _first_prompt(records: list[Record]) -> str | None:
    for r in records:
        if r.get("type") == "user":
            message = r.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            if isinstance(content, str):
                return content.strip()
            if isinstance(content, list):
                for b in content:
                    text = b.get("text") if isinstance(b, dict) and b.get("type") == "text" else None
                    if isinstance(text, str):
                        return text.strip()
    return None


def _attach(target: dict[str, list[Record]], records: list[Record], agent_id: str | None,
            hint: str | None, by_agent: dict[str, str], by_prompt: dict[str, str]) -> None:
    tid = hint or (by_agent.get(agent_id) if agent_id else None)
    if tid is None:
        prompt = _first_prompt(records)
        tid = by_prompt.get(prompt) if prompt else None
    target.setdefault(tid or f"agent:{agent_id or 'unknown'}", []).extend(records)


def load_transcript(path: Path | str, *, with_subagent_files: bool = True) -> Transcript:
    """Parse a transcript file (tolerating corrupt lines) into chain + subagents + cost."""
    path = Path(path)
    records = _Lines(path)
    by_uuid: dict[str, Record] = {}
    cost: Record | None = None
    sidechain: dict[str, list[Record]] = {}
    progress: dict[str, list[Record]] = {}
    leaf: Record | None = None
    for rec in records:
        kind = rec.get("type")
        if kind == "cost-state":
            cost = rec
            continue
        if not isinstance(kind, str) or kind not in _CHAIN_TYPES or not isinstance(rec.get("uuid"), str):
            continue
        if rec.get("isSidechain"):
            sidechain.setdefault(str(rec.get("agentId") or ""), []).append(rec)
            continue
        if kind == "progress" and isinstance(rec.get("parentToolUseID"), str):
            data = rec.get("data")
            inner = data.get("message") if isinstance(data, dict) else None
            if isinstance(inner, dict):
                progress.setdefault(rec["parentToolUseID"], []).append(inner)
            continue
        by_uuid[rec["uuid"]] = rec
        if kind in ("user", "assistant") and not rec.get("isMeta"):
            leaf = rec
    if leaf is None:
        leaf = next((r for r in reversed(list(by_uuid.values())) if r.get("type") in ("user", "assistant")), None)
    chain: list[Record] = []
    boundaries: list[int] = []
    if leaf is not None:
        chain, _ = build_chain(by_uuid, leaf)
        chain = recover_parallel_tools(by_uuid, chain)
        boundaries = [i for i, r in enumerate(chain) if is_compact_boundary(r)]
    bad = records.bad
    by_agent, by_prompt = _task_links(chain)
    subagents: dict[str, list[Record]] = {}
    for tid, recs in progress.items():
        subagents.setdefault(tid, []).extend(recs)
    for agent_id, recs in sidechain.items():
        _attach(subagents, _linear(recs), agent_id or None, None, by_agent, by_prompt)
    if with_subagent_files:
        for agent_id, sub_path in subagent_files(path):
            sub_lines = _Lines(sub_path)
            sub_records = list(sub_lines)
            bad += sub_lines.bad
            hint = None
            try:
                side = json.loads(sub_path.with_name(sub_path.name[: -len(".jsonl")] + ".meta.json").read_text("utf-8"))
                if isinstance(side, dict) and isinstance(side.get("toolUseId"), str):
                    hint = side["toolUseId"]
            except (OSError, ValueError):
                pass
            _attach(subagents, _linear(sub_records), agent_id, hint, by_agent, by_prompt)
    return Transcript(
        session_id=path.stem, path=path, records=chain, boundaries=boundaries, subagents=subagents,
        cost_state=cost, leaf_uuid=leaf["uuid"] if leaf else None, skipped_lines=bad,
        other_branches=_off_chain_prompts(by_uuid, chain),
    )


_NOT_TYPED = ("[Request interrupted", "<local-command", "<command-", "<bash-", "<task-notification")


def _off_chain_prompts(by_uuid: dict[str, Record], chain: list[Record]) -> list[str]:
    on_chain = {r["uuid"] for r in chain}
    prompts: dict[str, str] = {}  # by the prompt's uuid: a queued one that also went out as a prompt, once
    for rec in by_uuid.values():
        if rec["uuid"] in on_chain or rec.get("isMeta") or rec.get("isCompactSummary"):
            continue
        attachment = rec.get("attachment")
        if rec.get("type") == "attachment" and isinstance(attachment, dict):
            # A prompt typed mid-turn is kept only as this (see `session.replay.queued_as_prompt`).
            queued = attachment.get("prompt") if attachment.get("type") == "queued_command" \
                and attachment.get("commandMode") in (None, "prompt") and not attachment.get("isMeta") else None
            text = _first_prompt([{"type": "user", "message": {"content": queued}}]) if queued else None
            source = attachment.get("source_uuid")
            if text and not text.startswith(_NOT_TYPED):
                prompts.setdefault(source if isinstance(source, str) and source else rec["uuid"], text)
            continue
        if rec.get("type") != "user":
            continue
        text = _first_prompt([rec])
        if text and not text.startswith(_NOT_TYPED):
            prompts.setdefault(rec["uuid"], text)
    return list(prompts.values())


def load_session(session_id: str, *, root: Path | None = None,
                 cwd: str | os.PathLike[str] | None = None) -> Transcript | None:
    """Find ``<session-id>.jsonl`` under the config root and load it (None if absent)."""
    path = find_session_file(session_id, root, cwd)
    return load_transcript(path) if path is not None else None
