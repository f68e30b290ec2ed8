"""Resuming: which session to continue and its history, from the CLI's transcripts (read-only)."""

from __future__ import annotations

from pathlib import Path

from claude_tui.history.index import SessionIndex
from claude_tui.history.transcript import Transcript, load_session, load_transcript
from claude_tui.session.conversation import Conversation
from claude_tui.session.replay import replay


def newest_session_id(cwd: Path) -> str | None:
    """The most recently active session of `cwd` (what `--continue` means)."""
    with SessionIndex() as index:
        rows = index.list_sessions(cwd, all_projects=False, limit=1)
    return rows[0].session_id if rows else None


def conversation_from_transcript(transcript: Transcript) -> Conversation:
    cost = transcript.cost_state.get("totalCostUSD") if transcript.cost_state else None
    return replay(transcript.records, transcript.subagents, session_id=transcript.session_id,
                  cost_usd=float(cost) if isinstance(cost, (int, float)) else None)


def load_conversation(session_id: str, cwd: Path | None = None, path: Path | None = None) -> Conversation | None:
    """The history of a session rebuilt as a conversation, or None if its transcript is not found."""
    transcript = load_transcript(path) if path is not None else load_session(session_id, cwd=cwd)
    if transcript is None:
        return None
    return conversation_from_transcript(transcript)
