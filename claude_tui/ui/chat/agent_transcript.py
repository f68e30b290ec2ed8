"""One subagent's own transcript, rendered with the chat widgets, live while it runs.

Opened by `AgentTranscripts` (`ui/chat/agents.py`) when the sidebar posts
`AgentSelected` (Enter on an agent); it keeps a reference to the open screen and
forwards the agent's `ItemAdded` / `ItemChanged` / `TextAppended` changes to
`add_item` / `update_item` / `append_text`; before the log widget is mounted (and once it is gone) nothing
is forwarded, because it renders the whole `Log` when it mounts.

Stopping: `x` calls the `on_stop(task_id)` callback it was given (the sidebar's
`request_stop`, which posts `TaskSidebar.StopRequested` from the sidebar), so the
chat screen handles a single message type wherever the stop came from. The screen stays open to show
the agent stopping. Esc / q close it (`dismiss(None)`).

Its elapsed times follow the chat view's clock (`ChatView.now`, which runs while the agent does);
it has no timer of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Footer, Static

from claude_tui.protocol import units
from claude_tui.protocol.sanitize import one_line, printable
from claude_tui.session.items import Item
from claude_tui.session.tasks import AgentEntry
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.panels.sidebar_rows import status_color

if TYPE_CHECKING:
    from claude_tui.session.conversation import Conversation

_PROMPT_LINES = 3


class AgentTranscriptScreen(Screen[None]):
    CSS_PATH = "agent_transcript.tcss"
    BINDINGS = [
        Binding("escape,q", "close", "Back"),
        Binding("x", "stop", "Stop agent"),
    ]

    def __init__(self, conversation: Conversation, tool_use_id: str,
                 on_stop: Callable[[str], bool] | None = None, clock: DOMNode | None = None) -> None:
        super().__init__(classes="agent-transcript")
        self.conversation = conversation
        self.clock = clock
        """A node with a `now` reactive (the chat view) that the elapsed times follow; None: still."""
        self._header_clock: tuple[str, str] | None = None
        """The status and elapsed time the header last showed: a tick that would show the same draws nothing."""
        self.tool_use_id = tool_use_id
        self.on_stop = on_stop
        self.log_data = conversation.log_for(tool_use_id)

    def compose(self) -> ComposeResult:
        yield Static(id="transcript-header")
        yield Static(id="transcript-prompt")
        yield Static(Text("Waiting for the agent's first message…", style="dim italic"), id="transcript-empty")
        yield ChatLog(self.log_data, id="transcript-log")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_header()
        self.query_one("#transcript-prompt", Static).update(self._prompt())
        self.query_one("#transcript-prompt").display = bool(self._prompt_text())
        if self.clock is not None:
            self.watch(self.clock, "now", self.tick, init=False)
        self.chat_log.focus()

    @property
    def chat_log(self) -> ChatLog:
        return self.query_one("#transcript-log", ChatLog)

    @property
    def entry(self) -> AgentEntry | None:
        return self.conversation.tasks.agent_for_tool(self.tool_use_id)

    def _shown_log(self) -> ChatLog | None:
        """The log while it is there to draw on, else None.

        The agent's news is forwarded at any point of this screen's life: once pushed, before its
        widgets are mounted (`on_mount` draws the whole log then), and while it closes, with them gone."""
        for log in self.query("#transcript-log").results(ChatLog):
            if log.is_mounted and log.is_attached:
                return log
        return None

    # -- forwarded by the sidebar ----------------------------------------------------
    def add_item(self, item: Item) -> None:
        log = self._shown_log()
        if log is None:
            return
        if log.widget_for_item(item.id) is None:
            log.add_item(item)
        self.query_one("#transcript-empty").display = False

    async def update_item(self, item: Item) -> None:
        if (log := self._shown_log()) is not None:
            await log.update_item(item)

    async def append_text(self, item: Item, text: str) -> None:
        if (log := self._shown_log()) is not None:
            await log.append_text(item, text)

    def tick(self) -> None:
        entry = self.entry
        running = entry is not None and entry.status in ("running", "starting")
        if running and entry is not None and self._clock_part(entry) != self._header_clock:
            self.refresh_header()
        if self._shown_log() is not None:
            self.chat_log.tick()

    @staticmethod
    def _clock_part(entry: AgentEntry) -> tuple[str, str]:
        return (entry.status, units.elapsed(entry.elapsed()))

    # -- rendering -------------------------------------------------------------------
    def refresh_header(self) -> None:
        if self._shown_log() is None:  # not composed yet, or closing (see `_shown_log`)
            return
        entry = self.entry
        self._header_clock = self._clock_part(entry) if entry is not None else None
        self.query_one("#transcript-header", Static).update(self._header())
        self.query_one("#transcript-empty").display = not self.log_data.items
        running = entry is not None and entry.status in ("running", "starting")
        if running != self.has_class("-running"):
            self.refresh_bindings()  # the footer offers `x` only while the agent runs
        self.set_class(running, "-running")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop":
            entry = self.entry
            return entry is not None and entry.status in ("running", "starting")
        return True

    def _header(self) -> Table:
        entry = self.entry
        grid = Table.grid(expand=True, padding=(0, 1))
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        title = Text("Agent  ", style="dim")
        if entry is None:
            title.append("(not started)", style="italic")
            grid.add_row(title, Text("esc back", style="dim"))
            return grid
        title.append(" ".join(printable(entry.description).split()) or "subagent", style="bold")
        details = Text()
        if entry.agent_type:
            details.append(printable(entry.agent_type), style="italic")
            details.append(" · ", style="dim")
        # The status is the CLI's word (an unknown one is kept): inert like any CLI text.
        details.append(one_line(entry.status), style=f"bold {status_color(self.app, entry.status)}")
        details.append(" · ", style="dim")
        details.append(units.elapsed(entry.elapsed()))
        grid.add_row(title, details)
        return grid

    def _prompt_text(self) -> str:
        tool = self.conversation.tool(self.tool_use_id)
        prompt = tool.input.get("prompt") if tool is not None else None
        return printable(prompt) if isinstance(prompt, str) else ""

    def _prompt(self) -> Text:
        lines = self._prompt_text().strip().splitlines()
        shown = "\n".join(lines[:_PROMPT_LINES]) + (" …" if len(lines) > _PROMPT_LINES else "")
        text = Text("Prompt  ", style="dim")
        text.append(shown, style="italic")
        return text

    # -- keys --------------------------------------------------------------------------
    def action_close(self) -> None:
        self.dismiss(None)

    def action_stop(self) -> None:
        entry = self.entry
        if entry is None or entry.status not in ("running", "starting"):
            self.notify("This agent is not running.", severity="warning")
            return
        if self.on_stop is None or not self.on_stop(entry.task_id):
            self.notify("A stop was already requested, or the agent has no task id yet.", severity="warning")
            return
        self.notify("Stopping the agent…")
