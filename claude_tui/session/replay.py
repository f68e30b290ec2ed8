"""Rebuilding a `Conversation` from transcript records (resume, preview, export).

Transcript `user`/`assistant` records carry the same `message` shape as the
stream-json messages, with the structured tool result under `toolUseResult`,
so they are fed through the same protocol decoder and state machine as a
live session: resumed history renders exactly like live history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from claude_tui.protocol import decode_obj
from claude_tui.protocol.pricing import estimate_cost
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, NoteKind
from claude_tui.session.replay_decisions import restore_decisions
from claude_tui.session.status import Activity

RESUMED = "Resumed from the transcript"
"""How the note a replay ends with begins (the preview, exports and forks look for it)."""


def record_to_message(record: Mapping[str, Any], parent_tool_use_id: str | None = None) -> dict[str, Any] | None:
    """The stream-json form of a transcript record, or None for bookkeeping records."""
    # A prompt queued mid-turn goes the way a typed one does (the same checks and wording).
    record = queued_as_prompt(record) or record
    kind = record.get("type")
    if kind in ("user", "assistant") and isinstance(record.get("message"), dict):
        message: dict[str, Any] = {
            "type": kind,
            "message": record["message"],
            "parent_tool_use_id": parent_tool_use_id,
            "session_id": record.get("sessionId", ""),
            "uuid": record.get("uuid"),
        }
        if "toolUseResult" in record:
            message["tool_use_result"] = record["toolUseResult"]
        meta = _tool_result_meta(record)
        if meta:
            message["tool_result_meta"] = meta
        if record.get("isMeta"):
            message["isMeta"] = True
        if kind == "assistant" and record.get("error"):
            message["error"] = record["error"]
        return message
    if kind == "system" and record.get("subtype") == "compact_boundary":
        return {"type": "system", "subtype": "compact_boundary",
                "compact_metadata": record.get("compactMetadata") or record.get("compact_metadata") or {},
                "session_id": record.get("sessionId", ""), "uuid": record.get("uuid")}
    return None


def queued_as_prompt(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the user typed while a turn ran, from a ``queued_command`` attachment, as the ``user``
    record of a typed prompt (with the uuid its echo had live); else None.

    A prompt sent while a turn runs is folded into that turn ("absorbed mid-turn"): the CLI's
    transcript keeps it only as ``{"type": "attachment", "attachment": {"type": "queued_command",
    "prompt": …, "source_uuid": …, "commandMode": "prompt"}}``, with no ``user`` record. Queued
    commands the CLI made (meta, another origin: a task notification, a peer) or that were no
    prompt (a ``!`` command) were never shown as the user's message.
    """
    attachment = record.get("attachment")
    if record.get("type") != "attachment" or not isinstance(attachment, Mapping):
        return None
    if attachment.get("type") != "queued_command" or attachment.get("isMeta"):
        return None
    origin = attachment.get("origin")
    if origin is not None and not (isinstance(origin, Mapping) and origin.get("kind") == "human"):
        return None
    if attachment.get("commandMode", "prompt") != "prompt":
        return None
    prompt = attachment.get("prompt")
    if not isinstance(prompt, (str, list)) or not prompt:
        return None
    source = attachment.get("source_uuid")
    return {"type": "user", "uuid": source if isinstance(source, str) and source else record.get("uuid"),
            "sessionId": record.get("sessionId", ""), "isSidechain": record.get("isSidechain", False),
            "message": {"role": "user", "content": prompt}}


