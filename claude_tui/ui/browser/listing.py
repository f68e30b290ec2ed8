"""What the session browser lists and says: fuzzy title filter, sorts, search grouping, status, empty state.

Pure functions over :class:`SessionRow` lists (no widgets, no disk), so a
keystroke in the filter costs one pass over the rows already in memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.table import Table
from rich.text import Text

from claude_tui.history.fork_tree import as_tree
from claude_tui.history.index import SessionRow
from claude_tui.history.search import SearchHit
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import TextItem, ThinkingItem, ToolItem, UserItem
from claude_tui.ui.browser.table import Listing

SORTS: tuple[str, ...] = ("last active", "created", "cost", "title")
"""The orders ``s`` cycles through."""


@dataclass(frozen=True, slots=True)
class LiveSession:
    """What the app's open session says about itself now: its transcript lags (the cost is written
    when the CLI exits, the index catches up every few seconds)."""

    session_id: str
    title: str
    messages: int
    cost_usd: float | None


def live_session(conversation: Conversation) -> LiveSession | None:
    """The open session's row values, counted the way the index counts a transcript's messages:
    prompts, tool results and assistant messages (one per message id)."""
    status = conversation.status
    if not status.session_id:
        return None
    title = ""
    messages = 0
    assistant_ids: set[str] = set()
    for item in conversation.items:
        if isinstance(item, UserItem):
            messages += 1
            title = title or item.text
        elif isinstance(item, (TextItem, ThinkingItem, ToolItem)):
            if isinstance(item, ToolItem) and item.finished:
                messages += 1  # its result came back as a user record
            if item.message_id is None:
                messages += 1
            elif item.message_id not in assistant_ids:
                assistant_ids.add(item.message_id)
                messages += 1
    return LiveSession(status.session_id, one_line(title), messages, status.own_cost or None)


def apply_live(rows: Sequence[SessionRow], live: LiveSession | None) -> SessionRow | None:
    """Put the open session's live values on its row (returned, or None when it is not listed)."""
    if live is None:
        return None
    for row in rows:
        if row.session_id == live.session_id:
            row.message_count = max(row.message_count or 0, live.messages)
            if live.cost_usd is not None:
                row.cost_usd = live.cost_usd
            if not row.title and live.title:
                row.title, row.title_source = live.title, "first-prompt"
            return row
    return None


def _term_match(term: str, text: str) -> tuple[int, list[int]] | None:
    """Score and positions of one lower-case term in lower-case ``text``: substring first, then subsequence."""
    at = text.find(term)
    if at >= 0:
        boundary = at == 0 or not text[at - 1].isalnum()
        return 100 + 20 * boundary + 3 * len(term) - min(at, 50) // 5, list(range(at, at + len(term)))
    positions: list[int] = []
    start = 0
    for ch in term:
        found = text.find(ch, start)
        if found < 0:
            return None
        positions.append(found)
        start = found + 1
    score = 0
    for i, pos in enumerate(positions):
        score += 1
        if i and pos == positions[i - 1] + 1:
            score += 3
        if pos == 0 or not text[pos - 1].isalnum():
            score += 4
    spread = positions[-1] - positions[0] + 1 - len(positions)
    return score - min(spread, 60) // 4, positions


def fuzzy_match(query: str, text: str) -> tuple[int, list[int]] | None:
    """``(score, matched positions)`` if every space-separated term of ``query`` matches ``text``."""
    lowered = text.lower()
    total = 0
    positions: set[int] = set()
    for term in query.lower().split():
        got = _term_match(term, lowered)
        if got is None:
            return None
        total += got[0]
        positions.update(got[1])
    return total, sorted(positions)


def sort_rows(rows: Sequence[SessionRow], order: str) -> list[SessionRow]:
    """Rows in one of :data:`SORTS` (newest / most expensive first; titles A→Z)."""
    if order == "created":
        return sorted(rows, key=lambda r: (r.created is None, -(r.created or 0.0), -r.last_active))
    if order == "cost":
        return sorted(rows, key=lambda r: (r.cost_usd is None, -(r.cost_usd or 0.0), -r.last_active))
    if order == "title":
        return sorted(rows, key=lambda r: (one_line(r.display_title).casefold(), -r.last_active))
    return sorted(rows, key=lambda r: (-r.last_active, r.session_id))


