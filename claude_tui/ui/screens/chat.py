"""The main screen: conversation, sidebar, prompt and status bar.

Data flow: `CliConnection` (the one worker) posts batches of protocol messages;
`on_cli_connection_events` feeds them to the session `Conversation` and routes
the returned changes to widgets. Nothing else mutates the conversation.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input

from claude_tui.completion import project_files, slash_candidates
from claude_tui.protocol import builders
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteKind
from claude_tui.session.status import Activity
from claude_tui.store import DraftStore, PromptHistory
from claude_tui.transport.locate import installed_version
from claude_tui.transport.options import CliOptions
from claude_tui.ui.change_view import show_changes
from claude_tui.ui.chat_polish import ChatPolish
from claude_tui.ui.connection import CliConnection
from claude_tui.ui.modes import next_mode
from claude_tui.ui.permission_flow import PermissionFlow
from claude_tui.ui.typeahead import TypeaheadRouter
from claude_tui.ui.welcome import welcome_text
from claude_tui.ui.widgets.chat_log import ChatLog
from claude_tui.ui.widgets.composer import Composer, PromptInput
from claude_tui.ui.widgets.sidebar import TaskSidebar
from claude_tui.ui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from claude_tui.ui.app import ClaudeTuiApp


class ChatScreen(ChatPolish, Screen[None]):
    CSS_PATH = "chat.tcss"
    # Priority: these keys work from the prompt too, also when the user remaps one to a key the
    # prompt would take for itself (keymap `chat.toggle_sidebar = "ctrl+k"`). Esc, Shift+Tab and
    # ? stay below the focused widget: dialogs, menus and text use them first.
    BINDINGS = [
        Binding("escape", "interrupt", "Interrupt", show=True, priority=False, id="chat.interrupt"),
        Binding("shift+tab", "cycle_mode", "Mode", show=True, id="chat.cycle_mode"),
        Binding("ctrl+b", "toggle_sidebar", "Sidebar", show=True, priority=True, id="chat.toggle_sidebar"),
        Binding("ctrl+t", "toggle_thinking", "Thinking", show=False, priority=True, id="chat.toggle_thinking"),
        Binding("ctrl+r", "restart", "Restart CLI", show=False, priority=True, id="chat.restart"),
        Binding("ctrl+o", "open_sessions", "Sessions", show=True, priority=True, id="chat.open_sessions"),
        Binding("ctrl+g", "what_changed", "Changes", show=True, priority=True, id="chat.what_changed"),
        Binding("ctrl+s", "focus_sidebar", "Focus sidebar", show=False, priority=True, id="chat.focus_sidebar"),
        # Polish (claude_tui/ui/chat_polish.py). Ctrl+Y is TextArea's redo, hence priority.
        Binding("ctrl+y", "copy_last_answer", "Copy answer", show=False, priority=True, id="chat.copy_last_answer"),
        Binding("ctrl+f", "find", "Find", show=False, priority=True, id="chat.find"),
        Binding("f3", "find_next", "Find next", show=False, id="chat.find_next"),  # the find bar shows its own F3
        Binding("ctrl+up,f2", "select_messages", "Select message", show=False, priority=True,
                id="chat.select_messages"),
        Binding("question_mark", "app.help", "Help", show=False, id="chat.help"),
        # Ctrl+E is TextArea's end-of-line (End still does that in the prompt), hence priority.
        Binding("ctrl+e", "toggle_last_tool", "Expand tool", show=False, priority=True, id="chat.toggle_last_tool"),
        Binding("pageup", "page(-1)", "Page up", show=False, priority=True, id="chat.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, priority=True, id="chat.page_down"),
    ]

    class TypeaheadDrained(Message):
        """Posted behind the keys already queued for the widget that had focus when typing went to the prompt."""

    def __init__(self, options: CliOptions, conversation: Conversation | None = None,
                 debug_log: Path | None = None) -> None:
        super().__init__()
        self.options = options
        self.conversation = (conversation or Conversation()).expect_mode(options.permission_mode)
        self.debug_log = debug_log
        cwd = Path(options.cwd or ".")
        if options.ssh is not None:  # a directory on another machine: its prompts and draft are its own
            cwd = Path(f"/ssh-{options.ssh.label}") / (options.cwd or ".").lstrip("/")
        self.history = PromptHistory(cwd)
        self.drafts = DraftStore(cwd)
        self.connection = CliConnection(self, options, debug_log)
        self.permissions = PermissionFlow(self)
        self._draft_timer: Any = None
        self._ticker: Timer | None = None
        self.typeahead = TypeaheadRouter(self)

    @property
    def tui(self) -> ClaudeTuiApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        config = self.tui.config
        with Horizontal(id="main"):
            yield ChatLog(self.conversation.main, show_thinking=config.show_thinking, id="chat-log")
            yield TaskSidebar(self.conversation, mode=config.sidebar, id="sidebar")
        yield Composer(history=self.history, id="composer")
        yield StatusBar(id="status-bar")
        yield Footer()

    def on_mount(self) -> None:
        composer = self.query_one(Composer)
        composer.load_files = self._load_files
        composer.prompt.project_root = Path(self.options.cwd or ".").resolve()
        draft = self.drafts.load()
        if draft:
            composer.prompt.text = draft
            composer.prompt.move_cursor(composer.prompt.document.end)
        composer.prompt.focus()
        self.query_one(ChatLog).show_welcome(welcome_text(self.options))
        worktree = self.tui.worktree_for(self.options.cwd)
        self.query_one(StatusBar).worktree = worktree.branch if worktree is not None else ""
        self.query_one(StatusBar).show(self.conversation.status)
        self._ticker = self.set_interval(0.25, self._tick)
        self.connection.start()

    def _collect_garbage(self) -> None:
        # The young generations only: a full collection took 5 -> 367 ms as a session's heap grew
        # and landed while the next answer was drawn. Older garbage is left to CPython's own
        # full collections, which run only once the long-lived heap has grown by a quarter.
        if not self.busy:
            gc.collect(1)

    def _tick(self) -> None:
        bar = self.query_one(StatusBar)
        bar.turn_started_at = self.turn_started_at
        bar.tick()
        self.query_one(ChatLog).tick()
        self.query_one(TaskSidebar).tick()
        if self._ticker is not None and not self._something_runs():
            self._ticker.pause()  # no timer while nothing runs; news from the CLI wakes it (show_changes)

    def _something_runs(self) -> bool:
        """A turn, or an agent still working after it: what the spinners and elapsed times follow."""
        from claude_tui.ui.widgets.sidebar_rows import ACTIVE

        return self.busy or any(entry.status in ACTIVE for entry in self.conversation.tasks.agents.values())

    @work(thread=True, exclusive=True, group="files", exit_on_error=False)
    def _load_files(self) -> None:
        if self.options.ssh is not None:  # `git ls-files` on the machine the CLI runs on
            from claude_tui.remote.machine import machine_for

            try:
                files = machine_for(self.options).list_files(self.conversation.status.cwd or self.options.cwd or ".")
            except OSError:
                files = []
        else:
            files = project_files(Path(self.options.cwd or "."))
        # Back on the UI thread: only there may the widget be looked up and changed.
        self.app.call_from_thread(self._files_loaded, files)

    def _files_loaded(self, files: list[str]) -> None:
        for composer in self.query(Composer):
            composer.set_files(files)

    # -- from the CLI ----------------------------------------------------------------
    @on(CliConnection.Events)
    async def on_cli_connection_events(self, message: CliConnection.Events) -> None:
        if message.connection not in (None, self.connection):
            return  # the last lines of a process we already replaced (Ctrl+R)
        for item in message.items:
            changes = self.conversation.apply(item)
            if changes:
                await self.show_changes(changes)

    async def show_changes(self, changes: list[Any]) -> None:
        """Draw what the conversation reports as changed (see `ui.change_view`)."""
        await show_changes(self, changes)
        if self._ticker is not None and self._something_runs():
            self._ticker.resume()

    @on(CliConnection.Ready)
    async def _ready(self, message: CliConnection.Ready) -> None:
        if message.connection not in (None, self.connection):
            return
        # The version (for the supported-range note) from the package when the CLI does not say it.
        installed = installed_version(self.options.claude_path) if self.options.command is None else None
        # This process (the first, or one after Ctrl+R) was started in the options' mode: check its report.
        self.conversation.expect_mode(self.options.permission_mode)
        changes = self.conversation.apply_initialize(message.response, installed)
        self.initialize_response = message.response  # all of it, for the help screen
        composer = self.query_one(Composer)
        composer.slash = slash_candidates(self.conversation.commands, self.conversation.status.slash_commands)
        if self.conversation.status.activity is Activity.STARTING:
            self.conversation.status.activity = Activity.IDLE
        self.query_one(StatusBar).show(self.conversation.status)
        await self.show_changes(changes)

    @on(CliConnection.Exited)
    async def _exited(self, message: CliConnection.Exited) -> None:
        if message.connection not in (None, self.connection):
            return
        changes = self.conversation.process_exited(message.exited.returncode)
        if not self.tui.is_quitting:
            from claude_tui.transport.ssh_faults import describe_exit

            # Over ssh, ssh's own failures (host key, login, dropped connection) are told apart.
            title, text = describe_exit(self.options.ssh, message.exited)
            changes += self.conversation.add_note(text, NoteKind.ERROR, title=title)
        await self.show_changes(changes)

    @on(CliConnection.Failed)
    async def _failed(self, message: CliConnection.Failed) -> None:
        if message.connection not in (None, self.connection):
            return
        self.conversation.status.activity = Activity.EXITED
        note = self.conversation.add_note(message.error, NoteKind.ERROR, title="Cannot start Claude Code")
        await self.show_changes(note)
        self.query_one(StatusBar).show(self.conversation.status)

    @on(CliConnection.Unready)
    async def _unready(self, message: CliConnection.Unready) -> None:
        if message.connection not in (None, self.connection) or not self.connection.alive:
            return  # an exit says more, and says it itself
        if self.conversation.status.activity is Activity.STARTING:
            self.conversation.status.activity = Activity.IDLE
        await self.show_changes(self.conversation.add_note(
            f"Claude Code did not answer the start-up handshake ({message.error}). Prompts still work; "
            "slash-command completion and the model list are unavailable until a restart (Ctrl+R).",
            NoteKind.ERROR, title="Claude Code is running without its command list"))
        self.query_one(StatusBar).show(self.conversation.status)

    # -- from the user ---------------------------------------------------------------
    @on(PromptInput.Submitted)
    async def _submit(self, message: PromptInput.Submitted) -> None:
        await self.send_prompt(message.text, from_prompt=True)

    async def send_prompt(self, raw: str, *, from_prompt: bool = False) -> bool:
        """Send a prompt (or a slash command); `from_prompt`: it is the prompt's text, which then leaves it."""
        text = raw.strip()
        if not text:
            return False
        if not self.connection.alive:
            self.notify("Claude Code is not running. Press Ctrl+R to restart it; your draft is kept.",
                        severity="error", timeout=6)
            return False
        sent = await self.connection.send(builders.user_message(text, session_id=self.conversation.status.session_id))
        if not sent:
            self.notify("Could not send: Claude Code is not accepting input. Your draft is kept.", severity="error")
            return False
        self.history.add(text)
        prompt = self.query_one(Composer).prompt
        # Keys typed while the send was awaited stay: only the sent text leaves the prompt. Deleted
        # as an edit, not by setting `text` (which put the cursor at the start, so the next keys
        # landed before the ones already typed: "also" came out "lsoa").
        if from_prompt and prompt.text.startswith(raw):
            rest = prompt.text[len(raw):]
            cut = len(raw) + len(rest) - len(rest.lstrip("\n"))
            prompt.delete((0, 0), prompt.document.get_location_from_index(cut))
            self.drafts.save(prompt.text)
        # Scrolling up released the anchor: take it again, so you see your prompt and the answer streaming.
        self.query_one(ChatLog).anchor()
        await self.show_changes(self.conversation.add_user_prompt(text))
        if self.turn_started_at is None and self.busy:  # this prompt started a turn: time it
            self.turn_started_at = time.monotonic()
        return True

    @on(PromptInput.Edited)
    def _draft_changed(self) -> None:
        # Save the draft shortly after typing pauses (and always on exit).
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(0.5, self.save_draft)

    def save_draft(self) -> None:
        try:
            self.drafts.save(self.query_one(Composer).prompt.text)
        except Exception:  # noqa: BLE001 - the screen may be tearing down
            pass

    @property
    def busy(self) -> bool:
        return self.conversation.status.turn_running

    # Control requests run in workers: awaiting one in a handler would stall this
    # screen's message queue (and the stream) for as long as the CLI takes to answer.
    def _control(self, payload: dict[str, object], failure: str, then: Callable[[], None] | None = None,
                 timeout: float = 10) -> None:
        async def run() -> None:
            try:
                await self.connection.request(payload, timeout=timeout)
            except Exception as error:  # noqa: BLE001 - shown, never raised
                self.notify(f"{failure}: {error}", severity="error")
                return
            if then is not None:
                then()

        self.run_worker(run(), group="control", exit_on_error=False)

    def action_interrupt(self) -> None:
        composer = self.query_one(Composer)
        if composer.menu.display:
            composer.menu.close()
            return
        if self.focused is not composer.prompt and not isinstance(self.focused, Input):
            composer.prompt.focus()  # Esc always brings you back to the prompt
        if not self.busy or not self.connection.alive:
            return
        self._control(builders.interrupt(), "Interrupt failed")

    def action_cycle_mode(self) -> None:
        self.set_mode(next_mode(self.conversation.status, self.tui.bypass_allowed))

    def set_mode(self, mode: str) -> None:
        def done() -> None:
            self.conversation.mode_switched(mode)
            self.options.permission_mode = mode  # a restart or new session keeps it
            self.query_one(StatusBar).show(self.conversation.status)

        self._control(builders.set_permission_mode(mode), f"Could not switch to {mode}", done)

    def set_model(self, model: str) -> None:
        def done() -> None:
            self.conversation.status.model = model
            self.options.model = model  # a restart or new session keeps it
            self.query_one(StatusBar).show(self.conversation.status)

        self._control(builders.set_model(model), "Could not switch model", done, timeout=15)

    def action_page(self, direction: int) -> None:
        """PageUp/PageDown scroll the conversation from anywhere (the prompt included)."""
        log = self.query_one(ChatLog)
        if direction < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_toggle_last_tool(self) -> None:
        """Ctrl+E: expand or collapse the newest tool card (its input and output)."""
        from claude_tui.ui.widgets.tool_card import ToolCard

        if isinstance(self.focused, Input):
            raise SkipAction()  # a one-line field (the find bar) keeps Ctrl+E as end-of-line
        cards = list(self.query_one(ChatLog).query(ToolCard))
        if cards:
            cards[-1].toggle()
            cards[-1].scroll_visible(animate=False)

    def on_key(self, event: events.Key) -> None:
        self.typeahead.on_key(event)  # typing where nothing takes text goes to the prompt

    @on(TypeaheadDrained)
    def _drained(self, message: TypeaheadDrained) -> None:
        message.stop()
        self.typeahead.drained()

    def clear_prompt(self) -> bool:
        """Ctrl+C on a draft: empty the prompt, keeping the text in the history. False if it was empty."""
        prompt = self.query_one(Composer).prompt
        if not prompt.text.strip():
            return False
        self.history.add(prompt.text)
        prompt.text = ""
        self.save_draft()
        self.notify("Prompt cleared. Press Up to get it back.", timeout=3)
        return True

    def action_toggle_sidebar(self) -> None:
        self.query_one(TaskSidebar).toggle()

    def action_toggle_thinking(self) -> None:
        from claude_tui.ui.widgets.messages import ThinkingBlock

        blocks = self.query(ThinkingBlock)
        if blocks:
            blocks.last().toggle()  # the latest: blocks cannot take focus, so there is no "this one"

    def action_restart(self) -> None:
        if self.busy and self.connection.alive:  # a restart stops the turn: ask, as quitting does
            from claude_tui.ui.screens.confirm import ConfirmScreen

            self.app.push_screen(ConfirmScreen("A turn is still running. Restart Claude Code and stop it?",
                                               yes="Restart", no="Keep working"), self._restart_confirmed)
            return
        self._restart_confirmed(True)

    def _restart_confirmed(self, confirmed: bool | None) -> None:
        # In a worker: closing the old CLI can take seconds (interrupt, EOF, SIGTERM), and the keys
        # typed meanwhile must reach the prompt rather than wait behind this handler.
        if confirmed:
            self.run_worker(self.restart(), group="restart", exclusive=True, exit_on_error=False)

    async def restart(self) -> None:
        """Restart the CLI in the same session (`--resume`), keeping transcript and draft."""
        if self.connection.alive:
            await self.connection.close()
            # What the old process was doing is over: mark running tools interrupted now.
            await self.show_changes(self.conversation.process_exited(None))
        session_id = self.conversation.status.session_id
        if session_id:
            self.options.resume = session_id
            self.options.continue_session = False
            self.options.fork_session = False
        self.conversation.status.activity = Activity.STARTING
        await self.show_changes(self.conversation.add_note(
            f"Restarting Claude Code{' in session ' + session_id[:8] if session_id else ''}…", NoteKind.INFO))
        self.connection = CliConnection(self, self.options, self.debug_log)
        self.connection.start()

    def action_what_changed(self) -> None:
        from claude_tui.ui.widgets.changes_panel import ChangesScreen

        self.app.push_screen(ChangesScreen(self.conversation.changes, root=self.conversation.status.cwd
                                           or self.options.cwd))

    def action_focus_sidebar(self) -> None:
        sidebar = self.query_one(TaskSidebar)
        if not sidebar.display:
            sidebar.toggle()
        sidebar.focus()

    @on(TaskSidebar.StopRequested)
    def _stop_task(self, message: TaskSidebar.StopRequested) -> None:
        self._control(builders.stop_task(message.task_id), "Could not stop the task")

    def action_open_sessions(self) -> None:
        self.tui.action_open_sessions()

    async def shutdown(self) -> None:
        self.save_draft()
        await self.connection.close()

    async def on_unmount(self) -> None:
        # However the app ends (quit, crash, test teardown), the CLI goes with it.
        await self.shutdown()

