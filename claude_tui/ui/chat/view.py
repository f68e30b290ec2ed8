"""The chat view: one session drawn (log, sidebar, prompt, status bar) and the keys that act on it.

Data flow: the session's `CliConnection` (the one worker, run by this view) posts batches of
protocol messages here; `ChatSession.apply` feeds them to the conversation and the changes
it returns are drawn by `ChangeDrawer`. Nothing else mutates the conversation. A window holds
one view per tab (`ui/window/screen.py`); a view never reaches past its session and its host.

The parts own their handlers: the prompt and the rows around it (sending, the prompts held for
the turn's end, the draft, find and select) are `PromptArea`; permission dialogs
`PermissionDialogs`; rewinding `rewind_conversation.py` / `rewind_files.py`. The keys are declared
in `keys.py`; their actions are here (a binding runs on the node that declares it) and hand each
key to the part that does it.
"""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import Any

from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.reactive import var
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from claude_tui.completion import slash_candidates
from claude_tui.session.changes import TurnEnded
from claude_tui.transport.locate import installed_version
from claude_tui.ui.chat.agents import AgentTranscripts
from claude_tui.ui.chat.connection import CliConnection
from claude_tui.ui.chat.controls import Controls
from claude_tui.ui.chat.drawing import ChangeDrawer
from claude_tui.ui.chat.host import ChatHost
from claude_tui.ui.chat.keys import CHAT_BINDINGS, Chord
from claude_tui.ui.chat.permission_dialogs import PermissionDialogs
from claude_tui.ui.chat.prompt_area import PromptArea
from claude_tui.ui.chat.rewind_conversation import open_rewind
from claude_tui.ui.chat.session import ChatSession
from claude_tui.ui.chat.slash_local import LocalCommands, tab_commands
from claude_tui.ui.chat.transcript_tools import Copier, export_transcript
from claude_tui.ui.chat.typeahead import TypeaheadRouter
from claude_tui.ui.chat.welcome import welcome_text
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.panels.prompt_input import PromptInput
from claude_tui.ui.panels.sidebar import TaskSidebar
from claude_tui.ui.panels.status_bar import BarState, StatusBar

ROW_CSS = """
#main {
    height: 1fr;
}
#chat-log {
    width: 1fr;
    padding: 0 1;
    /* Always room for the scrollbar: its appearing would change the answers' width and make
       every answer render again (they are rendered to lines per width). */
    scrollbar-gutter: stable;
}
"""
"""The log-and-sidebar row (scoped to ChatView; test apps that lay the parts out alike use it too)."""