def _tool_result_meta(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The stream-json `tool_result_meta` for a transcript record's tool results.

    Live, the CLI says per result why it did not run (`non_execution_kind`) and who decided
    (`permission_decision`); its transcript keeps the same facts on the record as
    `toolDenialKind` and `permissionDecision`. Without them a refusal replays as an error.
    """
    if isinstance(record.get("tool_result_meta"), list):
        return list(record["tool_result_meta"])
    kind = record.get("toolDenialKind")
    decision = record.get("permissionDecision")
    if not isinstance(kind, str) and not isinstance(decision, dict):
        return []
    message = record.get("message")
    blocks = message.get("content") if isinstance(message, dict) else None
    meta: list[dict[str, Any]] = []
    for block in blocks if isinstance(blocks, list) else ():
        if isinstance(block, dict) and block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
            entry: dict[str, Any] = {"id": block["tool_use_id"]}
            if isinstance(kind, str):
                entry["non_execution_kind"] = kind
            if isinstance(decision, dict):
                entry["permission_decision"] = decision
            meta.append(entry)
    return meta


def replay(
    records: Iterable[Mapping[str, Any]],
    sidechains: Mapping[str, Iterable[Mapping[str, Any]]] | None = None,
    *,
    session_id: str = "",
    cost_usd: float | None = None,
    conversation: Conversation | None = None,
) -> Conversation:
    """Feed the main chain (root → leaf) and each subagent's records into a conversation."""
    conversation = conversation or Conversation()
    records = list(records)  # read twice: once shown, once priced when there is no cost_usd
    sidechains = {key: list(agent) for key, agent in (sidechains or {}).items()}
    # The transcript's assistant messages name the model they were written with; the CLI
    # that continues the session may run another (its initialize/init say which).
    model_before = conversation.status.model
    decided: list[Mapping[str, Any]] = []  # tool results that say how their call was allowed or answered
    # A queued prompt that also went out as a prompt of its own (same uuid) is said once, there.
    prompted = {r["uuid"] for r in records if r.get("type") == "user" and isinstance(r.get("uuid"), str)}
    for record in records:
        # Meta records and the compaction summary (sent to the model, not said by anyone) are not shown.
        if record.get("isMeta") or record.get("isCompactSummary") or record.get("isVisibleInTranscriptOnly"):
            continue
        message = record_to_message(record)
        if message is not None and record.get("type") == "attachment" and message["uuid"] in prompted:
            continue
        if message is not None:
            conversation.apply(decode_obj(message))
        if record.get("type") == "user" and (record.get("permissionDecision") or record.get("toolUseResult")):
            decided.append(record)
    restore_decisions(conversation, decided)
    for tool_use_id, agent_records in (sidechains or {}).items():
        for record in agent_records:
            message = record_to_message(record, parent_tool_use_id=tool_use_id)
            if message is not None:
                conversation.apply(decode_obj(message))
    # Tools that never got a result in the transcript were cut off when the session ended.
    for log in (conversation.main, *conversation.subagents.values()):
        for tool in log.tools.values():
            if not tool.finished:
                from claude_tui.session.items import ToolState

                tool.state = ToolState.INTERRUPTED
    # Transcripts carry no task system messages: an agent still "running" at the end
    # of the history finished (or was stopped) before this resume.
    for agent in conversation.tasks.agents.values():
        if agent.status in ("starting", "running"):
            agent.status = "completed" if agent.tool_use_id in conversation.subagents else "stopped"
            agent.ended_at = agent.started_at
    status = conversation.status
    status.model = model_before
    if session_id:
        status.session_id = session_id
    if cost_usd is not None:
        # The CLI continuing this history (resume or fork) counts its cost in every total it reports.
        status.cost_total = conversation.history_cost = cost_usd
    else:
        # An older CLI's transcript (no cost-state, so no `cost_usd`): estimated from its token counts.
        # Those CLIs' totals do not include the history, so the estimate is added to what they report
        # (`CostMeter.base`, as after a reset of the counter) instead of being a floor.
        earlier = estimate_cost([*records, *(r for agent in sidechains.values() for r in agent)])
        if earlier:
            conversation.cost.base = status.cost_total = earlier
    status.activity = Activity.STARTING
    if conversation.items:
        conversation.add_note(f"{RESUMED}; the conversation continues below.", NoteKind.INFO)
    return conversation


def note_other_branches(conversation: Conversation, prompts: list[str]) -> None:
    """Say at the end of a replayed log that the transcript holds turns of another branch (a rewind
    went back before them), which the log does not show: they are not lost, search finds them."""
    if not prompts:
        return
    named = ", ".join(f"“{' '.join(p.split())[:40]}”" for p in prompts[:3]) + (" …" if len(prompts) > 3 else "")
    count = len(prompts)
    conversation.add_note(
        f"{count} prompt{'s' if count != 1 else ''} of a branch rewound away {'are' if count != 1 else 'is'} "
        f"not shown: {named}. {'They stay' if count != 1 else 'It stays'} in the transcript (search finds "
        f"{'them' if count != 1 else 'it'}); this is the branch the session goes on from.", NoteKind.INFO)
    items = conversation.main.items
    if len(items) >= 2 and isinstance(items[-2], NoteItem) and items[-2].text.startswith(RESUMED):
        items[-2], items[-1] = items[-1], items[-2]  # the resumed note stays last: the preview and forks look for it
