"""The chat view: one session drawn (log, sidebar, prompt, status bar) and the keys that act on it.

Data flow: the session's `CliConnection` (the one worker, run by this view) posts batches of
protocol messages here; `ChatSession.apply` feeds them to the conversation and the changes
it returns are drawn by `ChangeDrawer`. Nothing else mutates the conversation. A window holds
one view per tab (`ui/window/screen.py`); a view never reaches past its session and its host.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual import events, on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from claude_tui.attachments import ImageSlots
from claude_tui.completion import project_files, slash_candidates
from claude_tui.history.paths import cli_config_root
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.changes import Change, ItemChanged, TurnEnded
from claude_tui.session.items import ShellItem, UserItem
from claude_tui.status_line import find_setting, model_display_name, status_input
from claude_tui.transport.locate import installed_version
from claude_tui.ui.chat.agents import AgentTranscripts
from claude_tui.ui.chat.bash_mode import BashMode
from claude_tui.ui.chat.connection import CliConnection
from claude_tui.ui.chat.double_press import DoublePress
from claude_tui.ui.chat.drawing import ChangeDrawer
from claude_tui.ui.chat.host import ChatHost
from claude_tui.ui.chat.image_paste import paste_image
from claude_tui.ui.chat.log_navigator import FIND_CLASS, SELECT_CLASS, LogNavigator
from claude_tui.ui.chat.permission_dialogs import PermissionDialogs
from claude_tui.ui.chat.prompt_queue import PromptQueue
from claude_tui.ui.chat.rewind_conversation import open_rewind
from claude_tui.ui.chat.rewind_files import last_rewindable_prompt, start_rewind
from claude_tui.ui.chat.session import ChatSession, fresh_options
from claude_tui.ui.chat.slash_local import LocalCommands
from claude_tui.ui.chat.transcript_tools import Copier, export_transcript, item_by_id
from claude_tui.ui.chat.typeahead import TypeaheadRouter
from claude_tui.ui.chat.user_status import UserStatusLine, transcript_path
from claude_tui.ui.chat.welcome import welcome_text
from claude_tui.ui.kit.modes import bypass_allowed, next_mode
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.panels.composer import Composer, PromptInput
from claude_tui.ui.panels.find_bar import FindBar
from claude_tui.ui.panels.history_search import HistorySearchBar
from claude_tui.ui.panels.queued_prompts import QueuedPrompts
from claude_tui.ui.panels.select_bar import SelectBar
from claude_tui.ui.panels.shortcuts import ShortcutsPanel
from claude_tui.ui.panels.sidebar import TaskSidebar
from claude_tui.ui.panels.status_bar import StatusBar

CHORD_SECONDS = 2.0
"""How long Ctrl+X waits for the second key of a chord (Ctrl+X Ctrl+E)."""

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

    # Priority: these keys work from the prompt too, also when the user remaps one to a key the
    # prompt would take for itself (keymap `chat.toggle_sidebar = "ctrl+k"`). Esc, Shift+Tab and
    # ? stay below the focused widget: dialogs, menus and text use them first.
    # Claude Code's keys mean here what they mean there (the README's key map); claude-tui's own
    # actions sit on F-keys no habit claims (F6/F7 are the prompt's select line/all).
    BINDINGS = [
        # Shift+Tab first: the footer lists keys in the order the screen's own (Tab, Shift+Tab) are.
        Binding("shift+tab", "cycle_mode", "Mode", show=True, id="chat.cycle_mode"),
        Binding("escape", "interrupt", "Interrupt", show=True, priority=False, id="chat.interrupt"),
        Binding("ctrl+r", "history_search", "Search history", show=False, priority=True, id="chat.history_search"),
        Binding("ctrl+o", "toggle_verbose", "Transcript", show=True, priority=True, id="chat.toggle_verbose"),
        Binding("ctrl+t", "toggle_sidebar", "Tasks", show=True, priority=True, id="chat.toggle_sidebar"),
        Binding("ctrl+g", "external_editor", "Editor", show=False, priority=True, id="chat.external_editor"),
        Binding("ctrl+b", "background", "Background", show=False, priority=True, id="chat.background"),
        # Claude Code's chord prefix (Ctrl+X Ctrl+E: editor) while nothing is selected; with a
        # selection it is still cut.
        Binding("ctrl+x", "chord_prefix", show=False, priority=True, id="chat.chord"),
        Binding("ctrl+l", "clear_prompt", "Clear prompt", show=False, priority=True, id="chat.clear_prompt"),
        Binding("f4", "open_sessions", "Sessions", show=True, priority=True, id="chat.open_sessions"),
        Binding("f5", "restart", "Restart CLI", show=False, priority=True, id="chat.restart"),
        Binding("f8", "what_changed", "Changes", show=True, priority=True, id="chat.what_changed"),
        Binding("f9", "toggle_thinking", "Thinking", show=False, priority=True, id="chat.toggle_thinking"),
        Binding("ctrl+s", "focus_sidebar", "Focus sidebar", show=False, priority=True, id="chat.focus_sidebar"),
        # Ctrl+Y is TextArea's redo, hence priority.
        Binding("ctrl+y", "copy_last_answer", "Copy answer", show=False, priority=True, id="chat.copy_last_answer"),
        Binding("ctrl+f", "find", "Find", show=False, priority=True, id="chat.find"),
        # As in Claude Code: the clipboard's image into the prompt (TextArea's own Ctrl+V, hence priority).
        Binding("ctrl+v", "paste_image", "Paste image", show=False, priority=True, id="chat.paste_image"),
        Binding("f3", "find_next", "Find next", show=False, id="chat.find_next"),  # the find bar shows its own F3
        Binding("ctrl+up,f2", "select_messages", "Select message", show=False, priority=True,
                id="chat.select_messages"),
        # Ctrl+E is TextArea's end-of-line (End still does that in the prompt), hence priority.
        Binding("ctrl+e", "toggle_last_tool", "Expand tool", show=False, priority=True, id="chat.toggle_last_tool"),
        Binding("pageup", "page(-1)", "Page up", show=False, priority=True, id="chat.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, priority=True, id="chat.page_down"),
    ]

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
        self.agent_transcripts = AgentTranscripts(session.conversation)
        self.composer = Composer(history=session.history, id="composer")
        self.status_bar = StatusBar(id="status-bar")
        self.queue = PromptQueue()
        self.bash = BashMode(self)
        self.images = ImageSlots()
        self.queued_prompts = QueuedPrompts(id="queued-prompts")
        self.user_status = self._user_status_line()
        self._opened_at = time.monotonic()  # a status line's total_duration_ms counts from here
        self.history_search = HistorySearchBar(id="history-search")
        self.shortcuts = ShortcutsPanel(id="shortcuts")
        self.navigator = LogNavigator(self, self.log_widget, self.composer, session.conversation)
        self._draft_timer: Timer | None = None
        self._ticker: Timer | None = None
        self._prompt_before = ""
        self._escape = DoublePress()
        self._chord_at: float | None = None
        """When Ctrl+X (Claude Code's chord prefix) was pressed, for a Ctrl+E/Ctrl+B right after."""

    # Made on mount, where the app they talk to is known.
    dialogs: PermissionDialogs
    drawer: ChangeDrawer
    copier: Copier
    typeahead: TypeaheadRouter
    prompt: PromptInput

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.log_widget
            yield self.sidebar
        yield self.queued_prompts
        yield self.composer
        if self.user_status is not None:
            yield self.user_status
        yield self.history_search
        yield self.shortcuts
        yield self.status_bar

    def on_mount(self) -> None:
        session, composer = self.session, self.composer
        self.dialogs = PermissionDialogs(session, self.app, self.host.config, self.show_changes,
                                         shown=lambda: self.display and self.is_attached,
                                         marked=self._needs_attention)
        self.drawer = ChangeDrawer(session, self.log_widget, self.sidebar, self.agent_transcripts, self.status_bar,
                                   self.dialogs, self._turn_ended)
        self.copier = Copier(self.app, session.conversation)
        self.prompt = composer.prompt  # kept: the draft is read from it while the view unmounts
        self.typeahead = TypeaheadRouter(self, self.prompt, self.host.config.keymap)
        composer.prompt.take_queued = self.take_queued
        composer.prompt.project_root = Path(session.options.cwd or ".").resolve()
        composer.prompt.can_send = lambda: self.session.alive
        self.status_bar.review_count = len(session.review)  # the project's tray, kept from before
        composer.prompt.set_vim(self.host.config.vim_mode)
        draft = session.drafts.load()
        if draft:
            composer.prompt.text = draft
            composer.prompt.move_cursor(composer.prompt.document.end)
        composer.prompt.focus()
        self.log_widget.show_welcome(welcome_text(session.options))
        worktree = self.host.worktree_for(session.options.cwd)
        self.status_bar.worktree = worktree.branch if worktree is not None else ""
        self.status_bar.host = session.options.ssh.label if session.options.ssh is not None else ""
        self.status_bar.show(session.conversation.status)
        self._ticker = self.set_interval(0.25, self._tick)
        session.start(self)
        self.refresh_user_status()

    async def shutdown(self) -> None:
        """Stop the session's CLI (and a `!command` still running), the prompt's text saved as its draft."""
        await self.bash.stop()
        # Prompts still held for the turn's end are kept with the draft: nothing typed is lost.
        if hasattr(self, "prompt"):
            await self.session.shutdown(self.prompt.sent_text(self.queue.take_before(self.prompt.text)))
        else:
            await self.session.shutdown(None)

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
        self.status_bar.turn_started_at = self.session.turn_started_at
        self.status_bar.tick()
        self.log_widget.tick()
        self.sidebar.tick()
        if self._ticker is not None and not self._something_runs():
            self._ticker.pause()  # no timer while nothing runs; news from the CLI wakes it (show_changes)

    def _something_runs(self) -> bool:
        """A turn, or an agent still working after it: what the spinners and elapsed times follow."""
        from claude_tui.ui.panels.sidebar_rows import ACTIVE

        return self.session.busy or any(entry.status in ACTIVE
                                        for entry in self.session.conversation.tasks.agents.values())

    @on(Composer.FilesWanted)
    def _files_wanted(self, event: Composer.FilesWanted) -> None:
        event.stop()
        self._load_files()

    @work(thread=True, exclusive=True, group="files", exit_on_error=False)
    def _load_files(self) -> None:
        options = self.session.options
        if options.ssh is not None:  # `git ls-files` on the machine the CLI runs on
            from claude_tui.remote.machine import machine_for

            try:
                files = machine_for(options).list_files(self.session.conversation.status.cwd or options.cwd or ".")
            except OSError:
                files = []
        else:
            files = project_files(Path(options.cwd or "."))
        # Back on the UI thread: only there may the widget be changed.
        self.app.call_from_thread(self.composer.set_files, files)

    # -- drawing ---------------------------------------------------------------------------
    async def show_changes(self, changes: list[Any]) -> None:
        """Draw what the conversation reports as changed (see `ui.chat.drawing`)."""
        await self.drawer.draw(changes)
        if self.queue and not self.session.busy and self.session.alive:
            self.call_later(self._send_queued)  # the turn is over: what was held for it goes now
        if self._ticker is not None and self._something_runs():
            self._ticker.resume()
        self.post_message(self.Changed(self))

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A notice from a tab in the background says which tab it comes from (the app shows it)."""
        if not title and not self.display:
            title = self.session.display_name()
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def _needs_attention(self) -> None:
        self.post_message(self.NeedsAttention(self))

    def _user_status_line(self) -> UserStatusLine | None:
        """The user's `statusLine` command, when the settings have one (local sessions: over ssh the
        settings are the remote machine's)."""
        options = self.session.options
        if options.ssh is not None:
            return None
        project = Path(options.cwd or ".").resolve()
        setting = find_setting(project, cli_config_root(options.env))
        if setting is None:
            return None
        return UserStatusLine(setting, str(project), lambda line: self.notify(line, severity="warning", timeout=8),
                              id="user-status")

    def refresh_user_status(self) -> None:
        if self.user_status is None:
            return
        conversation, options = self.session.conversation, self.session.options
        status = conversation.status
        project = str(Path(options.cwd or ".").resolve())
        vim = self.composer.prompt.vim
        self.user_status.changed(status_input(
            status, project=project,
            transcript=transcript_path(cli_config_root(options.env), status.cwd or project, status.session_id),
            model_name=model_display_name(conversation.models, status.model),
            duration_ms=(time.monotonic() - self._opened_at) * 1000,
            vim_mode=vim.mode.upper() if vim is not None else None, session_name=self.session.name or None))

    def _turn_ended(self, change: TurnEnded) -> None:
        self.host.notify_turn_ended(self.session, change)
        from claude_tui.ui.manage.base import turn_ended

        turn_ended(self.app, self.session)  # an open /context or /usage asks again
        self.refresh_user_status()
        # Collection is tuned down while streaming (see app._tune_gc); sweep the
        # turn's young cyclic garbage once the turn is over and you are reading.
        self.set_timer(1.0, self.collect_garbage)

    def shown(self) -> None:
        """This tab came to the front: its waiting dialog (if any) opens, the prompt takes the keys."""
        self.session.attention = False
        self.composer.prompt.focus()
        self.call_after_refresh(self.place_notifications)
        self.dialogs.show_next()
        self.post_message(self.Changed(self))

    def hidden(self) -> None:
        """This tab went to the back: its dialog comes down unanswered and waits for its return."""
        self.dialogs.hide()
        self.post_message(self.Changed(self))  # its tab may now be marked as waiting for you

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
        self.composer.slash = slash_candidates(conversation.commands, conversation.status.slash_commands)
        self.status_bar.show(conversation.status)
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
            self.status_bar.show(self.session.conversation.status)

    @on(CliConnection.Unready)
    async def _unready(self, message: CliConnection.Unready) -> None:
        message.stop()
        if self.session.owns(message.connection) and self.session.alive:  # else an exit says more, itself
            await self.show_changes(self.session.unready(message.error))
            self.status_bar.show(self.session.conversation.status)

    # -- from the user ---------------------------------------------------------------
    @on(PromptInput.EscapedBelow)
    def _escaped_below(self, event: PromptInput.EscapedBelow) -> None:
        event.stop()
        self.action_interrupt()

    @on(PromptInput.Submitted)
    async def _submit(self, message: PromptInput.Submitted) -> None:
        if not message.taken:  # the prompt kept it: say why
            self.notify_not_running()
            return
        if not await self.send_prompt(message.text, from_prompt=True):
            self.composer.prompt.give_back(message.text)
            self.save_draft()

    async def send_prompt(self, raw: str, *, from_prompt: bool = False) -> bool:
        """Send a prompt (or a slash command); False (and a notice) when it could not go.

        `from_prompt`: typed by the user (the prompt's text has left it already, at its Enter,
        `PromptInput.submit`); a command sent for a screen (`send_slash`) is never routed to one."""
        text = raw.strip()
        if not text:
            return False
        if from_prompt:
            from claude_tui.ui.manage.routing import open_for

            if open_for(self.app, self.session, text):  # /mcp, /context, /permissions, /hooks: our screens
                self.session.save_draft(self.composer.prompt.text)
                return True
        if from_prompt and text.startswith("!") and text[1:].strip():  # bash mode: run, never sent as a prompt
            return await self.run_shell(raw, text[1:].strip())
        # The rest of Claude Code's terminal panels (/resume, /usage, /export …): our screen, or a line
        # saying what claude-tui has instead, never the CLI's "isn't available in this environment".
        if from_prompt and self.local_commands.answer(text):
            return True
        session = self.session
        if not session.alive:
            self.notify_not_running()
            return False
        if from_prompt and session.busy:  # held until the turn ends, editable till then (`PromptQueue`)
            self.queue.add(text)
            self.queued_prompts.show(self.queue.texts)
            return True
        sent = self.composer.prompt.sent_text(text)  # a large paste's placeholder -> the whole paste
        images = self.images.blocks_for(text)
        if not await session.send(sent, before=self.bash.context(), images=images):
            self.notify("Could not send: Claude Code is not accepting input. Your draft is kept.", severity="error")
            return False
        self.save_draft()  # the sent text is no draft any more
        told = self.bash.sent()
        if told:
            await self.show_changes([ItemChanged(item) for item in told])
        # Scrolling up released the anchor: take it again, so you see your prompt and the answer streaming.
        self.log_widget.anchor()
        await self.show_changes(session.prompt_sent(sent, shown=text if sent != text else None,
                                                    image_count=len(images)))
        return True

    async def run_shell(self, raw: str, command: str) -> bool:
        """`!command`: run it where the CLI runs, its output in a card; it goes to Claude with the next prompt."""
        if self.bash.running is not None:
            self.notify("A command is still running: Ctrl+C stops it. Your draft is kept.", severity="warning")
            return False
        self.session.history.add(raw.strip())
        item = ShellItem(command=command)
        changes: list[Change] = []
        self.session.conversation.main.add(item, changes)
        self.log_widget.anchor()
        await self.show_changes(changes)
        options = self.session.options
        self.bash.start(command, item, self.session.conversation.status.cwd or options.cwd, options.ssh)
        return True

    def action_paste_image(self) -> None:
        """Ctrl+V: the clipboard's image as `[Image #N]` in the prompt (read in a thread: a subprocess)."""
        if isinstance(self.screen.focused, Input):
            raise SkipAction()  # a one-line field keeps its own paste
        paste_image(self, self.composer.prompt, self.images)

    def stop_shell(self) -> bool:
        """Ctrl+C while a `!command` runs: stop it (its whole process group). False when none runs."""
        if self.bash.running is None:
            return False
        self.run_worker(self.bash.stop(), group="shell-stop", exit_on_error=False)
        return True

    @on(BashMode.Output)
    async def _shell_output(self, message: BashMode.Output) -> None:
        message.stop()
        self.bash.apply(message)
        await self.show_changes([ItemChanged(message.item)])

    async def _send_queued(self) -> None:
        if self.queue and not self.session.busy and self.session.alive:
            text = self.queue.pop_first()
            self.queued_prompts.show(self.queue.texts)
            if not await self.send_prompt(text):
                self.queue.texts.insert(0, text)  # not lost: still held, still editable
                self.queued_prompts.show(self.queue.texts)

    def take_queued(self) -> bool:
        """Up on an empty prompt: the held prompts come back into it, to edit or withdraw (False: none)."""
        if not self.queue:
            return False
        prompt = self.composer.prompt
        prompt.text = self.queue.take_before(prompt.text)
        prompt.move_cursor(prompt.document.end)
        self.queued_prompts.show([])
        return True

    def notify_not_running(self) -> None:
        """What is wrong, as the log's note says it, and how to try again."""
        why = one_line(self.session.stopped_because).rstrip(".")
        self.notify(f"Claude Code is not running: {why}. F5 tries again (the note in the log says "
                    "what to fix first); your draft is kept." if why else
                    "Claude Code is not running. Press F5 to restart it; your draft is kept.",
                    severity="error", timeout=8)

    @property
    def local_commands(self) -> LocalCommands:
        def later(job: Callable[[], Awaitable[None]]) -> Callable[[], None]:
            def run() -> None:  # an app worker, as the palette runs them: the switch replaces this view
                self.app.run_worker(job(), group="switch-session", exclusive=True, exit_on_error=False)

            return run

        return LocalCommands({
            "sessions": self.host.action_open_sessions, "usage": self.host.action_usage,
            "help": self.host.action_help, "export": self._export_said, "rewind": self.rewind_conversation,
            "vim": self.composer.prompt.toggle_vim, "copy": self.action_copy_last_answer,
            "changes": self.action_what_changed, "fork": later(self.fork_session),
            "quit": later(self._quit),
            "sidebar": self.action_toggle_sidebar, "plan": lambda: self.set_mode("plan"),
            "theme": self.app.action_change_theme,
            **{name: self._manage_opener(name) for name in ("mcp", "context", "permissions", "hooks")},
        }, lambda line: self.notify(line, timeout=8))

    def _manage_opener(self, name: str) -> Callable[[], None]:
        def open_screen() -> None:
            from claude_tui.ui.manage.routing import open_for

            open_for(self.app, self.session, f"/{name}")

        return open_screen

    def _export_said(self) -> None:
        self.export_transcript("md")

    async def _quit(self) -> None:
        await self.app.run_action("app.quit_app")

    async def send_slash(self, command: str) -> None:
        """Send `/command` the way a prompt is sent; the draft in the prompt is left alone."""
        await self.send_prompt(command)

    @on(PromptInput.Edited)
    def _edited(self) -> None:
        prompt = self.composer.prompt
        if self.history_search.active:
            return  # the prompt shows a match, not a draft: the draft is saved when the search ends
        if prompt.text == "?" and self._prompt_before == "":  # "?" on an empty prompt: the shortcuts
            prompt.text = ""
            self._prompt_before = ""
            self.toggle_shortcuts()
            return
        if prompt.text != self._prompt_before:
            self.shortcuts.hide()  # typing on folds the list; what is typed is the prompt's
            self.call_after_refresh(self.place_notifications)
        self._prompt_before = prompt.text
        bash = prompt.text.startswith("!")
        if prompt.has_class("-bash") != bash:  # only on a change: a style update repaints the prompt
            prompt.set_class(bash, "-bash")
        # Save the draft shortly after typing pauses (and always on exit).
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(0.5, self.save_draft)

    def save_draft(self) -> None:
        # With its pastes in full: a placeholder would mean nothing to the next run.
        self.session.save_draft(self.prompt.sent_text(self.prompt.text))

    def place_notifications(self) -> None:
        """Notifications sit just above the prompt, never over its border or the status bar
        (Textual docks them at the screen's bottom): their rack's bottom margin follows the prompt."""
        if not self.display or not self.is_attached:
            return
        # One row more: a toast is placed at its one-line height and then grows to its wrapped
        # one without being placed again, which took the prompt's top border.
        above = self.screen.size.height - self.composer.region.y + 1
        for rack in self.screen.query("ToastRack"):  # by name: the class lives in a private module
            if rack.styles.margin.bottom != above:
                rack.styles.margin = (0, 0, above, 0)

    def on_resize(self) -> None:
        self.call_after_refresh(self.place_notifications)

    def toggle_shortcuts(self) -> None:
        panel = self.shortcuts
        if panel.display:
            panel.hide()
        else:
            panel.show_rows(self.host.shortcut_rows(), self.size.width - 4)

    def clear_prompt(self) -> bool:
        """Ctrl+C on a draft: empty the prompt, keeping the text in the history. False if it was empty."""
        prompt = self.composer.prompt
        if not prompt.text.strip():
            return False
        self.session.history.add(prompt.text)
        prompt.text = ""
        self.save_draft()
        self.notify("Prompt cleared. Press Up to get it back.", timeout=3)
        return True

    # -- Ctrl+R: the prompt history, searched ------------------------------------------------
    def action_history_search(self) -> None:
        """Ctrl+R, as in Claude Code: search the prompts sent; again for an older match."""
        bar = self.history_search
        if bar.active:
            bar.older()
            return
        history = self.session.history
        history.reload()  # other instances' prompts too, as Up walks them
        bar.start(history.entries, self.composer.prompt.text)

    @on(HistorySearchBar.Found)
    def _history_found(self, message: HistorySearchBar.Found) -> None:
        message.stop()
        self.composer.prompt.load_text(message.text)

    @on(HistorySearchBar.Finished)
    def _history_finished(self, message: HistorySearchBar.Finished) -> None:
        message.stop()
        bar, prompt = self.history_search, self.composer.prompt
        if not message.accept:
            prompt.load_text(bar.draft)
        bar.stop()
        prompt.focus()
        prompt.move_cursor(prompt.document.end)
        self.save_draft()

    def action_clear_prompt(self) -> None:
        """Ctrl+L, as in Claude Code: empty the prompt (the text stays in the history)."""
        self.clear_prompt()

    def prompt_is_empty(self) -> bool:
        return not self.composer.prompt.text

    def interrupt_turn(self) -> bool:
        """Ctrl+C while a turn runs: interrupt it, as Esc does (the draft stays). False when idle."""
        if not (self.session.busy and self.session.alive):
            return False
        self._control(self.session.interrupt, "Interrupt failed")
        return True

    def on_key(self, event: events.Key) -> None:
        self.typeahead.on_key(event)  # typing where nothing takes text goes to the prompt

    @on(TypeaheadRouter.Drained)
    def _drained(self, message: TypeaheadRouter.Drained) -> None:
        message.stop()
        self.typeahead.drained()

    # -- control requests -------------------------------------------------------------------
    # They run in workers: awaiting one in a handler would stall this view's message queue
    # (and the stream) for as long as the CLI takes to answer.
    def _control(self, request: Callable[[], Awaitable[None]], failure: str) -> None:
        async def run() -> None:
            try:
                await request()
            except Exception as error:  # noqa: BLE001 - shown, never raised
                self.notify(f"{failure}: {error}", severity="error")
                return
            self.status_bar.show(self.session.conversation.status)

        self.run_worker(run(), group="control", exit_on_error=False)

    def action_interrupt(self) -> None:
        composer = self.composer
        if self.shortcuts.display:
            self.shortcuts.hide()
            return
        if composer.menu.display:
            self._escape.reset()
            composer.menu.close()
            return
        focused = self.screen.focused
        if focused is not composer.prompt and not isinstance(focused, Input):
            composer.prompt.focus()  # Esc always brings you back to the prompt
        if not self.session.busy or not self.session.alive:
            # Esc Esc on an empty prompt, with no turn to interrupt: rewind, as in Claude Code.
            if composer.prompt.text.strip():
                self._escape.reset()
            elif self._escape.press():
                open_rewind(self, quiet=True)
            return
        self._escape.reset()
        # What was held for the turn's end comes back to the prompt rather than going out the
        # moment the interrupt ends the turn (issue 27).
        self.take_queued()
        self._control(self.session.interrupt, "Interrupt failed")

    def action_cycle_mode(self) -> None:
        self.set_mode(next_mode(self.session.conversation.status, bypass_allowed(self.session.options)))

    def set_mode(self, mode: str) -> None:
        self._control(lambda: self.session.set_mode(mode), f"Could not switch to {mode}")

    def set_model(self, model: str) -> None:
        self._control(lambda: self.session.set_model(model), "Could not switch model")

    @on(TaskSidebar.AgentSelected)
    def _open_agent_transcript(self, message: TaskSidebar.AgentSelected) -> None:
        self.agent_transcripts.open(self.app, message.tool_use_id, on_stop=message.sidebar.request_stop)

    @on(TaskSidebar.StopRequested)
    def _stop_task(self, message: TaskSidebar.StopRequested) -> None:
        self._control(lambda: self.session.stop_task(message.task_id), "Could not stop the task")

    # -- restart and other sessions ------------------------------------------------------------
    def action_restart(self) -> None:
        if self.session.busy and self.session.alive:  # a restart stops the turn: ask, as quitting does
            from claude_tui.ui.dialogs.confirm import ConfirmScreen
            from claude_tui.ui.kit.screen_once import opened_before

            question = "A turn is still running. Restart Claude Code and stop it?"
            if not opened_before(self.app, ConfirmScreen, where=lambda asked: asked.question == question):
                self.app.push_screen(ConfirmScreen(question, yes="Restart", no="Keep working"),
                                     self._restart_confirmed)
            return
        self._restart_confirmed(True)

    def _restart_confirmed(self, confirmed: bool | None) -> None:
        # In a worker: closing the old CLI can take seconds (interrupt, EOF, SIGTERM), and the keys
        # typed meanwhile must reach the prompt rather than wait behind this handler.
        if confirmed:
            self.run_worker(self.restart(), group="restart", exclusive=True, exit_on_error=False)

    async def restart(self) -> None:
        """Restart the CLI in the same session (`--resume`), keeping transcript and draft."""
        await self.show_changes(await self.session.stop_for_restart())
        await self.show_changes(self.session.start_again())

    async def new_session(self) -> None:
        """A fresh session in this tab (its CLI restarted without --resume), an empty log."""
        await self.host.open_session(fresh_options(self.session.options))

    async def fork_session(self) -> None:
        """This session's history as a new session (--resume <id> --fork-session), in this tab."""
        session_id = self.session.conversation.status.session_id
        if not session_id:
            self.notify("Nothing to fork yet: the session has no id.", severity="warning")
            return
        await self.host.fork_session(self.session.conversation, session_id, self.session.options)

    def action_open_sessions(self) -> None:
        self.host.action_open_sessions()

    def action_toggle_split_diffs(self) -> None:
        self.host.action_toggle_split_diffs()

    # -- the log ------------------------------------------------------------------------------------
    def action_page(self, direction: int) -> None:
        """PageUp/PageDown scroll the conversation from anywhere (the prompt included)."""
        if direction < 0:
            self.log_widget.scroll_page_up(animate=False)
        else:
            self.log_widget.scroll_page_down(animate=False)

    def action_toggle_last_tool(self) -> None:
        """Ctrl+E: expand or collapse the newest tool card (its input and output)."""
        from claude_tui.ui.log.tool_card import ToolCard

        if self._take_chord():
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
        self._take_chord()  # Ctrl+X Ctrl+B is the same in Claude Code
        self.notify("Ctrl+B cannot background a command here: Claude Code takes that only from its own "
                    "terminal UI. Ask Claude to run it with run_in_background instead.", timeout=6)

    # -- Ctrl+G, Ctrl+X Ctrl+E: the prompt in $VISUAL / $EDITOR ---------------------------------
    def action_chord_prefix(self) -> None:
        prompt = self.composer.prompt
        focused = self.screen.focused
        if isinstance(focused, Input) or (focused is prompt and prompt.selected_text):
            raise SkipAction()  # cut, as the field's own Ctrl+X
        self._chord_at = time.monotonic()

    def _take_chord(self) -> bool:
        """Whether Ctrl+X came just before this key (and is used up by it)."""
        at, self._chord_at = self._chord_at, None
        return at is not None and time.monotonic() - at <= CHORD_SECONDS

    def action_external_editor(self) -> None:
        """Ctrl+G, as in Claude Code: the terminal goes to the editor, the edited text comes back
        into the prompt; nothing is lost when the editor fails or is killed."""
        from textual.app import SuspendNotSupported

        from claude_tui.external_editor import edit_text, editor_command

        command = editor_command()
        if command is None:
            self.notify("Set $VISUAL or $EDITOR to edit the prompt in your editor.", severity="warning")
            return
        prompt = self.composer.prompt
        before = prompt.text
        try:
            with self.app.suspend():
                edited = edit_text(before, command)
        except SuspendNotSupported:
            self.notify("This terminal cannot be handed to an editor.", severity="warning")
            return
        if edited.text is None:
            self.notify(edited.problem, severity="warning", timeout=6)
            return
        if prompt.text != before:
            self.notify("The prompt changed while the editor ran; it is kept.", severity="warning")
            return
        prompt.load_text(edited.text)
        prompt.move_cursor(prompt.document.end)
        prompt.focus()
        self.save_draft()

    def action_toggle_sidebar(self) -> None:
        self.sidebar.toggle()

    def action_focus_sidebar(self) -> None:
        if not self.sidebar.display:
            self.sidebar.toggle()
        self.sidebar.focus()

    def action_toggle_thinking(self) -> None:
        from claude_tui.ui.log.items import ThinkingBlock

        blocks = self.query(ThinkingBlock)
        if blocks:
            blocks.last().toggle()  # the latest: blocks cannot take focus, so there is no "this one"

    def action_what_changed(self) -> None:
        from claude_tui.ui.kit.screen_once import opened_before
        from claude_tui.ui.panels.changes_panel import ChangesScreen

        if opened_before(self.app, ChangesScreen):
            return
        conversation = self.session.conversation
        self.app.push_screen(ChangesScreen(conversation.changes, root=conversation.status.cwd
                                           or self.session.options.cwd))

    def action_copy_last_answer(self) -> None:
        self.copier.last_answer()

    def export_transcript(self, fmt: str = "md") -> Path | None:
        return export_transcript(self.app, self.session.conversation, self.session.options.cwd, fmt)

    # -- find and select ---------------------------------------------------------------------------
    def action_find(self) -> None:
        self.navigator.find()

    def action_find_next(self) -> None:
        self.navigator.find_next()

    def find_at(self, query: str, turn: int | None = None) -> None:
        self.navigator.find_at(query, turn)

    def action_select_messages(self) -> None:
        self.navigator.select()

    @on(FindBar.Moved)
    async def _find_moved(self, message: FindBar.Moved) -> None:
        await self.navigator.reveal_item(message.item_id, FIND_CLASS, message.bar.find_text)

    @on(FindBar.Narrowed)
    def _find_narrowed(self, message: FindBar.Narrowed) -> None:
        self.navigator.narrowed(message.item_id, message.bar.find_text)

    @on(FindBar.Closed)
    async def _find_closed(self) -> None:
        await self.navigator.reveal_item(None, FIND_CLASS)
        self.composer.prompt.focus()

    @on(SelectBar.Moved)
    async def _select_moved(self, message: SelectBar.Moved) -> None:
        await self.navigator.reveal_item(message.item_id, SELECT_CLASS)

    @on(SelectBar.CopyRequested)
    def _select_copy(self, message: SelectBar.CopyRequested) -> None:
        self.copier.item(message.item_id, message.what)

    @on(SelectBar.RewindRequested)
    def _select_rewind(self, message: SelectBar.RewindRequested) -> None:
        item = item_by_id(self.session.conversation, message.item_id)
        if not isinstance(item, UserItem):
            self.notify("Select one of your prompts to rewind to before it.", severity="warning")
            return
        open_rewind(self, item)

    def rewind_conversation(self) -> None:
        """Esc Esc, `/rewind`, the palette: the list of prompts to go back to (`ui/chat/rewind_conversation.py`)."""
        open_rewind(self)

    def put_back_prompt(self, text: str) -> None:
        """A rewound prompt's text comes back to edit; a draft it replaces stays in the history (Up)."""
        prompt = self.composer.prompt
        if prompt.text.strip() and prompt.text.strip() != text.strip():
            self.session.history.add(prompt.text)
        prompt.text = text
        prompt.move_cursor(prompt.document.end)
        prompt.focus()
        self.save_draft()

    @on(SelectBar.Closed)
    async def _select_closed(self) -> None:
        await self.navigator.reveal_item(None, SELECT_CLASS)
        self.composer.prompt.focus()

    def rewind_last_prompt(self) -> None:
        self.rewind_to(last_rewindable_prompt(self.session.conversation))

    def rewind_to(self, item: UserItem | None) -> None:
        start_rewind(self, self.session, item, self.show_changes, self.navigator.close_selection)