class ChatView(Widget):
    DEFAULT_CSS = """
    ChatView {
        layout: vertical;
        height: 1fr;
    }
    """ + ROW_CSS

    BINDINGS = CHAT_BINDINGS

    bar: var[BarState] = var(BarState)
    """What the status bar shows (bound): made in one place, `show_status`."""
    now: var[float] = var(0.0, init=False)
    """The clock the parts showing elapsed time bind to (the status bar, the sidebar, the log's
    running tools): `time.monotonic()` 4×/s while something runs in this tab and it is shown;
    still otherwise, so an idle app has no timer waking it."""

    class Changed(Message):
        """The session's tab summary may have changed (state, name, cost, attention): redraw its tab."""

        def __init__(self, view: ChatView) -> None:
            super().__init__()
            self.view = view

        @property
        def control(self) -> ChatView:
            return self.view

    class NeedsAttention(Message):
        """A dialog of this (background) tab waits: mark the tab and ring once."""

        def __init__(self, view: ChatView) -> None:
            super().__init__()
            self.view = view

    def __init__(self, session: ChatSession, host: ChatHost) -> None:
        super().__init__(id=session.tab_id)
        self.session = session
        self.host = host
        config = host.config
        self.log_widget = ChatLog(session.conversation.main, show_thinking=config.show_thinking, id="chat-log",
                                  project_dir=lambda: session.options.cwd or session.conversation.status.cwd or "")
        self.sidebar = TaskSidebar(session.conversation, mode=config.sidebar, id="sidebar")
        self.agent_transcripts = AgentTranscripts(session.conversation, clock=self)
        self.status_bar = StatusBar(id="status-bar")
        self.copier = Copier(self, session.conversation)
        self.prompt_area = PromptArea(session, host, self, self.log_widget, self.copier, draw=self.show_changes,
                                      answer_local=lambda text: self.local_commands.answer(text),
                                      rewind=lambda item: open_rewind(self, item),
                                      rewind_quietly=lambda: open_rewind(self, quiet=True))
        self.dialogs = PermissionDialogs(session, self, config, self.show_changes,
                                         shown=lambda: self.display and self.is_attached,
                                         marked=self._needs_attention)
        self.drawer = ChangeDrawer(session, self.log_widget, self.sidebar, self.agent_transcripts,
                                   self.dialogs, self._turn_ended)
        self.typeahead = TypeaheadRouter(self, self.prompt_area.prompt, config.keymap)
        self.controls = Controls(session, host, self, self.show_status, self.show_changes)
        self._worktree = ""
        """The branch of the worktree the session runs in (asked of the host at mount), or ""."""
        self._clock: Timer | None = None
        self._clock_runs = False
        """Whether `_clock` is resumed: news from the CLI (100 batches a second) must not move `now` again."""
        self._chord = Chord()

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.log_widget.data_bind(ChatView.now)
            yield self.sidebar.data_bind(ChatView.now)
        yield self.prompt_area
        yield self.status_bar.data_bind(ChatView.now, state=ChatView.bar)

    def on_mount(self) -> None:
        session = self.session
        self.log_widget.show_welcome(welcome_text(session.options))
        worktree = self.host.worktree_for(session.options.cwd)
        self._worktree = worktree.branch if worktree is not None else ""
        self.show_status()
        self._clock = self.set_interval(0.25, self._tick, pause=True)
        self._wake_clock()
        session.start(self)
        self.prompt_area.refresh_user_status()

    async def shutdown(self) -> None:
        """Stop the session's CLI (and a `!command` still running), the prompt's text saved as its draft."""
        await self.session.shutdown(await self.prompt_area.shutdown())

    async def on_unmount(self) -> None:
        # However the view ends (its tab closed, quit, crash, test teardown), its CLI goes with it.
        await self.shutdown()

    # -- the clock -----------------------------------------------------------------------
    def collect_garbage(self) -> None:
        # The young generations only: a full collection took 5 -> 367 ms as a session's heap grew
        # and landed while the next answer was drawn. Older garbage is left to CPython's own
        # full collections, which run only once the long-lived heap has grown by a quarter.
        if not self.session.busy:
            gc.collect(1)

    def _tick(self) -> None:
        if self._clock is not None and not self._clock_wanted():
            self._clock.pause()  # no timer while nothing runs; news from the CLI wakes it (show_changes)
            self._clock_runs = False
            return
        self.now = time.monotonic()

    def _wake_clock(self) -> None:
        """Start the clock if something it counts runs here and the tab is shown (the time at once)."""
        if self._clock is not None and not self._clock_runs and self._clock_wanted():
            self._clock_runs = True
            self.now = time.monotonic()
            self._clock.resume()

    def _clock_wanted(self) -> bool:
        return self.display and self._something_runs()

    def _something_runs(self) -> bool:
        """A turn, or an agent still working after it: what the spinners and elapsed times follow."""
        from claude_tui.ui.panels.sidebar_rows import ACTIVE

        return self.session.busy or any(entry.status in ACTIVE
                                        for entry in self.session.conversation.tasks.agents.values())

    # -- drawing ---------------------------------------------------------------------------
    async def show_changes(self, changes: list[Any]) -> None:
        """Draw what the conversation reports as changed (see `ui.chat.drawing`)."""
        await self.drawer.draw(changes)
        self.show_status()
        self.prompt_area.turn_may_be_over()
        self._wake_clock()
        self.post_message(self.Changed(self))

    def show_status(self) -> None:
        """The one place that decides what the status bar shows: the session's status and where it runs."""
        session = self.session
        self.bar = BarState.of(session.conversation.status, worktree=self._worktree,
                               host=session.options.ssh.label if session.options.ssh is not None else "",
                               review_count=len(session.review), turn_started_at=session.turn_started_at)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A notice from a tab in the background says which tab it comes from (the app shows it)."""
        if not title and not self.display:
            title = self.session.display_name()
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def _needs_attention(self) -> None:
        self.post_message(self.NeedsAttention(self))

    def _turn_ended(self, change: TurnEnded) -> None:
        self.host.notify_turn_ended(self.session, change)
        from claude_tui.ui.manage.base import turn_ended

        turn_ended(self.app, self.session)  # an open /context or /usage asks again
        self.prompt_area.refresh_user_status()
        # Collection is tuned down while streaming (see app._tune_gc); sweep the
        # turn's young cyclic garbage once the turn is over and you are reading.
        self.set_timer(1.0, self.collect_garbage)

    def shown(self) -> None:
        """This tab came to the front: its waiting dialog (if any) opens, the prompt takes the keys."""
        self.session.attention = False
        self.prompt_area.prompt.focus()
        self.call_after_refresh(self.prompt_area.place_notifications)
        self.dialogs.show_next()
        self._wake_clock()
        self.post_message(self.Changed(self))

    def hidden(self) -> None:
        """This tab went to the back: its dialog comes down unanswered and waits for its return."""
        self.dialogs.hide()
        self.post_message(self.Changed(self))  # its tab may now be marked as waiting for you

    def on_resize(self) -> None:
        self.call_after_refresh(self.prompt_area.place_notifications)

    # -- from the CLI ----------------------------------------------------------------
    @on(CliConnection.Events)
    async def _events(self, message: CliConnection.Events) -> None:
        message.stop()
        if not self.session.owns(message.connection):
            return  # the last lines of a process a restart (F5) replaced
        # The whole batch applied, then drawn once: per line, a 2,000-delta answer paid 2,000 draws,
        # tab-bar redraws and `Changed` messages.
        changes = self.session.apply(message.items)
        if changes:
            await self.show_changes(changes)

    @on(CliConnection.Ready)
    async def _ready(self, message: CliConnection.Ready) -> None:
        message.stop()
        if not self.session.owns(message.connection):
            return
        options = self.session.options
        # The version (for the supported-range note) from the package when the CLI does not say it.
        installed = installed_version(options.claude_path) if options.command is None else None
        changes = self.session.ready(message.response, installed)
        conversation = self.session.conversation
        self.prompt_area.composer.slash = slash_candidates(conversation.commands, conversation.status.slash_commands)
        await self.show_changes(changes)
        self.log_widget.warm_up()

    @on(CliConnection.Exited)
    async def _exited(self, message: CliConnection.Exited) -> None:
        message.stop()
        if self.session.owns(message.connection):
            await self.show_changes(self.session.exited(message.exited))

    @on(CliConnection.Failed)
    async def _failed(self, message: CliConnection.Failed) -> None:
        message.stop()
        if self.session.owns(message.connection):
            await self.show_changes(self.session.failed(message.error))

    @on(CliConnection.Unready)
    async def _unready(self, message: CliConnection.Unready) -> None:
        message.stop()
        if self.session.owns(message.connection) and self.session.alive:  # else an exit says more, itself
            await self.show_changes(self.session.unready(message.error))

    # -- slash commands claude-tui answers itself ---------------------------------------------
    @property
    def local_commands(self) -> LocalCommands:
        """The slash commands claude-tui answers itself in this tab (`slash_local.py`)."""
        def export() -> None:
            self.export_transcript("md")

        return tab_commands(self.app, self.host, self.controls, {
            "export": export, "rewind": lambda: open_rewind(self), "vim": self.prompt_area.prompt.toggle_vim,
            "copy": self.action_copy_last_answer, "changes": self.action_what_changed,
            "sidebar": self.action_toggle_sidebar,
        }, lambda line: self.notify(line, timeout=8))

    def export_transcript(self, fmt: str = "md") -> Path | None:
        return export_transcript(self.app, self.session.conversation, self.session.options.cwd, fmt)

    # -- keys that reach no field --------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        self.typeahead.on_key(event)  # typing where nothing takes text goes to the prompt

    @on(TypeaheadRouter.Drained)
    def _drained(self, message: TypeaheadRouter.Drained) -> None:
        message.stop()
        self.typeahead.drained()

    @on(PromptInput.ClearAsked)
    def _clear_asked(self, event: PromptInput.ClearAsked) -> None:
        event.stop()
        self.action_clear_prompt()

    @on(PromptInput.EscapedBelow)
    def _escaped_below(self, event: PromptInput.EscapedBelow) -> None:
        event.stop()
        self.action_interrupt()

    def action_interrupt(self) -> None:
        if self.prompt_area.escape(turn_runs=self.session.busy and self.session.alive):
            return
        # What was held for the turn's end comes back to the prompt rather than going out the
        # moment the interrupt ends the turn (issue 27).
        self.prompt_area.take_queued()
        self.controls.interrupt()

    def action_cycle_mode(self) -> None:
        self.controls.cycle_mode()

    @on(TaskSidebar.AgentSelected)
    def _open_agent_transcript(self, message: TaskSidebar.AgentSelected) -> None:
        self.agent_transcripts.open(self.app, message.tool_use_id, on_stop=message.sidebar.request_stop)

    @on(TaskSidebar.StopRequested)
    def _stop_task(self, message: TaskSidebar.StopRequested) -> None:
        self.controls.stop_task(message.task_id)

    def action_restart(self) -> None:
        self.controls.ask_restart()

    def action_open_sessions(self) -> None:
        self.host.action_open_sessions()

    # -- the prompt's keys (`PromptArea` does them) ---------------------------------------------
    def action_history_search(self) -> None:
        self.prompt_area.history_search_key()

    def action_clear_prompt(self) -> None:
        """Ctrl+L, as in Claude Code: empty the prompt (the text stays in the history)."""
        self.prompt_area.clear_prompt()

    def action_paste_image(self) -> None:
        self.prompt_area.paste_image()

    def action_external_editor(self) -> None:
        self.prompt_area.external_editor()

    def action_chord_prefix(self) -> None:
        prompt = self.prompt_area.prompt
        focused = self.screen.focused
        if isinstance(focused, Input) or (focused is prompt and prompt.selected_text):
            raise SkipAction()  # cut, as the field's own Ctrl+X
        self._chord.press()

    def action_find(self) -> None:
        self.prompt_area.navigator.find()

    def action_find_next(self) -> None:
        self.prompt_area.navigator.find_next()

    def action_select_messages(self) -> None:
        self.prompt_area.navigator.select()

    # -- the log's keys ------------------------------------------------------------------------------
    def action_page(self, direction: int) -> None:
        """PageUp/PageDown scroll the conversation from anywhere (the prompt included)."""
        if direction < 0:
            self.log_widget.scroll_page_up(animate=False)
        else:
            self.log_widget.scroll_page_down(animate=False)

    def action_toggle_last_tool(self) -> None:
        """Ctrl+E: expand or collapse the newest tool card (its input and output)."""
        from claude_tui.ui.log.tool_card import ToolCard

        if self._chord.take():
            self.action_external_editor()  # Ctrl+X Ctrl+E
            return
        if isinstance(self.screen.focused, Input):
            raise SkipAction()  # a one-line field (the find bar) keeps Ctrl+E as end-of-line
        cards = list(self.log_widget.query(ToolCard))
        if cards:
            cards[-1].toggle()
            cards[-1].scroll_visible(animate=False)

    def action_toggle_verbose(self) -> None:
        """Ctrl+O, as in Claude Code's verbose transcript: open every tool card and thinking block."""
        log = self.log_widget
        log.set_verbose(not log.verbose)
        self.notify("Transcript: every tool and thinking block open · Ctrl+O closes them" if log.verbose
                    else "Transcript: tools and thinking folded again", timeout=3)

    def action_background(self) -> None:
        """Ctrl+B: Claude Code sends a running Bash command to the background; over stream-json
        the CLI offers no request for that, so say so rather than do something else."""
        self._chord.take()  # Ctrl+X Ctrl+B is the same in Claude Code
        self.notify("Ctrl+B cannot background a command here: Claude Code takes that only from its own "
                    "terminal UI. Ask Claude to run it with run_in_background instead.", timeout=6)

    def action_toggle_thinking(self) -> None:
        from claude_tui.ui.log.items import ThinkingBlock

        blocks = self.query(ThinkingBlock)
        if blocks:
            blocks.last().toggle()  # the latest: blocks cannot take focus, so there is no "this one"

    def action_pick_model(self) -> None:
        """Alt+P: the `/model` picker, as Claude Code's Alt+P opens its own."""
        self.local_commands.answer("/model")

    def action_copy_last_answer(self) -> None:
        self.copier.last_answer()

    # -- the sidebar's and the changes' keys ---------------------------------------------------------
    def action_toggle_sidebar(self) -> None:
        self.sidebar.toggle()

    def action_focus_sidebar(self) -> None:
        if not self.sidebar.display:
            self.sidebar.toggle()
        self.sidebar.focus()

    def action_what_changed(self) -> None:
        from claude_tui.ui.kit.screen_once import opened_before
        from claude_tui.ui.panels.changes_panel import ChangesScreen

        if opened_before(self.app, ChangesScreen):
            return
        conversation = self.session.conversation
        self.app.push_screen(ChangesScreen(conversation.changes, root=conversation.status.cwd
                                           or self.session.options.cwd))
