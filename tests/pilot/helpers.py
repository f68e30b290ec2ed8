"""Driving the app against the fake CLI in Pilot tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from claude_tui.config import Config
from claude_tui.fakecli import command
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat.session import ChatSession
from claude_tui.ui.chat.view import ChatView


def make_app(cwd: Path, *, guard_ms: int = 0, env: dict[str, str] | None = None, **config: object) -> ClaudeTuiApp:
    (cwd / "a.txt").write_text("alpha\nbeta\ngamma\n")
    options = CliOptions(cwd=str(cwd), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0", **(env or {})})
    return ClaudeTuiApp(options, Config(typeahead_guard_ms=guard_ms, **config))  # type: ignore[arg-type]


async def wait_for(pilot: Pilot, predicate: Callable[[], object], timeout: float = 10.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting for {what or predicate}")


def chat(app: ClaudeTuiApp) -> ChatView:
    """The active tab's view (log, prompt, sidebar); its session is `.session`."""
    view = app.chat
    assert view is not None
    return view


def active_session(app: ClaudeTuiApp) -> ChatSession:
    """The active tab's session (CLI, conversation, permission queue, drafts)."""
    return chat(app).session


async def send(pilot: Pilot, text: str) -> None:
    app: ClaudeTuiApp = pilot.app  # type: ignore[assignment]
    screen = chat(app)
    await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="CLI ready")
    prompt = screen.query_one("#prompt")
    prompt.text = text  # type: ignore[attr-defined]
    prompt.focus()
    await pilot.press("enter")


def idle(app: ClaudeTuiApp) -> bool:
    from claude_tui.session.status import Activity

    return chat(app).session.conversation.status.activity is Activity.IDLE and chat(app).session.conversation.status.turns > 0


async def answer(pilot: Pilot, *keys: str) -> None:
    """Move to the waiting dialog (Tab) and press ``keys`` there (tests run with the guard at 0)."""
    await pilot.press("tab", *keys)


def frame_text(renderable: object) -> str:
    """The characters a compositor update writes (App._display: there is no public "frame painted" event)."""
    rows = []
    for line in getattr(renderable, "chops", None) or ():
        rows.append("".join(strip.text for _, strip in sorted(line.items()) if strip is not None))
    for line in getattr(renderable, "strips", None) or ():
        rows.append("".join(strip.text for strip in ([line] if hasattr(line, "text") else line)))
    return "\n".join(rows)
