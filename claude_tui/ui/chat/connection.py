"""The one worker that owns the Claude Code process.

It reads the client's events and posts them, in batches, as Textual messages
to the screen that owns the connection. It never touches widgets. Everything
the app writes to the CLI goes through `ClaudeClient`'s single serialized
writer.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.dom import DOMNode
from textual.message import Message
from textual.worker import Worker

from claude_tui.transport.client import ClaudeClient
from claude_tui.transport.errors import ProcessGoneError, TransportError
from claude_tui.transport.events import ProcessExited
from claude_tui.transport.options import CliOptions

# A burst of stream deltas is delivered as one message: the UI applies them in
# one go instead of paying a message round trip per token.
_MAX_BATCH = 256


class CliConnection:
    """Starts the CLI, relays its events to `target`, and sends what the app asks."""

    # Every message names its connection: after a restart the screen ignores
    # whatever the old process still had in flight.
    class Events(Message):
        """A batch of protocol messages (and transport events) in arrival order."""

        def __init__(self, items: list[Any], connection: CliConnection | None = None) -> None:
            super().__init__()
            self.items = items
            self.connection = connection

    class Exited(Message):
        def __init__(self, exited: ProcessExited, connection: CliConnection | None = None) -> None:
            super().__init__()
            self.exited = exited
            self.connection = connection

    class Failed(Message):
        """The CLI could not be started (missing binary, bad cwd, …)."""

        def __init__(self, error: str, connection: CliConnection | None = None) -> None:
            super().__init__()
            self.error = error
            self.connection = connection

    class Unready(Message):
        """The CLI runs but did not answer the initialize handshake: prompts work, the lists it
        would have sent (commands, models) are missing. Not an exit."""

        def __init__(self, error: str, connection: CliConnection | None = None) -> None:
            super().__init__()
            self.error = error
            self.connection = connection

    class Ready(Message):
        """The initialize handshake finished; `response` lists commands, models, account."""

        def __init__(self, response: dict[str, Any], connection: CliConnection | None = None) -> None:
            super().__init__()
            self.response = response
            self.connection = connection

    def __init__(self, options: CliOptions, debug_log: Path | None = None) -> None:
        self.target: DOMNode | None = None
        """Set by `start`: the widget that runs the worker and receives the messages (the session's view)."""
        self.options = options
        self.debug_log = debug_log
        self.client: ClaudeClient | None = None
        self.worker: Worker[None] | None = None
        # Set by close(): the app stopped this CLI itself (restart, quit), so its
        # exit is not news. Posting Exited then would let a stale message mark the
        # *next* connection's session as exited (it is handled after the restart).
        self.closed = False
        # Set once the process is spawned (or failed to spawn): a prompt sent in the moment between
        # a restart (F5) and the spawn waits for it instead of being refused.
        self.spawned = asyncio.Event()

    @property
    def alive(self) -> bool:
        return self.client is not None and self.worker is not None and not self.worker.is_finished

    def start(self, target: DOMNode) -> None:
        self.target = target
        self.worker = target.run_worker(self._run(target), name="claude-cli", group="cli", exclusive=True)

    async def _run(self, target: DOMNode) -> None:
        from claude_tui.protocol import builders

        client = ClaudeClient(self.options, debug_log=self.debug_log)
        self.client = client
        try:
            await client.start()
        except (TransportError, OSError) as error:
            target.post_message(self.Failed(str(error), self))
            self.client = None
            return
        finally:
            self.spawned.set()
        payload = builders.session_initialize()
        initialize = asyncio.create_task(self._initialize(target, client, payload))
        loop = asyncio.get_running_loop()
        batch: list[Any] = []

        def flush() -> None:
            # Runs when the reader next waits for I/O: everything already
            # buffered has been collected into this one batch by then.
            nonlocal batch
            if batch:
                target.post_message(self.Events(batch, self))
                batch = []

        try:
            async for item in client.events():
                if isinstance(item, ProcessExited):
                    flush()
                    if not self.closed:
                        target.post_message(self.Exited(item, self))
                    break
                if not batch:
                    loop.call_soon(flush)
                batch.append(item)
                if len(batch) >= _MAX_BATCH:
                    flush()
        finally:
            initialize.cancel()
            flush()

    async def _initialize(self, target: DOMNode, client: ClaudeClient, payload: dict[str, Any]) -> None:
        try:
            response = await client.request(payload, timeout=60)
        except ProcessGoneError:
            return  # it never ran, or exited: its exit (or start failure) says why, and it is no "running without…"
        except Exception as error:  # noqa: BLE001 - any failure is shown, never raised into the loop
            target.post_message(self.Unready(str(error) or type(error).__name__, self))
            return
        body = getattr(response, "payload", None) or {}
        target.post_message(self.Ready(body if isinstance(body, dict) else {}, self))

    async def _spawned_client(self) -> ClaudeClient | None:
        """The client once its process is spawned: anything sent between a restart (F5) and the spawn (a
        prompt, a mode switch) waits for it instead of being refused. None: not running."""
        if self.client is not None and not self.spawned.is_set():
            try:
                await asyncio.wait_for(self.spawned.wait(), timeout=15)
            except TimeoutError:
                return None
        return self.client

    async def send(self, obj: dict[str, Any]) -> bool:
        client = await self._spawned_client()
        # The client's single writer reports a dead pipe as False; the caller keeps the draft.
        return await client.send(obj) if client is not None else False

    async def request(self, payload: dict[str, Any], timeout: float = 30) -> Any:
        client = await self._spawned_client()
        if client is None:
            raise TransportError("Claude Code is not running")
        return await client.request(payload, timeout=timeout)

    async def answer_permission(self, obj: dict[str, Any]) -> bool:
        client = await self._spawned_client()
        return await client.answer_permission(obj) if client is not None else False

    async def close(self) -> None:
        self.closed = True
        client, self.client = self.client, None
        if client is not None:
            await client.close()
