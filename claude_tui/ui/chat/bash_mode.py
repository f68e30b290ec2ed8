"""`!command` on the prompt, as in Claude Code's bash mode (issue 30).

The command runs where the session's CLI runs (`transport/shell.py`), its output streams into a
card in the log (`ShellItem`, `ui/log/shell_card.py`), Ctrl+C stops it. It is never a prompt of
its own: what ran and what it printed wait here, and go to Claude in the next prompt's user
message, as the text blocks Claude Code's own TUI sends (`<bash-input>`, `<bash-stdout>`,
`<bash-stderr>`), so the model sees the same thing. Not a widget.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from textual.message import Message
from textual.widget import Widget

from claude_tui.session.items import ShellItem
from claude_tui.transport.shell import ShellCommand, ShellResult
from claude_tui.transport.ssh.target import SshTarget

_POST_EVERY = 0.1
"""Output reaches the card at most this often (a flood of lines is not a flood of redraws)."""
_CARD_CHARS = 200_000
"""The card's item keeps at most this much output (the card shows its tail)."""


class BashMode:
    class Output(Message):
        """Lines of a running command, or (with `result`) its end: for the view to draw."""

        def __init__(self, item: ShellItem, lines: list[str], result: ShellResult | None = None,
                     error: str = "") -> None:
            super().__init__()
            self.item = item
            self.lines = lines
            self.result = result
            self.error = error

    def __init__(self, view: Widget) -> None:
        self.view = view
        self.running: ShellCommand | None = None
        self.done: list[tuple[ShellItem, ShellResult]] = []
        """Finished commands not yet given to Claude."""

    def start(self, command: str, item: ShellItem, cwd: str | None, ssh: SshTarget | None) -> None:
        shell = ShellCommand(command, cwd=cwd, ssh=ssh)
        self.running = shell
        self.view.run_worker(self._run(shell, item), group="shell", exit_on_error=False)

    async def _run(self, shell: ShellCommand, item: ShellItem) -> None:
        pending: list[str] = []
        last = 0.0
        flush_later: asyncio.TimerHandle | None = None

        def flush() -> None:
            nonlocal last, flush_later
            flush_later = None
            if pending:
                self.view.post_message(self.Output(item, pending.copy()))
                pending.clear()
                last = time.monotonic()

        def on_lines(lines: list[str]) -> None:
            nonlocal flush_later
            pending.extend(lines)
            wait = last + _POST_EVERY - time.monotonic()
            if wait <= 0:
                flush()
            elif flush_later is None:  # a line then silence still shows at once (after the pause)
                flush_later = asyncio.get_running_loop().call_later(wait, flush)

        try:
            result = await shell.run(on_lines)
        except Exception as error:  # noqa: BLE001 - said on the card, never raised
            self.view.post_message(self.Output(item, pending, error=f"could not run it: {error}"))
            return
        finally:
            if flush_later is not None:
                flush_later.cancel()
            if self.running is shell:
                self.running = None
        self.view.post_message(self.Output(item, pending, result))

    def apply(self, message: Output) -> None:
        """The view got `message`: the item takes it (the view then draws the card)."""
        item = message.item
        if message.lines:
            text = item.text + ("\n" if item.text else "") + "\n".join(message.lines)
            item.text = text[-_CARD_CHARS:]
        if message.result is not None or message.error:
            item.running = False
            if message.error:
                item.text += ("\n" if item.text else "") + message.error
            result = message.result or ShellResult(item.command, item.text, None)
            item.exit_code, item.stopped = result.exit_code, result.stopped
            self.done.append((item, result))

    async def stop(self) -> bool:
        """Ctrl+C: stop the running command. False when none runs."""
        shell = self.running
        if shell is None:
            return False
        await shell.stop()
        return True

    def context(self) -> list[dict[str, Any]]:
        """The finished commands as the text blocks that open the next prompt's message."""
        return [block for _, result in self.done for block in context_blocks(result)]

    def sent(self) -> list[ShellItem]:
        """The context went out with a prompt: their items (marked sent, for the cards to say so)."""
        items = [item for item, _ in self.done]
        for item in items:
            item.sent = True
        self.done = []
        return items


def context_blocks(result: ShellResult) -> list[dict[str, Any]]:
    """What Claude Code's TUI sends for a bash-mode command (seen in its requests, 2.1.330)."""
    output = result.output
    if result.cut:
        output += f"\n[… {result.cut} more characters of output left out]"
    errors = ""
    if result.stopped:
        errors = "Stopped by the user (Ctrl+C)."
    elif result.exit_code:
        errors = f"Exit code {result.exit_code}"
    return [{"type": "text", "text": f"<bash-input>{result.command}</bash-input>\n"},
            {"type": "text", "text": f"<bash-stdout>{output}</bash-stdout><bash-stderr>{errors}</bash-stderr>"}]
