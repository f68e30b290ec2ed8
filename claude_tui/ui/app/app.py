"""The Textual application: screens, config, notifications and clean shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.actions import SkipAction
from textual.app import App, SystemCommand
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, TextArea

from claude_tui import __version__
from claude_tui.config import Config
from claude_tui.git.worktree import Worktree
from claude_tui.protocol.sanitize import clipboard_text, one_line, printable
from claude_tui.session.changes import TurnEnded
from claude_tui.session.conversation import Conversation
from claude_tui.transport.options import CliOptions
from claude_tui.transport.reaper import kill_all_children
from claude_tui.ui.app import narrow_spans
from claude_tui.ui.app.bindings import APP_BINDINGS
from claude_tui.ui.app.shutdown import EARLY_SIGNALS, EXIT_BUDGET, SIGNAL_BUDGET, StopSignals, Watchdog, terminal_gone
from claude_tui.ui.chat.app_host import register_app_host
from claude_tui.ui.chat.session import ChatSession, fresh_options
from claude_tui.ui.chat.view import ChatView
from claude_tui.ui.dialogs.base import GuardedModal
from claude_tui.ui.kit.app_config import use_config
from claude_tui.ui.kit.attention import request_attention
from claude_tui.ui.kit.inert import TerminalSafe
from claude_tui.ui.kit.keyboard import note_key
from claude_tui.ui.kit.keys_in_order import hand_to_field
from claude_tui.ui.kit.modes import bypass_allowed
from claude_tui.ui.kit.screen_once import opened_before
from claude_tui.ui.window.screen import ChatScreen

if TYPE_CHECKING:
    from textual.command import Provider

    from claude_tui.history.index import SessionRow
    from claude_tui.ui.browser.screen import BrowserChoice, SessionBrowserScreen
    from claude_tui.ui.render.diff_view import DiffView


def _tune_gc() -> None:
    """Keep garbage collection out of the way of streaming.

    With thousands of live widgets and protocol models, CPython's default
    generational collections pause the event loop for 60-150 ms several times a
    minute while tokens stream (benchmarks/stream.py: p99 lag ~100 ms -> ~30 ms).
    Objects alive after start-up are frozen out of collection, and the young
    generation is collected less often; reference counting still frees almost
    everything immediately. The launcher holds collection off until here (`launch.run_app`).
    """
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
    gc.enable()


# The palette's providers, loaded when the palette first opens (Textual takes a callable that returns
# one): with the session index, the manage screens' requests and the remote hosts behind them they
# were ~40 ms of the ~0.45 s of imports before the first paint (`tests/unit/test_startup_imports.py`).
def _chat_commands() -> type[Provider]:
    from claude_tui.ui.palette.commands import ChatCommands

    return ChatCommands


def _session_commands() -> type[Provider]:
    from claude_tui.ui.palette.sessions import SessionCommands

    return SessionCommands


def _host_commands() -> type[Provider]:
    from claude_tui.ui.palette.hosts import HostCommands

    return HostCommands


QUIT_AGAIN_SECONDS = 2.0
"""At idle, a second Ctrl+C on an empty prompt within this many seconds quits."""


EARLY_KEYS_MAX = 10_000
"""Keys held before the first screen takes them; past this, they go on as Textual would send them."""
EARLY_KEYS_WAIT = 10.0


class ClaudeTuiApp(App[None]):
    TITLE = "claude-tui"
    CSS_PATH = str(Path(__file__).with_name("app.tcss"))
    """Theme rules only: widgets carry their layout (DEFAULT_CSS), each screen its own file (CSS_PATH).
    Absolute: Textual resolves a relative path beside the subclass's module (tests subclass the app)."""
    BINDINGS = APP_BINDINGS
    COMMANDS = App.COMMANDS | {_chat_commands, _session_commands, _host_commands}

    diff_split: reactive[bool | None] = reactive(None, init=False)
    """Split/unified for every diff (palette: toggle split diffs); None: by width. Diff views watch it."""

    def __init__(self, options: CliOptions, config: Config | None = None, *, debug_log: Path | None = None,
                 conversation: Conversation | None = None, open_browser: bool = False,
                 worktree: Worktree | None = None, first_prompt: str | None = None) -> None:
        super().__init__()
        self.launch_options = options
        """What the first session started with (`--worktree`, `--ssh` …); Ctrl+N starts from the active one's."""
        self.config = config or Config()
        use_config(self, self.config)
        self.debug_log = debug_log
        self.initial_conversation = conversation
        self.open_browser = open_browser
        self.first_prompt = first_prompt
        """`claude-tui "fix the bug"`: sent by the first chat as soon as it is up, as if typed."""
        self.is_quitting = False
        self.watchdog: Watchdog | None = None
        """Set by `launch.run_app` for a run in a real terminal: forces the exit if shutdown hangs."""
        self.worktrees: list[Worktree] = [worktree] if worktree is not None else []
        """Worktrees created by this run (--worktree, the palette): offered for removal on quit."""
        self.resume_hint: list[str] = []
        """Printed once the terminal is back (`launch.run_app`): how to resume the tabs' sessions."""
        self._ctrl_c_at: float | None = None
        self._early_keys: list[events.Key] | None = []
        """Keys that came before anything could take them (the first screen still mounting): replayed,
        in order, into the prompt once it has focus. None once that moment has passed."""
        self._early_timer: Timer | None = None
        self.version = __version__
        self.terminal_safe = TerminalSafe()
        """The render-boundary filter every widget's lines pass through (see `claude_tui.ui.kit.inert`)."""
        self.startup_warnings: list[str] = []
        from claude_tui.ui.app.state import apply_startup_theme, load_state

        split = load_state().get("split_diffs")
        self.set_reactive(ClaudeTuiApp.diff_split, split if isinstance(split, bool) else None)
        apply_startup_theme(self)
        register_app_host(self)

    @property
    def options(self) -> CliOptions:
        """The active session's options (its directory, machine, mode, model); the launch options before one."""
        chat = self.chat
        return chat.session.options if chat is not None else self.launch_options

    @property
    def bypass_allowed(self) -> bool:
        return bypass_allowed(self.options)

    @property
    def chat_screen(self) -> ChatScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, ChatScreen):
                return screen
        return None

    @property
    def chat(self) -> ChatView | None:
        """The active tab's view: what the palette, help and Ctrl+C act on."""
        screen = self.chat_screen
        return screen.active_view if screen is not None and screen.is_attached else None

    @property
    def sessions(self) -> list[ChatSession]:
        """Every open session, in tab order."""
        screen = self.chat_screen
        return [view.session for view in screen.views] if screen is not None and screen.is_attached else []

    def worktree_for(self, cwd: str | Path | None) -> Worktree | None:
        """The worktree (created by this run) a session in `cwd` runs in, if any."""
        return next((wt for wt in self.worktrees if cwd and wt.contains(cwd)), None)

    async def open_session(self, options: CliOptions, conversation: Conversation | None = None, *,
                           new_tab: bool = False) -> None:
        """The one way a session opens: the first, Ctrl+N, a resumed or forked one, a worktree.

        `new_tab`: beside the others; else in place of the active tab, whose CLI is closed first.
        The screens above the chat (help, what-changed, a dialog of the CLI that ends) go with it.
        """
        screen = self.chat_screen
        old = screen.active_view if screen is not None else None
        session = ChatSession(options, conversation, self.debug_log)
        if screen is None:
            await self.push_screen(ChatScreen(self, session))
            return
        while self.screen is not screen:
            await self.pop_screen()
        if new_tab or old is None:
            await screen.add_tab(session)
            return
        await old.shutdown()
        await screen.replace_tab(old, session)

    async def fork_session(self, conversation: Conversation, session_id: str, base: CliOptions, *,
                           new_tab: bool = False, cwd: str | None = None) -> None:
        """Continue `session_id` as a new session (--resume ID --fork-session), its history shown."""
        from claude_tui.resume import begin_fork

        begin_fork(conversation, session_id)
        await self.open_session(fresh_options(base, resume=session_id, fork=True, cwd=cwd), conversation,
                                new_tab=new_tab)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and self._early_keys is not None:
            # Launch and type at once, as everyone does: keys that come before the prompt exists
            # would go to no widget and be lost. Held, then replayed in order (Claude Code keeps them too).
            if not self._takes_text() and len(self._early_keys) < EARLY_KEYS_MAX:
                self._early_keys.append(event)
                return
            await self._replay_early_keys()
        # Every key and paste passes here first, wherever it goes next: a dialog that appears reads
        # when the last one came to tell whether the user is typing (`GuardedModal`, one key answers).
        if isinstance(event, events.Key):
            note_key(self, GuardedModal.clock(), event.key)
        elif isinstance(event, events.Paste):
            note_key(self, GuardedModal.clock(), "paste")
        # Textual's own text fields (the palette's search box) take a burst in order too: see
        # `widgets/keys_in_order.py` (ours run their bindings in order themselves).
        if isinstance(event, events.Key) and hand_to_field(self, event):
            return
        await super().on_event(event)

    async def _replay_early_keys(self) -> None:
        """Polled from mount until a text field has focus (the prompt, or the browser's filter), then
        never again; after EARLY_KEYS_WAIT seconds without focus the keys go on as they are."""
        if self._early_keys is None:
            return
        if not self._takes_text() and time.monotonic() - self._mounted_at < EARLY_KEYS_WAIT:
            return
        keys, self._early_keys = self._early_keys, None
        if self._early_timer is not None:
            self._early_timer.stop()
        chat = self.chat
        if chat is not None and any(key.is_printable for key in keys):
            chat.prompt_area.set_aside_restored_draft()
        for key in keys:
            if key.key == "ctrl+j":  # Enter typed before the terminal left cooked mode came as a line feed
                key = events.Key("enter", "\r")
            await self.on_event(events.Key(key.key, key.character))

    def _takes_text(self) -> bool:
        """A text field has focus (the prompt, the browser's filter): until then keys are held (the
        first focus Textual gives is the log's, before the prompt takes it)."""
        return isinstance(self.focused, (TextArea, Input))

    def on_mount(self) -> None:
        self._mounted_at = time.monotonic()
        self._early_timer = self.set_interval(0.02, self._replay_early_keys, name="early keys")
        self._install_signal_handlers()
        _tune_gc()
        from claude_tui.ui.app.keymap import apply_user_keymap
        from claude_tui.ui.app.state import ThemeMemory

        ThemeMemory(self).start()
        apply_user_keymap(self, self.config.keymap)
        for warning in self.startup_warnings:
            self.notify(warning, title="Config", severity="warning", timeout=10)
        if self.open_browser:
            # `--resume` without an id: pick a session first; closing the browser starts a new one.
            self.push_screen(self.session_browser(), self._first_choice)
            return
        self.push_screen(ChatScreen(self, ChatSession(self.launch_options, self.initial_conversation,
                                                      self.debug_log)))
        if self.first_prompt:
            self.call_after_refresh(self._send_first_prompt)

    async def _send_first_prompt(self, tries: int = 40) -> None:
        chat, text = self.chat, self.first_prompt
        if chat is None and tries:  # the chat screen is still mounting
            self.set_timer(0.05, partial(self._send_first_prompt, tries - 1))
            return
        self.first_prompt = None
        if chat is not None and text and not await chat.prompt_area.send_prompt(text, from_prompt=True):
            chat.prompt_area.prompt.give_back(text)  # it could not go: it waits in the prompt, never lost

    def _first_choice(self, choice: BrowserChoice | None) -> None:
        if choice is None:
            self.push_screen(ChatScreen(self, ChatSession(self.launch_options, None, self.debug_log)))
        else:
            self._load_choice(choice)
        if self.first_prompt:  # `claude-tui -r "" "go on"`: to the session chosen
            self.call_after_refresh(self._send_first_prompt)

    def _install_signal_handlers(self) -> None:
        """SIGTERM/SIGHUP/SIGINT stop the CLI cleanly, then the app (`ui.shutdown`). Only for a real
        run (`launch.run_app` sets the watchdog): under tests the runner owns the signals."""
        if self.watchdog is None:
            return
        loop = asyncio.get_running_loop()
        stop = StopSignals(self.watchdog, lambda signum: loop.call_soon_threadsafe(self.stop_for_signal, signum))
        stop.install()
        if EARLY_SIGNALS.received is not None:  # it came while the app was starting: stop now
            stop.handle(EARLY_SIGNALS.received)

    def stop_for_signal(self, signum: int) -> None:
        self.run_worker(self._stop_for_signal(signum), group="quit", exclusive=True)

    async def _stop_for_signal(self, signum: int) -> None:
        # The CLI gets its interrupt, EOF and grace (chat.shutdown); the watchdog, armed by the
        # handler, bounds all of it.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.shutdown(), SIGNAL_BUDGET - EXIT_BUDGET)
        kill_all_children()  # what the clean stop could not end (no-op when it did)
        if self.watchdog is not None and terminal_gone():
            # Nothing left to draw or restore, and Textual's shutdown would write to a dead terminal
            # (its output thread dies on the first EIO and the shutdown waits for it for good).
            self.watchdog.arm(0, 128 + signum, "the stop after the terminal closed")
            return
        self.exit(return_code=128 + signum)

    def exit(self, result: None = None, return_code: int = 0, message: Any = None) -> None:
        if self.watchdog is not None:
            # Our own stop already closed the CLI: only Textual's shutdown is left. Otherwise the
            # chat closes it on unmount, with its grace.
            budget = EXIT_BUDGET if self.is_quitting else SIGNAL_BUDGET
            self.watchdog.arm(budget, return_code, "Textual's shutdown")
        super().exit(result, return_code, message)

    def panic(self, *renderables: Any) -> None:
        if self.watchdog is not None:
            self.watchdog.arm(SIGNAL_BUDGET, 1, "the shutdown after an error")
        super().panic(*renderables)

    def get_driver_class(self) -> type[Driver]:
        narrow_spans.install()  # a partial update writes its dirty cells only (asked once, before any frame)
        driver = super().get_driver_class()
        if driver is LinuxDriver:
            from claude_tui.ui.app.quiet_driver import QuietLinuxDriver

            return QuietLinuxDriver  # no wake-ups while the terminal is quiet
        return driver

    def get_line_filters(self) -> Sequence[LineFilter]:
        # Every widget asks the app (Widget.get_line_filters): the one place all drawn text passes.
        return [*super().get_line_filters(), self.terminal_safe]

    def copy_to_clipboard(self, text: str) -> None:
        """Every copy (Ctrl+Y, select mode, a TextArea/Input selection, a mouse selection of the screen)
        ends here: what reaches the clipboard, and the OSC 52 that carries it, is clean text."""
        super().copy_to_clipboard(clipboard_text(text))

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Notifications often carry CLI or model text (errors, task states): never parse them as
        markup, and make them inert — Textual passes ESC, CSI, OSC and C1 to the terminal as they are.

        (Widget.notify forwards here with markup=True by default; it is ignored on purpose.)
        """
        super().notify(printable(str(message)), title=one_line(str(title)), severity=severity, timeout=timeout,
                       markup=False)
        chat = self.chat
        if chat is not None and self.screen is self.chat_screen:
            self.call_after_refresh(chat.prompt_area.place_notifications)  # above the prompt as it is now

    def notify_turn_ended(self, session: ChatSession, change: TurnEnded) -> None:
        for screen in self.screen_stack:  # the turn's calls are in its transcript now: the usage screen reads them
            reread = getattr(screen, "reread_after_turn", None)
            if callable(reread):
                reread()
        duration = session.turn_duration()
        if duration is not None and duration < self.config.notifications.long_turn_seconds:
            return  # a quick turn: you were just there
        # request_attention only acts while the terminal is unfocused.
        request_attention(self, "Claude finished" if not change.is_error else "Claude stopped with an error",
                          bell=self.config.notifications.bell, desktop=self.config.notifications.desktop)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's palette entries, minus the ones we do better: its Theme picker (ours are listed
        per theme and remembered), its help panel (F1 is ours) and its Quit, which would end a
        running turn without asking."""
        for command in super().get_system_commands(screen):
            if command.title not in ("Theme", "Keys", "Quit"):
                yield command
        yield SystemCommand("Quit", "Quit claude-tui (asks first while a turn runs) · Ctrl+Q", self.action_quit_app)

    def action_quit_app(self) -> None:
        if self.is_quitting:
            return  # already on the way out (the worktree dialogs may be asking)
        busy = [session for session in self.sessions if session.busy]
        if busy:
            from claude_tui.ui.dialogs.confirm import ConfirmScreen

            if len(self.sessions) == 1:
                question = "A turn is still running. Quit and stop it?"
            else:  # one question for all of them, naming the tabs
                names = ", ".join(f"“{session.display_name()}”" for session in busy)
                question = (f"A turn is still running in {names}. Quit and stop it?" if len(busy) == 1 else
                            f"Turns are still running in {len(busy)} tabs: {names}. Quit and stop them?")
            if not opened_before(self, ConfirmScreen, where=lambda asked: asked.question == question):
                self.push_screen(ConfirmScreen(question, yes="Quit", no="Keep working"), self._quit_confirmed)
            return
        self.run_worker(self._quit(), group="quit", exclusive=True)

    def action_interrupt_clear_or_quit(self) -> None:
        """Ctrl+C, as in Claude Code: a running turn is interrupted (as Esc does, the draft kept);
        else a draft is cleared; on an empty prompt a second press within 2 s quits. A selection is
        copied instead: the focused widget's binding runs first."""
        chat = self.chat
        on_chat = chat is not None and self.screen is self.chat_screen
        if on_chat and chat is not None and chat.prompt_area.stop_shell():  # a `!command` runs
            self._ctrl_c_at = None
            return
        if on_chat and chat is not None and chat.controls.interrupt():
            self._ctrl_c_at = None
            return
        if on_chat and chat is not None and chat.prompt_area.clear_prompt():
            self._ctrl_c_at = None
            return
        self._quit_when_pressed_twice("Ctrl+C")

    def action_exit_on_empty(self) -> None:
        """Ctrl+D, as in Claude Code: on an empty prompt, twice quits; anywhere else the key is the
        focused field's own (delete right)."""
        from textual.widgets import Input

        chat = self.chat
        if chat is None or self.screen is not self.chat_screen or not chat.prompt_area.prompt_is_empty() \
                or isinstance(self.focused, Input):  # a one-line field (find, search) keeps its own Ctrl+D
            raise SkipAction()
        self._quit_when_pressed_twice("Ctrl+D")

    def _quit_when_pressed_twice(self, key: str) -> None:
        now = time.monotonic()
        if self._ctrl_c_at is not None and now - self._ctrl_c_at <= QUIT_AGAIN_SECONDS:
            self._ctrl_c_at = None
            self.action_quit_app()
            return
        self._ctrl_c_at = now
        self.notify(f"Press {key} again to quit", timeout=QUIT_AGAIN_SECONDS)

    def _quit_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self.run_worker(self._quit(), group="quit", exclusive=True)

    async def _quit(self) -> None:
        in_view = self.chat.session if self.chat is not None else None
        sessions = self.sessions
        await self.shutdown()
        from claude_tui.ui.app.resume_hint import resume_lines

        self.resume_hint = resume_lines(sessions, in_view, Path.cwd())
        if in_view is not None and in_view.options.ssh is None:
            # After every CLI has exited (each writes its transcript as it goes): --continue then
            # resumes this tab, not whichever CLI happened to exit last.
            from claude_tui.store.in_view import remember

            remember(Path(in_view.options.cwd or "."), in_view.conversation.status.session_id or None)
        message = None
        if self.worktrees:
            # The CLI has stopped: nothing changes the worktrees while the dialogs look at them.
            from claude_tui.ui.chat.worktree_flow import close_worktrees

            message = "\n".join(await close_worktrees(self, self.worktrees)) or None
        self.exit(message=message)

    async def shutdown(self) -> None:
        """Stop every session's CLI (drafts saved), all at once: each has its own grace period."""
        self.is_quitting = True
        screen = self.chat_screen
        views = screen.views if screen is not None and screen.is_attached else []
        await asyncio.gather(*(view.shutdown() for view in views))

    def action_help(self) -> None:
        from claude_tui.ui.app.help import HelpScreen

        if not opened_before(self, HelpScreen, toggle=True):
            self.push_screen(HelpScreen())

    def shortcut_rows(self) -> list[tuple[str, str]]:
        from claude_tui.ui.app.help import shortcut_rows

        return shortcut_rows(self)

    def action_open_sessions(self) -> None:
        from claude_tui.ui.browser.screen import SessionBrowserScreen

        if not opened_before(self, SessionBrowserScreen):
            self.push_screen(self.session_browser(), self._browser_choice)

    def action_usage(self) -> None:
        """The usage screen (ui/usage/); its Limits tab sends Claude Code's own /usage to this tab."""
        from claude_tui.ui.usage import open_usage

        chat = self.chat
        limits = None
        if chat is not None:
            from claude_tui.ui.manage.base import SessionAsker
            from claude_tui.ui.manage.limits import LimitsPanel

            limits = LimitsPanel(SessionAsker(chat.session))  # get_usage, asked of this tab's CLI
        open_usage(self, self.options, chat.session.conversation.status.session_id if chat is not None else None,
                   (lambda: self.run_worker(chat.prompt_area.send_slash("/usage"))) if chat is not None else None,
                   limits)

    def action_open_sessions_in_tab(self) -> None:
        """The browser; the session chosen opens in a new tab (the current one stays)."""
        from claude_tui.ui.browser.screen import SessionBrowserScreen

        if not opened_before(self, SessionBrowserScreen):
            self.push_screen(self.session_browser(), partial(self._browser_choice, new_tab=True))

    def session_browser(self) -> SessionBrowserScreen:
        """The session browser of the machine the CLI runs on. A remote store is read from its local
        mirror at once and refreshed over ssh in a worker (`ui/browser/remote.py`)."""
        from claude_tui.ui.browser.remote import session_browser

        chat = self.chat
        return session_browser(self, self.options, chat.session.conversation.status.cwd if chat is not None else "")

    def resume_row(self, row: SessionRow) -> None:
        """Resume a listed session (the palette's "Resume …"), as Enter in the browser does."""
        from claude_tui.ui.browser.screen import BrowserChoice

        self._browser_choice(BrowserChoice(row.session_id, Path(row.path), Path(row.cwd) if row.cwd else None))

    def _browser_choice(self, choice: BrowserChoice | None, new_tab: bool = False) -> None:
        if choice is None:
            return
        screen, chat = self.chat_screen, self.chat
        open_in = self._tab_with_session(choice.session_id) if not choice.fork else None
        if screen is not None and open_in is not None:
            # Open already: back to that tab as it is (no restart, nothing re-read). A second CLI
            # resuming the same session would append to its transcript from the same point as the
            # first, and the history would split in two.
            if open_in is not chat:
                screen.activate(open_in)
                number = screen.views.index(open_in) + 1
                self.notify(f"That session is open in tab {number}: switched to it.", timeout=4)
            if choice.query:
                open_in.call_after_refresh(open_in.prompt_area.navigator.find_at, choice.query, choice.turn)
            return
        if not new_tab and chat is not None and chat.session.busy and chat.session.alive:
            # Opening another session here ends this one's CLI, and with it the running turn: ask,
            # as quitting and restarting do.
            from claude_tui.ui.dialogs.confirm import ConfirmScreen

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self._load_choice(choice, new_tab)

            self.push_screen(ConfirmScreen("A turn is still running. Open the other session here and stop it?",
                                           yes="Open it", no="Keep working"), confirmed)
            return
        self._load_choice(choice, new_tab)

    def _tab_with_session(self, session_id: str) -> ChatView | None:
        """The open tab whose session is `session_id`: as its CLI reports it, or resumed (not forked)
        and not reported yet."""
        screen = self.chat_screen
        for view in screen.views if screen is not None and session_id else []:
            session, options = view.session, view.session.options
            reported = session.conversation.status.session_id
            if reported == session_id or (not reported and options.resume == session_id and not options.fork_session):
                return view
        return None

    @work(thread=True, exclusive=True, group="resume", exit_on_error=False)
    def _load_choice(self, choice: BrowserChoice, new_tab: bool = False) -> None:
        from claude_tui.ui.browser.screen import conversation_for

        try:
            conversation = conversation_for(choice)  # reads the transcript: off the UI thread
        except Exception as error:  # noqa: BLE001 - an unreadable transcript must not end the live session
            self.call_from_thread(self.notify, f"Could not open that session: {error}", severity="error",
                                  timeout=8)
            return
        # Awaited in the loop before the thread goes on. mypy solves call_from_thread's
        # `T | Awaitable[T]` for a coroutine function as Never: hence the ignore.
        self.call_from_thread(self._switch_session, choice, conversation, new_tab)  # type: ignore[arg-type]

    async def _switch_session(self, choice: BrowserChoice, conversation: Conversation, new_tab: bool = False) -> None:
        """Continue the chosen session in the active tab (whose CLI is closed first), or in a new one."""
        base = self.options
        cwd = str(choice.cwd) if choice.cwd is not None and (base.ssh is not None or Path(choice.cwd).is_dir()) \
            else None
        if choice.fork:
            await self.fork_session(conversation, choice.session_id, base, cwd=cwd, new_tab=new_tab)
        else:
            await self.open_session(fresh_options(base, resume=choice.session_id, cwd=cwd), conversation,
                                    new_tab=new_tab)
        chat = self.chat
        if choice.query and chat is not None:  # chosen from search results: show the match
            chat.call_after_refresh(chat.prompt_area.navigator.find_at, choice.query, choice.turn)

    # -- tabs ---------------------------------------------------------------------------------
    def action_new_tab(self) -> None:
        """Ctrl+N: a fresh session beside the others, in the active one's directory with its options."""
        self.run_worker(self.open_session(fresh_options(self.options), new_tab=True), group="tabs",
                        exit_on_error=False)

    def action_new_tab_elsewhere(self) -> None:
        """The palette: a fresh session in a new tab, in a directory you type (this machine only)."""
        from claude_tui.ui.dialogs.tab_prompts import TAB_DIRECTORY, tab_directory_prompt, typed_directory
        from claude_tui.ui.dialogs.text_prompt import prompt_open

        base = Path(self.options.cwd or ".").resolve()

        def chosen(text: str | None) -> None:
            if text is not None:
                directory = typed_directory(text, base)
                self.run_worker(self.open_session(fresh_options(self.options, cwd=str(directory)), new_tab=True),
                                group="tabs", exit_on_error=False)

        if not prompt_open(self, TAB_DIRECTORY):
            self.push_screen(tab_directory_prompt(base), chosen)

    def action_new_tab_on_host(self) -> None:
        """The palette: a fresh session in a new tab on another machine (a `hosts` name or user@host)."""
        from claude_tui.remote.hosts import options_on_host
        from claude_tui.ui.dialogs.tab_prompts import HostChoice, TabHostScreen

        def chosen(choice: HostChoice | None) -> None:
            if choice is None:
                return
            options = options_on_host(self.options, choice.setup)
            if choice.cwd is not None:
                options.cwd = choice.cwd
            self.run_worker(self.open_session(options, new_tab=True), group="tabs", exit_on_error=False)

        if not opened_before(self, TabHostScreen):
            self.push_screen(TabHostScreen(self.config), chosen)

    def action_switch_tab(self, number: int) -> None:
        screen = self.chat_screen
        if screen is not None and 1 <= number <= len(screen.views):
            screen.activate(screen.views[number - 1])

    def action_cycle_tab(self, delta: int) -> None:
        screen = self.chat_screen
        if screen is not None:
            screen.cycle(delta)

    def action_move_tab(self, delta: int) -> None:
        screen, chat = self.chat_screen, self.chat
        if screen is not None and chat is not None:
            screen.move_tab(chat, delta)

    def action_rename_tab(self) -> None:
        screen = self.chat_screen
        if screen is not None:
            screen.ask_rename()

    def action_close_tab(self) -> None:
        """Close the active tab (asks while its turn runs); closing the last one quits."""
        screen = self.chat_screen
        if screen is None or screen.active_view is None:
            return
        if len(screen.views) <= 1:
            self.action_quit_app()
            return
        screen.ask_close(screen.active_view)

    def action_overview(self) -> None:
        screen = self.chat_screen
        if screen is not None:
            screen.show_overview()

    def on_diff_view_comment_asked(self, event: DiffView.CommentAsked) -> None:
        """`c` on any diff (the log, what changed, a dialog's preview): a comment for the tab's review tray."""
        from claude_tui.ui.chat.review import ask_comment

        screen = self.chat_screen
        view = screen.active_view if screen is not None else None
        if view is not None:
            event.stop()
            ask_comment(view, event.diff, event.hunk)

    def action_toggle_split_diffs(self) -> None:
        from claude_tui.ui.app.state import save_state

        split = not bool(self.diff_split)
        self.diff_split = split
        save_state({"split_diffs": split})
        self.notify(f"Diffs: {'side by side' if split else 'unified'}.", timeout=3)
