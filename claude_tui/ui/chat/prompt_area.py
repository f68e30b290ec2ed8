"""The prompt and the rows around it: what is sent, and what is held for the turn's end.

From the top: the prompts held while a turn runs (`QueuedPrompts`), the find and select bars
(`LogNavigator`), the prompt (`Composer`), the user's `statusLine`, Ctrl+R's history search and
`?`'s shortcuts. The prompt's messages (Enter, an edit, @-files wanted), the history search's and
a `!command`'s output come here first: this sends a prompt, holds it until the turn ends
(`PromptQueue`), runs a `!command` (`BashMode`), routes a slash command claude-tui answers
itself, and keeps the draft.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.notifications import SeverityLevel
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from claude_tui.attachments import ImageSlots
from claude_tui.completion import project_files
from claude_tui.history.paths import cli_config_root
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.changes import Change, ItemChanged
from claude_tui.session.items import ShellItem, UserItem
from claude_tui.status_line import model_display_name, status_input
from claude_tui.ui.chat.bash_mode import BashMode
from claude_tui.ui.chat.double_press import DoublePress
from claude_tui.ui.chat.editor_round_trip import edit_prompt
from claude_tui.ui.chat.host import ChatHost
from claude_tui.ui.chat.image_paste import paste_image
from claude_tui.ui.chat.log_navigator import LogNavigator
from claude_tui.ui.chat.prompt_queue import PromptQueue
from claude_tui.ui.chat.session import ChatSession
from claude_tui.ui.chat.transcript_tools import Copier
from claude_tui.ui.chat.user_status import UserStatusLine, transcript_path
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.panels.composer import Composer
from claude_tui.ui.panels.history_search import HistorySearchBar
from claude_tui.ui.panels.prompt_input import PromptInput
from claude_tui.ui.panels.queued_prompts import QueuedPrompts
from claude_tui.ui.panels.shortcuts import ShortcutsPanel

Draw = Callable[[list[Any]], Awaitable[None]]


class PromptArea(Vertical):
    DEFAULT_CSS = """
    PromptArea {
        height: auto;
    }
    """

    def __init__(self, session: ChatSession, host: ChatHost, tab: Widget, log: ChatLog, copier: Copier, *,
                 draw: Draw, answer_local: Callable[[str], bool], rewind: Callable[[UserItem], None],
                 rewind_quietly: Callable[[], None]) -> None:
        super().__init__(id="prompt-area")
        self.session = session
        self.host = host
        self.tab = tab
        """The tab's view: its notices name the tab when it is in the background."""
        self.chat_log = log
        self.draw = draw
        """The view's drawing of what changed (`ChatView.show_changes`)."""
        self.answer_local = answer_local
        """A slash command claude-tui answers itself: True when `text` was one (`LocalCommands.answer`)."""
        self.composer = Composer(history=session.history, id="composer",
                                 project_root=Path(session.options.cwd or ".").resolve(),
                                 can_send=lambda: self.session.alive, take_queued=self.take_queued)
        self.prompt: PromptInput = self.composer.prompt
        self.queue = PromptQueue()
        self.queued_prompts = QueuedPrompts(id="queued-prompts")
        self.navigator = LogNavigator(log, session.conversation, self.prompt, copier, rewind)
        self.bash = BashMode(self)
        self.images = ImageSlots()
        self.user_status = UserStatusLine.for_session(
            session.options, lambda line: self.notify(line, severity="warning", timeout=8))
        self._opened_at = time.monotonic()  # a status line's total_duration_ms counts from here
        self.history_search = HistorySearchBar(id="history-search")
        self.shortcuts = ShortcutsPanel(id="shortcuts")
        self.draft_loaded = False
        self.restored_draft = ""
        """The draft put back at mount, while it stands untouched (see `set_aside_restored_draft`)."""
        """Whether the tab's draft came into the prompt (until then, the prompt's text is no draft)."""
        self.rewind_quietly = rewind_quietly
        """Esc Esc: the list of prompts to go back to (nothing, not a notice, when there is none)."""
        self._draft_timer: Timer | None = None
        self._prompt_before = ""
        self._escape = DoublePress()

    def compose(self) -> ComposeResult:
        yield self.queued_prompts
        yield self.navigator
        yield self.composer
        if self.user_status is not None:
            yield self.user_status
        yield self.history_search
        yield self.shortcuts

    def on_mount(self) -> None:
        prompt = self.prompt
        prompt.set_vim(self.host.config.vim_mode)
        draft = self.session.drafts.load()
        if draft:
            prompt.text = draft
            prompt.move_cursor(prompt.document.end)
        self.restored_draft = draft or ""
        self.draft_loaded = True
        prompt.focus()

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Through the tab's view, which names the tab when it is in the background."""
        self.tab.notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    async def shutdown(self) -> str | None:
        """Stop a `!command` still running; the draft to keep (None: the draft was never loaded)."""
        await self.bash.stop()
        # Prompts still held for the turn's end are kept with the draft: nothing typed is lost.
        return self.prompt.sent_text(self.queue.take_before(self.prompt.text)) if self.draft_loaded else None

    # -- sending ---------------------------------------------------------------------------------
    @on(PromptInput.Submitted)
    async def _submit(self, message: PromptInput.Submitted) -> None:
        message.stop()
        if not message.taken:  # the prompt kept it: say why
            self.notify_not_running()
            return
        if not await self.send_prompt(message.text, from_prompt=True):
            self.prompt.give_back(message.text)
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
                self.session.save_draft(self.prompt.text)
                return True
        if from_prompt and text.startswith("!") and text[1:].strip():  # bash mode: run, never sent as a prompt
            return await self.run_shell(raw, text[1:].strip())
        # The rest of Claude Code's terminal panels (/resume, /usage, /export …): our screen, or a line
        # saying what claude-tui has instead, never the CLI's "isn't available in this environment".
        if from_prompt and self.answer_local(text):
            return True
        session = self.session
        if not session.alive:
            self.notify_not_running()
            return False
        if from_prompt and session.busy:  # held until the turn ends, editable till then (`PromptQueue`)
            self.queue.add(text)
            self.queued_prompts.show(self.queue.texts)
            return True
        sent = self.prompt.sent_text(text)  # a large paste's placeholder -> the whole paste
        images = self.images.blocks_for(text)
        if not await session.send(sent, before=self.bash.context(), images=images):
            self.notify("Could not send: Claude Code is not accepting input. Your draft is kept.", severity="error")
            return False
        self.save_draft()  # the sent text is no draft any more
        told = self.bash.sent()
        if told:
            await self.draw([ItemChanged(item) for item in told])
        # Scrolling up released the anchor: take it again, so you see your prompt and the answer streaming.
        self.chat_log.anchor()
        await self.draw(session.prompt_sent(sent, shown=text if sent != text else None, image_count=len(images)))
        return True

    async def send_slash(self, command: str) -> None:
        """Send `/command` the way a prompt is sent; the draft in the prompt is left alone."""
        await self.send_prompt(command)

    def notify_not_running(self) -> None:
        """What is wrong, as the log's note says it, and how to try again."""
        why = one_line(self.session.stopped_because).rstrip(".")
        self.notify(f"Claude Code is not running: {why}. F5 tries again (the note in the log says "
                    "what to fix first); your draft is kept." if why else
                    "Claude Code is not running. Press F5 to restart it; your draft is kept.",
                    severity="error", timeout=8)

    # -- held for the turn's end -------------------------------------------------------------------
    def turn_may_be_over(self) -> None:
        """After a draw: once the turn is over, what was held for it goes."""
        if self.queue and not self.session.busy and self.session.alive:
            self.call_later(self._send_queued)

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
        prompt = self.prompt
        prompt.text = self.queue.take_before(prompt.text)
        prompt.move_cursor(prompt.document.end)
        self.queued_prompts.show([])
        return True

    # -- `!command` ---------------------------------------------------------------------------------
    async def run_shell(self, raw: str, command: str) -> bool:
        """`!command`: run it where the CLI runs, its output in a card; it goes to Claude with the next prompt."""
        if self.bash.running is not None:
            self.notify("A command is still running: Ctrl+C stops it. Your draft is kept.", severity="warning")
            return False
        self.session.history.add(raw.strip())
        item = ShellItem(command=command)
        changes: list[Change] = []
        self.session.conversation.main.add(item, changes)
        self.chat_log.anchor()
        await self.draw(changes)
        options = self.session.options
        self.bash.start(command, item, self.session.conversation.status.cwd or options.cwd, options.ssh)
        return True

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
        await self.draw([ItemChanged(message.item)])

    # -- Esc ------------------------------------------------------------------------------------------
    def escape(self, turn_runs: bool) -> bool:
        """Esc at the chat: the shortcuts fold, or the menu closes, or the keys come back to the prompt;
        with no turn to interrupt, Esc Esc on an empty prompt rewinds, as in Claude Code. False: the
        Esc is left to interrupt the turn."""
        composer = self.composer
        if self.shortcuts.display:
            self.shortcuts.hide()
            return True
        if composer.menu.display:
            self._escape.reset()
            composer.menu.close()
            return True
        focused = self.screen.focused
        if focused is not self.prompt and not isinstance(focused, Input):
            self.prompt.focus()  # Esc always brings you back to the prompt
        if not turn_runs:
            if self.prompt.text.strip():
                self._escape.reset()
            elif self._escape.press():
                self.rewind_quietly()
            return True
        self._escape.reset()
        return False

    # -- the draft ------------------------------------------------------------------------------------
    @on(PromptInput.Edited)
    def _edited(self) -> None:
        prompt = self.prompt
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
            # Said in words too, as Claude Code's "! for bash mode" is (a colour alone is easy to miss).
            prompt.border_title = "! bash mode: runs in a shell here; its output goes with your next prompt" if bash \
                else ""
        # Save the draft shortly after typing pauses (and always on exit).
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(0.5, self.save_draft)

    def save_draft(self) -> None:
        # With its pastes in full: a placeholder would mean nothing to the next run.
        self.session.save_draft(self.prompt.sent_text(self.prompt.text))

    def prompt_is_empty(self) -> bool:
        return not self.prompt.text

    def set_aside_restored_draft(self) -> None:
        """Keys typed before the prompt was on screen are a new prompt, not more of a draft the user
        has not seen yet: the draft restored from the last run goes to the history (Up brings it back)."""
        draft, self.restored_draft = self.restored_draft, ""
        if draft and self.prompt.text == draft:
            self._to_history("Your unsent draft from last time is in the history: press Up to get it back.", 6)

    def clear_prompt(self) -> bool:
        """Ctrl+C / Ctrl+L on a draft: empty the prompt, keeping the text in the history. False if it was empty."""
        if not self.prompt.text.strip():
            return False
        self._to_history("Prompt cleared. Press Up to get it back.", 3)
        return True

    def _to_history(self, notice: str, timeout: float) -> None:
        """The prompt's text goes to the history (Up brings it back) and the prompt is emptied."""
        self.session.history.add(self.prompt.text)
        self.prompt.text = ""
        self.save_draft()
        self.notify(notice, timeout=timeout)

    def put_back_prompt(self, text: str) -> None:
        """A rewound prompt's text comes back to edit; a draft it replaces stays in the history (Up)."""
        prompt = self.prompt
        if prompt.text.strip() and prompt.text.strip() != text.strip():
            self.session.history.add(prompt.text)
        prompt.text = text
        prompt.move_cursor(prompt.document.end)
        prompt.focus()
        self.save_draft()

    # -- @-files --------------------------------------------------------------------------------------
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

    # -- Ctrl+R: the prompt history, searched --------------------------------------------------------
    def history_search_key(self) -> None:
        """Ctrl+R, as in Claude Code: search the prompts sent; again for an older match."""
        bar = self.history_search
        if bar.active:
            bar.older()
            return
        history = self.session.history
        history.reload()  # other instances' prompts too, as Up walks them
        bar.start(history.entries, self.prompt.text)

    @on(HistorySearchBar.Found)
    def _history_found(self, message: HistorySearchBar.Found) -> None:
        message.stop()
        self.prompt.load_text(message.text)

    @on(HistorySearchBar.Finished)
    def _history_finished(self, message: HistorySearchBar.Finished) -> None:
        message.stop()
        bar, prompt = self.history_search, self.prompt
        if not message.accept:
            prompt.load_text(bar.draft)
        bar.stop()
        prompt.focus()
        prompt.move_cursor(prompt.document.end)
        self.save_draft()

    # -- Ctrl+V, Ctrl+G ---------------------------------------------------------------------------------
    def paste_image(self) -> None:
        """Ctrl+V: the clipboard's image as `[Image #N]` in the prompt (read in a thread: a subprocess)."""
        if isinstance(self.screen.focused, Input):
            raise SkipAction()  # a one-line field keeps its own paste
        paste_image(self, self.prompt, self.images)

    def external_editor(self) -> None:
        """Ctrl+G: the prompt in $VISUAL / $EDITOR (`editor_round_trip.py`)."""
        if edit_prompt(self, self.prompt):
            self.save_draft()

    # -- the rows around the prompt ----------------------------------------------------------------------
    def toggle_shortcuts(self) -> None:
        panel = self.shortcuts
        if panel.display:
            panel.hide()
        else:
            panel.show_rows(self.host.shortcut_rows(), self.size.width - 4)

    def place_notifications(self) -> None:
        """Notifications sit just above the prompt, never over its border or the status bar
        (Textual docks them at the screen's bottom): their rack's bottom margin follows the prompt."""
        if not self.tab.display or not self.is_attached:
            return
        # One row more: a toast is placed at its one-line height and then grows to its wrapped
        # one without being placed again, which took the prompt's top border.
        above = self.screen.size.height - self.composer.region.y + 1
        for rack in self.screen.query("ToastRack"):  # by name: the class lives in a private module
            if rack.styles.margin.bottom != above:
                rack.styles.margin = (0, 0, above, 0)

    def refresh_user_status(self) -> None:
        if self.user_status is None:
            return
        conversation, options = self.session.conversation, self.session.options
        status = conversation.status
        project = str(Path(options.cwd or ".").resolve())
        vim = self.prompt.vim
        self.user_status.changed(status_input(
            status, project=project,
            transcript=transcript_path(cli_config_root(options.env), status.cwd or project, status.session_id),
            model_name=model_display_name(conversation.models, status.model),
            duration_ms=(time.monotonic() - self._opened_at) * 1000,
            vim_mode=vim.mode.upper() if vim is not None else None, session_name=self.session.name or None))
