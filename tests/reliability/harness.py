"""Driving the real app (ClaudeTuiApp + ChatScreen) against the fake CLI in Pilot tests."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

import claude_tui.fakecli
from claude_tui.config import Config
from claude_tui.session.items import NoteItem, TextItem, ToolItem, UserItem
from claude_tui.session.status import Activity
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat.session import ChatSession
from claude_tui.ui.chat.view import ChatView

SIZE = (120, 40)


def fake_options(cwd: Path, fault: str | None = None, **env: str) -> CliOptions:
    """The fake CLI with no pacing; ``fault`` is FAKE_CLAUDE_FAULT; a marker env var tags the process."""
    values = {"FAKE_CLAUDE_DELAY_MS": "0", "CLAUDE_TUI_TEST_MARKER": f"reliability-{os.getpid()}"}
    if fault:
        values["FAKE_CLAUDE_FAULT"] = fault
    values.update(env)
    return CliOptions(cwd=str(cwd), command=claude_tui.fakecli.command(), env=values)


def make_app(options: CliOptions, config: Config | None = None, debug_log: Path | None = None) -> ClaudeTuiApp:
    return ClaudeTuiApp(options, config or Config(), debug_log=debug_log)


def chat(app: ClaudeTuiApp) -> ChatView:
    """The active tab's view (log, prompt, sidebar); its session is `.session`."""
    view = app.chat
    assert view is not None, "the chat screen is gone"
    return view


def active_session(app: ClaudeTuiApp) -> ChatSession:
    """The active tab's session (CLI, conversation, permission queue, drafts)."""
    return chat(app).session


async def wait_for(pilot: Pilot[Any], predicate: Callable[[], object], timeout: float = 15.0,
                   what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await pilot.pause(0.02)


def items(app: ClaudeTuiApp) -> list[Any]:
    return list(chat(app).session.conversation.main.items)


def notes(app: ClaudeTuiApp) -> list[NoteItem]:
    return [i for i in items(app) if isinstance(i, NoteItem)]


def note_text(app: ClaudeTuiApp) -> str:
    return "\n".join(f"{n.title}\n{n.text}" for n in notes(app))


def user_texts(app: ClaudeTuiApp) -> list[str]:
    return [i.text for i in items(app) if isinstance(i, UserItem)]


def assistant_texts(app: ClaudeTuiApp) -> list[str]:
    return [i.text for i in items(app) if isinstance(i, TextItem)]


def tools(app: ClaudeTuiApp) -> list[ToolItem]:
    return [i for i in items(app) if isinstance(i, ToolItem)]


def activity(app: ClaudeTuiApp) -> Activity:
    return chat(app).session.conversation.status.activity


def prompt_text(app: ClaudeTuiApp) -> str:
    return chat(app).query_one("#prompt").text  # type: ignore[attr-defined]


def client_argv(app: ClaudeTuiApp) -> list[str]:
    client = chat(app).session.connection.client
    return list(client.argv) if client is not None else []


def client_pid(app: ClaudeTuiApp) -> int | None:
    client = chat(app).session.connection.client
    return client.pid if client is not None else None


async def wait_ready(pilot: Pilot[Any], app: ClaudeTuiApp, timeout: float = 20.0) -> None:
    """The CLI answered initialize (the status leaves STARTING) and is alive."""
    await wait_for(pilot, lambda: chat(app).session.connection.alive and chat(app).session.conversation.commands,
                   timeout, "the initialize response")


async def type_prompt(pilot: Pilot[Any], app: ClaudeTuiApp, text: str) -> None:
    prompt = chat(app).query_one("#prompt")
    prompt.focus()
    prompt.text = text  # type: ignore[attr-defined]
    prompt.move_cursor(prompt.document.end)  # type: ignore[attr-defined]
    await pilot.pause()


async def submit(pilot: Pilot[Any], app: ClaudeTuiApp, text: str) -> None:
    await type_prompt(pilot, app, text)
    await pilot.press("enter")
    await wait_for(pilot, lambda: text.strip() in user_texts(app), 10, f"the prompt {text!r} in the log")


async def wait_turn_end(pilot: Pilot[Any], app: ClaudeTuiApp, turns: int, timeout: float = 30.0) -> None:
    try:
        await wait_for(pilot, lambda: chat(app).session.conversation.status.turns >= turns
                       and activity(app) is Activity.IDLE, timeout, f"turn {turns} to end")
    except AssertionError as error:  # say where it stood: a rare failure must be readable from CI's log
        status = chat(app).session.conversation.status
        items = [f"{type(i).__name__}:{getattr(i, 'text', getattr(i, 'name', ''))!r:.60}"
                 for i in chat(app).session.conversation.items[-6:]]
        raise AssertionError(f"{error}; activity={status.activity}, turns={status.turns}, "
                             f"alive={chat(app).session.connection.alive}, screen={app.screen!r}, last items={items}") from None


async def run_turn(pilot: Pilot[Any], app: ClaudeTuiApp, text: str, timeout: float = 30.0) -> None:
    turns = chat(app).session.conversation.status.turns
    await submit(pilot, app, text)
    await wait_turn_end(pilot, app, turns + 1, timeout)


def pid_alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in (b"Z", b"X")


def processes_with_env(marker: str) -> list[int]:
    """Live pids whose environment contains ``marker`` (a ``NAME=value`` string)."""
    found = []
    needle = marker.encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if needle in env and pid_alive(int(entry)):
            found.append(int(entry))
    return found


async def wait_gone(pids: list[int], timeout: float = 8.0) -> list[int]:
    deadline = time.monotonic() + timeout
    alive = [p for p in pids if pid_alive(p)]
    while alive and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        alive = [p for p in alive if pid_alive(p)]
    return alive


async def wait_guard_down(pilot: Pilot[Any], app: ClaudeTuiApp, screen_type: type, what: str) -> None:
    """Wait for a guarded modal of `screen_type` to be up, moved to, and past its typeahead guard (a fixed
    pause is not enough on a loaded machine: a key pressed inside the guard is swallowed)."""
    await wait_for(pilot, lambda: isinstance(app.screen, screen_type), 10, what)
    dialog = app.screen
    if getattr(dialog, "waiting", False):
        await pilot.press("tab")  # a dialog opens waiting: Tab moves to it (and arms its guard)
    await wait_for(pilot, lambda: getattr(dialog, "shown", False) and dialog.is_active
                   and not dialog.armed, 10, f"{what}: the guard down")  # type: ignore[attr-defined]