def filtered(rows: Sequence[SessionRow], order: str, query: str, all_projects: bool) -> Listing:
    """``rows`` sorted; with a query, only fuzzy title matches (best first, ties in sort order)."""
    ordered = sort_rows(rows, order)
    query = query.strip()
    if not query:  # forks under their parents (a fork of a fork under that fork), parents in sort order
        tree = as_tree(ordered, lambda r: r.session_id, lambda r: r.forked_from)
        return Listing([row for row, _ in tree], all_projects=all_projects,
                       depths={row.path: depth for row, depth in tree if depth})
    scored: list[tuple[int, int, SessionRow, list[int]]] = []
    for position, row in enumerate(ordered):
        got = fuzzy_match(query, one_line(row.display_title))
        if got is None and len(query) >= 4 and row.session_id.startswith(query.lower()):
            got = (1, [])  # an id prefix, as the status bar and the fork note show it
        if got is None:
            # Any other name the session goes by (the title under a name given here, the first prompt).
            for other in (row.title, row.custom_title, row.first_prompt):
                if other and (other_got := fuzzy_match(query, one_line(other))) is not None:
                    got = (other_got[0], [])
                    break
        if got is not None:
            scored.append((-got[0], position, row, got[1]))
    scored.sort(key=lambda s: (s[0], s[1]))
    return Listing([s[2] for s in scored], positions={s[2].path: s[3] for s in scored}, all_projects=all_projects)


def searched(rows: Sequence[SessionRow], hits: Sequence[SearchHit], all_projects: bool) -> Listing:
    """One row per session with hits, in hit order (stand-in rows for sessions not listed yet)."""
    by_path = {row.path: row for row in rows}
    grouped: dict[str, list[SearchHit]] = {}
    listed: list[SessionRow] = []
    for hit in hits:
        if hit.path not in grouped:
            grouped[hit.path] = []
            listed.append(by_path.get(hit.path) or SessionRow(
                hit.session_id, hit.path, hit.project, 0, 0, title=hit.title, last_active=hit.last_active))
        grouped[hit.path].append(hit)
    return Listing(listed, hits=grouped, all_projects=all_projects)


def empty_message(*, searching: bool, query: str, listed: bool, all_projects: bool, cwd: Path, root: Path,
                  search_off: str | None = None, reading: str = "") -> str:
    """What to say instead of an empty table. ``reading``: what the store still waits for (a remote
    machine's sessions being read): an empty table then means nothing yet, not no sessions."""
    query = one_line(query.strip())
    if searching and search_off:
        return f"{one_line(search_off)}\nEsc leaves search."
    if searching:
        if query:
            return f"No messages match “{query}”.\nEsc leaves search."
        return ("Type words to search every prompt, answer, thinking, tool call and tool output."
                "\nEsc leaves search.")
    if query:
        return f"No session titles match “{query}”.\nPress / to search the full text instead."
    if reading:
        return reading
    if not listed:
        return "Looking for sessions…"
    if all_projects:
        return f"No Claude Code sessions yet under {one_line(str(root))}.\nStart one and it shows up here."
    return (f"No sessions yet for {one_line(str(cwd))}.\n"
            "Press a to see the sessions of all projects, or Esc to go back.")


def status_line(listing: Listing, *, total: int, searching: bool, query: str, order: str, all_projects: bool,
                cwd: Path, indexing: tuple[int, int] | None, indexed: bool, note: str | None) -> Table:
    """Counts, sort and scope on the left; background indexing on the right."""
    left = Text()
    shown = len(listing.rows)
    if searching:
        matches = sum(len(h) for h in (listing.hits or {}).values())
        left.append("Search", style="bold")
        if query:
            left.append(f" · {matches} match{'es' if matches != 1 else ''} in {shown} "
                        f"session{'s' if shown != 1 else ''}")
    else:
        left.append(f"{shown} of {total} sessions" if shown != total else
                    f"{total} session{'s' if total != 1 else ''}", style="bold")
        left.append(f" · sorted by {order}")
    left.append(" · ")
    left.append("all projects" if all_projects else f"this project: {one_line(str(cwd))}", style="italic")
    right = Text(style="dim")
    if indexing is not None:
        right.append(f"indexing messages {indexing[0]:,}/{indexing[1]:,}…")
    elif searching and not indexed:
        right.append("search index still building")
    if note and searching:
        right.append(" " + one_line(note))
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    grid.add_column(justify="right", no_wrap=True)
    grid.add_row(left, right)
    return grid
