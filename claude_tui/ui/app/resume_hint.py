"""What is printed on the terminal after claude-tui quits: how to resume the sessions it had open.

Claude Code prints "Resume this session with: claude --resume <id>" once it quits; a user who
closed claude-tui to look at something else needs the same line. The tab in view comes first (the
one `--continue` takes too); a tab that never started a session (no prompt sent) has nothing to
resume and no line. Everything from the session is made printable: a tab's name and a directory
are the user's or the CLI's text, and this goes to a real terminal after the alternate screen.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from claude_tui.protocol.sanitize import printable_name
from claude_tui.session.items import UserItem
from claude_tui.ui.chat.session import ChatSession


def started(session: ChatSession) -> bool:
    """A session Claude Code has a transcript of: an id, and a prompt in it (sent now or resumed)."""
    return bool(session.conversation.status.session_id) and \
        any(isinstance(item, UserItem) for item in session.conversation.items)


def resume_command(session: ChatSession, launch_cwd: Path) -> str:
    """`claude-tui --resume <id>`, with the directory (and machine) when they are not the launch's:
    Claude Code finds a session only in its own project's directory."""
    words = ["claude-tui"]
    options = session.options
    if options.ssh is not None:
        target = options.ssh
        words += ["--ssh", f"ssh://{target.dest}:{target.port}" if target.port else target.dest]
    cwd = options.cwd or ""
    if options.ssh is not None or (cwd and Path(cwd).resolve() != launch_cwd.resolve()):
        if cwd:
            words += ["--cwd", cwd]
    words += ["--resume", session.conversation.status.session_id]
    return " ".join(shlex.quote(printable_name(word)) for word in words)


def resume_lines(sessions: list[ChatSession], in_view: ChatSession | None, launch_cwd: Path) -> list[str]:
    """The lines to print: one for the tab in view, or one per tab (the one in view first) named."""
    ordered = ([in_view] if in_view in sessions else []) + [s for s in sessions if s is not in_view]
    shown = [session for session in ordered if started(session)]
    if not shown:
        return []
    if len(shown) == 1:
        return [f"Resume this session with: {resume_command(shown[0], launch_cwd)}"]
    return ["Resume these sessions with:"] + [
        f"  {resume_command(session, launch_cwd)}   # {printable_name(session.display_name())}"
        for session in shown]
