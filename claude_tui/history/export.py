"""``claude-tui export``: a transcript rendered the way the app exports a live session.

The transcript is replayed into a conversation (what a resume shows) and written by
:mod:`claude_tui.session.export`, so the in-app export and this one carry the same
content: turns and roles as headings, tool calls with input, output and diffs,
thinking folded in ``<details>``. Pure: no Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .transcript import Transcript

if TYPE_CHECKING:
    from claude_tui.session.conversation import Conversation


def _conversation(t: Transcript) -> Conversation:  # session imported here: listing sessions does not need it
    from claude_tui.session.items import NoteItem
    from claude_tui.session.replay import replay

    cost = t.cost_state.get("totalCostUSD") if t.cost_state else None
    conversation = replay(t.records, t.subagents, session_id=t.session_id,
                          cost_usd=float(cost) if isinstance(cost, (int, float)) else None)
    items = conversation.main.items
    if items and isinstance(items[-1], NoteItem) and items[-1].text.startswith("Resumed from the transcript"):
        items.pop()  # the resume note is about the app, not the session
    cwd = next((r.get("cwd") for r in t.records if isinstance(r.get("cwd"), str)), None)
    if cwd and not conversation.status.cwd:
        conversation.status.cwd = cwd
    model = next((r["message"].get("model") for r in reversed(t.records) if r.get("type") == "assistant"
                  and isinstance(r.get("message"), dict) and r["message"].get("model") not in (None, "<synthetic>")),
                 None)
    if isinstance(model, str) and not conversation.status.model:
        conversation.status.model = model
    return conversation


def to_markdown(t: Transcript, *, title: str | None = None, include_thinking: bool = True) -> str:
    from claude_tui.session.export import to_markdown as items_markdown

    conversation = _conversation(t)
    return items_markdown(conversation.items, conversation.status, include_thinking=include_thinking,
                          title=title or t.session_id)


def to_json(t: Transcript, *, title: str | None = None) -> str:
    from claude_tui.session.export import to_json as items_json

    conversation = _conversation(t)
    return items_json(conversation.items, conversation.status, title=title).rstrip("\n")
