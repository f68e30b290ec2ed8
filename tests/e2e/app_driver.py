"""Drive the real app (``ClaudeTuiApp`` under ``app.run_test``) against the real CLI.

``AppDriver`` wraps the app and its Pilot with bounded waits: every wait polls a
predicate with ``pilot.pause(0.05)`` and, on timeout, fails with a dump of the
conversation, the status and the screen, so a red test says what the app saw.
``drive()`` starts the app, waits for the CLI's ``initialize`` handshake, and
always shuts the CLI down (``app.shutdown()``) before the app context ends.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from textual import events
from textual.pilot import Pilot
from textual.screen import Screen

from claude_tui.config import Config, NotificationSettings
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import Item, NoteItem, NoteKind, TextItem, ToolItem, UserItem
from claude_tui.session.status import Activity
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat.view import ChatView
from claude_tui.ui.panels.status_bar import BarState, StatusBar
from claude_tui.ui.window.screen import ChatScreen

T = TypeVar("T")
S = TypeVar("S", bound=Screen[Any])
DEFAULT_TIMEOUT = 30.0
SIZE = (120, 40)


def quiet_config(**overrides: Any) -> Config:
    """No typeahead pause (the dialogs' guard is tested elsewhere), no bell, no OSC notifications."""
    values: dict[str, Any] = {
        "typeahead_guard_ms": 0,
        "notifications": NotificationSettings(bell=False, desktop=False),
    }
    values.update(overrides)
    return Config(**values)


def screen_text(app: ClaudeTuiApp) -> str:
    """What the terminal shows now (the active screen over the ones below it), as plain text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text(styles=False)


def describe_item(item: Item) -> str:
    if isinstance(item, ToolItem):
        return (f"ToolItem({item.name} state={item.state.value} decision={item.decision!r} "
                f"result={item.result_text[:120]!r})")
    if isinstance(item, NoteItem):
        return f"NoteItem({item.kind.value} title={item.title!r} text={item.text[:160]!r})"
    text = getattr(item, "text", "")
    return f"{type(item).__name__}({text[:120]!r})"


class AppDriver:
    """One running app with helpers to type, press, wait and look."""

    def __init__(self, app: ClaudeTuiApp, pilot: Pilot[Any], debug_log: Path | None = None) -> None:
        self.app = app
        self.pilot = pilot
        self.debug_log = debug_log
        self.status_log: list[str] = []
        """Every status bar text shown (recorded by :meth:`record_status`)."""

    # -- what the app holds ----------------------------------------------------------
    @property
    def chat(self) -> ChatView:
        chat = self.app.chat
        assert chat is not None, "the chat screen is not on the screen stack"
        return chat

    @property
    def conversation(self) -> Conversation:
        return self.chat.session.conversation

    @property
    def items(self) -> list[Item]:
        return self.conversation.items

    def of_type(self, cls: type[T]) -> list[T]:
        return [item for item in self.items if isinstance(item, cls)]

    def tools(self, name: str) -> list[ToolItem]:
        return [item for item in self.of_type(ToolItem) if item.name == name]

    def tool(self, name: str) -> ToolItem:
        found = self.tools(name)
        assert len(found) == 1, f"expected one {name} tool call, got {len(found)}\n{self.dump()}"
        return found[0]

    def notes(self, kind: NoteKind | None = None) -> list[NoteItem]:
        return [n for n in self.of_type(NoteItem) if kind is None or n.kind is kind]

    def texts(self) -> str:
        """All assistant text of the main conversation, in order."""
        return "".join(item.text for item in self.of_type(TextItem))

    def widget_for(self, item: Item) -> Any:
        from claude_tui.ui.log.chat_log import ChatLog

        return self.chat.query_one(ChatLog).widget_for_item(item.id)

    def screen_text(self) -> str:
        return screen_text(self.app)

    def dump(self) -> str:
        status = self.conversation.status
        lines = [f"status: activity={status.activity.value!r} session={status.session_id!r} "
                 f"mode={status.permission_mode!r} turns={status.turns} cost={status.cost_total}",
                 f"screen stack: {[type(s).__name__ for s in self.app.screen_stack]}",
                 "items:"]
        lines += [f"  {describe_item(item)}" for item in self.items]
        try:
            lines += ["screen:", self.screen_text()]
        except Exception as error:  # noqa: BLE001 - a dump must never hide the real failure
            lines.append(f"(screen not rendered: {error})")
        return "\n".join(lines)

    # -- waiting ---------------------------------------------------------------------
    async def wait(self, predicate: Callable[[], Any], what: str, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Poll ``predicate`` until it returns something truthy; fail after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}\n{self.dump()}")
            await self.pilot.pause(0.05)

    async def wait_ready(self, timeout: float = 60) -> None:
        await self.wait(lambda: self.conversation.commands and self.conversation.status.activity is Activity.IDLE,
                        "the CLI's initialize handshake", timeout)

    async def wait_screen(self, cls: type[S], timeout: float = DEFAULT_TIMEOUT, *, move_to: bool = True) -> S:
        """The active screen once it is a ``cls`` (a dialog pushed by the app).

        A dialog opens waiting (typing goes to the prompt); ``move_to`` presses Tab to move to it."""
        screen = await self.wait(lambda: self.app.screen if isinstance(self.app.screen, cls) else None,
                                 f"a {cls.__name__}", timeout)
        await self.pilot.pause()  # let it mount and focus before keys arrive
        if move_to and getattr(screen, "waiting", False):
            await self.press("tab")
        return screen

    async def wait_chat_active(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        await self.wait(lambda: isinstance(self.app.screen, ChatScreen), "the chat screen on top", timeout)

    async def wait_turns(self, count: int, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Until ``count`` turns (``result`` messages) have ended and the session is idle."""
        await self.wait(lambda: self.conversation.status.turns >= count
                        and self.conversation.status.activity is Activity.IDLE,
                        f"{count} finished turn(s)", timeout)

    async def wait_on_screen(self, needle: str, timeout: float = DEFAULT_TIMEOUT) -> str:
        return await self.wait(lambda: (lambda text: text if needle in text else None)(self.screen_text()),
                               f"{needle!r} on screen", timeout)

    # -- typing ----------------------------------------------------------------------
    @property
    def prompt(self) -> Any:
        from claude_tui.ui.panels.composer import PromptInput

        return self.chat.query_one("#prompt", PromptInput)

    async def type_prompt(self, text: str) -> None:
        self.prompt.focus()
        await self.pilot.pause()
        await self.pilot.press(*list(text))

    async def send(self, text: str, then: tuple[events.Key, ...] = ()) -> None:
        """Put ``text`` in the prompt and press Enter (as a user would), then check it left.

        ``then``: keys typed on the heels of the Enter (the user goes straight on typing), queued
        behind it at once, as a terminal delivers them (Pilot's own presses wait for the app between keys)."""
        prompt = self.prompt
        prompt.focus()
        prompt.text = text
        prompt.move_cursor(prompt.document.end)
        await self.pilot.pause()
        before = len(self.items)

        def arrived() -> bool:
            return any(isinstance(i, UserItem) and i.text == text for i in self.items[before:])

        if then:
            self.pilot.app.post_message(events.Key("enter", "\r"))
            for key in then:
                self.pilot.app.post_message(key)
        else:
            await self.pilot.press("enter")
        await self.pilot.pause()
        if not arrived() and prompt.text.strip() == text:
            # A "/command" opens the completion menu: the first Enter completes it, the second sends.
            await self.pilot.press("enter")
        await self.wait(arrived, f"the prompt {text!r} in the log", 10)

    async def turn(self, text: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Send a prompt that needs no answer from the user and wait for its turn to end."""
        before = self.conversation.status.turns
        await self.send(text)
        await self.wait_turns(before + 1, timeout)

    async def press(self, *keys: str) -> None:
        await self.pilot.press(*keys)
        await self.pilot.pause()

    # -- observing -------------------------------------------------------------------
    def wire(self, direction: str) -> list[dict[str, Any]]:
        """The JSON lines the app wrote to the CLI (``">>"``) or read from it (``"<<"``), from the debug log."""
        assert self.debug_log is not None, "start the app with drive(..., debug_log=path)"
        out: list[dict[str, Any]] = []
        for line in self.debug_log.read_text(encoding="utf-8").splitlines():
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1] == direction:
                try:
                    out.append(json.loads(parts[2]))
                except ValueError:
                    continue
        return out

    def sent(self, kind: str) -> list[dict[str, Any]]:
        """What the app wrote to the CLI's stdin, of one ``type``."""
        return [m for m in self.wire(">>") if m.get("type") == kind]

    def record_status(self) -> None:
        """From now on, keep the text of every status bar update in ``status_log``."""
        bar = self.chat.query_one(StatusBar)

        def shown(state: BarState) -> None:
            if state.status is not None:
                self.status_log.append(str(bar.render_status(state.status)))

        bar.watch(bar, "state", shown, init=False)


@asynccontextmanager
async def drive(options: CliOptions, config: Config | None = None, *, conversation: Conversation | None = None,
                size: tuple[int, int] = SIZE, ready: bool = True,
                debug_log: Path | None = None) -> AsyncIterator[AppDriver]:
    """Run the app against the CLI in ``options``; the CLI is always closed on the way out.

    ``debug_log``: the app's ``--debug-log`` file, so a test can read the raw protocol both ways.
    """
    app = ClaudeTuiApp(options, config or quiet_config(), conversation=conversation, debug_log=debug_log)
    async with app.run_test(size=size) as pilot:
        driver = AppDriver(app, pilot, debug_log)
        try:
            if ready:
                await driver.wait_ready()
            yield driver
        finally:
            if app.chat is not None:
                await app.shutdown()
