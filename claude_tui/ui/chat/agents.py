"""The open subagent transcript of one chat: opening it and feeding it the agent's live output.

The sidebar only says which agent the user chose (`TaskSidebar.AgentSelected`); the chat
screen that hosts it calls `open()`, and routes each change scoped to an agent here, as
it routes the main conversation's changes to its log. At most one transcript is open
(it covers the chat); a change for another agent, or with none open, is dropped: the
screen renders the agent's whole `Log` when it opens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from claude_tui.session.items import Item
from claude_tui.ui.chat.agent_transcript import AgentTranscriptScreen

if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode

    from claude_tui.session.conversation import Conversation


class AgentTranscripts:
    def __init__(self, conversation: Conversation, clock: DOMNode | None = None) -> None:
        self.conversation = conversation
        self.clock = clock
        """What the open transcript's elapsed times follow (the chat view, its `now`)."""
        self.screen: AgentTranscriptScreen | None = None
        """The open transcript screen, if any."""

    def open(self, app: App[Any], tool_use_id: str, on_stop: Callable[[str], bool] | None = None) -> None:
        """Push the transcript of the subagent started by this Task call; `x` there calls `on_stop(task_id)`."""
        screen = AgentTranscriptScreen(self.conversation, tool_use_id, on_stop=on_stop, clock=self.clock)
        self.screen = screen

        def closed(_result: object = None) -> None:
            if self.screen is screen:
                self.screen = None

        app.push_screen(screen, closed)

    def _showing(self, scope: str) -> AgentTranscriptScreen | None:
        screen = self.screen
        if screen is not None and screen.tool_use_id == scope and screen.is_attached:
            return screen
        return None

    async def text(self, scope: str, item: Item, text: str) -> None:
        if (screen := self._showing(scope)) is not None:
            await screen.append_text(item, text)

    def item_added(self, scope: str, item: Item) -> None:
        if (screen := self._showing(scope)) is not None:
            screen.add_item(item)

    async def item_changed(self, scope: str, item: Item) -> None:
        if (screen := self._showing(scope)) is not None:
            await screen.update_item(item)

    def refresh(self) -> None:
        """The task board changed: the open transcript's header shows the agent's status now."""
        if self.screen is not None and self.screen.is_attached:
            self.screen.refresh_header()
