"""Resuming: which session to continue and its history, from the CLI's transcripts (read-only)."""

from __future__ import annotations

from pathlib import Path

from claude_tui.history.index import SessionIndex
from claude_tui.history.transcript import Transcript, load_session, load_transcript
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, NoteKind
from claude_tui.session.replay import note_other_branches, replay
from claude_tui.session.status import Activity

RESUMED_NOTE = "Resumed from the transcript"


def newest_session_id(cwd: Path, root: Path | None = None, state_root: Path | None = None) -> str | None:
    """The session `--continue` means in `cwd`: the tab that was in view when claude-tui last quit
    there (`store/in_view.py`), unless a session of the project was active since; else the most
    recently active one, in the store at ``root`` (default: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``).
    ``state_root``: our data dir (tests)."""
    from claude_tui.store.in_view import SLACK_SECONDS, recorded

    in_view = recorded(cwd, root=state_root)
    with SessionIndex(root=root) as index:
        rows = index.list_sessions(cwd, all_projects=False)
    if not rows:
        return None
    if in_view is not None and any(row.session_id == in_view.session_id for row in rows) \
            and rows[0].last_active <= in_view.at + SLACK_SECONDS:
        return in_view.session_id
    return rows[0].session_id


def conversation_from_transcript(transcript: Transcript) -> Conversation:
    cost = transcript.cost_state.get("totalCostUSD") if transcript.cost_state else None
    conversation = replay(transcript.records, transcript.subagents, session_id=transcript.session_id,
                          cost_usd=float(cost) if isinstance(cost, (int, float)) else None)
    note_other_branches(conversation, transcript.other_branches)
    return conversation


def load_conversation(session_id: str, cwd: Path | None = None, path: Path | None = None,
                      root: Path | None = None) -> Conversation | None:
    """The history of a session rebuilt as a conversation, or None if its transcript is not found."""
    transcript = load_transcript(path) if path is not None else load_session(session_id, cwd=cwd, root=root)
    if transcript is None:
        return None
    return conversation_from_transcript(transcript)


def fork_note(parent_id: str) -> str:
    """What every way of forking says (the browser's f, the palette, ``--resume ID --fork``)."""
    return (f"Forked from session {parent_id[:8]}: the history above is its; from here on this is a new "
            "session, whose id comes with your first prompt.")


def begin_fork(conversation: Conversation, parent_id: str) -> None:
    """Make ``conversation`` (the parent's history) the start of a fork of ``parent_id``.

    The one path for every way of forking: the parent's id is cleared (the CLI's init brings the
    fork's own), the parent's cost stays the base (the fork's CLI counts it in its totals), and
    the log says so once.
    """
    status = conversation.status
    conversation.history_cost = max(conversation.history_cost, status.cost_total)
    status.cost_forked = conversation.history_cost  # shown from $0: the parent's cost is the parent's
    status.session_id = ""
    status.cost_last_turn = 0.0
    status.activity = Activity.STARTING
    items = conversation.main.items
    if items and isinstance(items[-1], NoteItem) and items[-1].text.startswith(RESUMED_NOTE):
        items[-1].text = fork_note(parent_id)  # replay's "Resumed from the transcript" becomes the fork note
    else:
        conversation.add_note(fork_note(parent_id), NoteKind.INFO)
