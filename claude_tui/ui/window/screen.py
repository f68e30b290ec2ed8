"""The chat window: a tab strip over one `ChatView` per open session, then the footer.

Each tab is a `ChatView` showing one `ChatSession` (its own CLI, log, draft, sidebar and
dialogs); a `ContentSwitcher` shows the active one. The strip is hidden while only one tab is
open: with one session, a row of one tab would only take a line from the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import ContentSwitcher

from claude_tui.ui.chat.host import ChatHost
from claude_tui.ui.chat.session import ChatSession
from claude_tui.ui.chat.tab_summary import TabSummary
from claude_tui.ui.chat.view import ChatView
from claude_tui.ui.kit.quiet_footer import QuietFooter
from claude_tui.ui.panels.prompt_input import PromptInput
from claude_tui.ui.window.key_frames import paint_keystroke_now
from claude_tui.ui.window.tab_bar import TabBar

if TYPE_CHECKING:
    from claude_tui.ui.window.overview import OverviewScreen


class ChatScreen(Screen[None]):
    DEFAULT_CSS = """
    ChatScreen #tabs {
        height: 1fr;
    }
    ChatScreen #tab-bar {
        display: none;
    }
    ChatScreen.-several-tabs #tab-bar {
        display: block;
    }
    """

    def __init__(self, host: ChatHost, session: ChatSession) -> None:
        super().__init__()
        self.host = host
        self._first = session
        self._overview: OverviewScreen | None = None
        """The overview while it is open: kept current as the tabs change."""
        self._several_tabs = False
        """Whether the tab bar shows (more than one tab), as `redraw_tabs` last found."""

    def compose(self) -> ComposeResult:
        yield TabBar(id="tab-bar")
        with ContentSwitcher(id="tabs", initial=self._first.tab_id):
            yield ChatView(self._first, self.host)
        yield QuietFooter()

    def on_mount(self) -> None:
        self.redraw_tabs()

    def on_idle(self) -> None:
        # Before Textual's own idle handler, which would leave the frame to the next grid point.
        paint_keystroke_now(self, PromptInput)

    # -- the tabs ---------------------------------------------------------------------------
    @property
    def switcher(self) -> ContentSwitcher:
        return self.query_one("#tabs", ContentSwitcher)

    @property
    def views(self) -> list[ChatView]:
        """The open tabs, in order."""
        return list(self.switcher.query_children(ChatView))

    @property
    def active_view(self) -> ChatView | None:
        current = self.switcher.current
        for view in self.views:
            if view.id == current:
                return view
        return None

    def view_for(self, session: ChatSession) -> ChatView | None:
        return next((view for view in self.views if view.session is session), None)

    async def add_tab(self, session: ChatSession) -> ChatView:
        """Open `session` in a new tab (after the active one) and show it."""
        view = ChatView(session, self.host)
        active = self.active_view
        await self.switcher.mount(view, after=active)
        self.activate(view)
        return view

    async def replace_tab(self, old: ChatView, session: ChatSession) -> ChatView:
        """Show `session` where `old` was (a new session, a fork, a resumed one in this tab)."""
        view = ChatView(session, self.host)
        was_active = old is self.active_view
        await self.switcher.mount(view, after=old)
        if was_active:
            self.activate(view)
        await old.remove()
        self.redraw_tabs()
        return view

    def activate(self, view: ChatView) -> None:
        """Bring `view`'s tab to the front; the one that leaves takes its dialog down (unanswered)."""
        previous = self.active_view
        if previous is view:
            return
        if previous is not None:
            previous.hidden()
        self.switcher.current = view.id
        view.shown()
        self.redraw_tabs()

    async def close_tab(self, view: ChatView) -> None:
        """Close `view`'s tab with quitting's guarantees: its dialog comes down unanswered, its CLI
        stops (draft saved), and the worktree this run made for it is offered for removal once no
        other tab runs in it."""
        views = self.views
        if view not in views:
            return
        if view is self.active_view and len(views) > 1:
            index = views.index(view)
            self.activate(views[index + 1] if index + 1 < len(views) else views[index - 1])
        view.hidden()
        await view.shutdown()
        await view.remove()
        self.redraw_tabs()
        host = self.host
        worktree = host.worktree_for(view.session.options.cwd)
        if worktree is not None and not any(host.worktree_for(other.session.options.cwd) is worktree
                                            for other in self.views):
            from claude_tui.ui.chat.worktree_flow import offer_removal

            line = await offer_removal(self.app, host.worktrees, worktree)
            if line:
                self.notify(line, timeout=8)

    def move_tab(self, view: ChatView, delta: int) -> None:
        views = self.views
        index = views.index(view)
        target = index + delta
        if not 0 <= target < len(views) or delta == 0:
            return
        other = views[target]
        if delta < 0:
            self.switcher.move_child(view, before=other)
        else:
            self.switcher.move_child(view, after=other)
        self.redraw_tabs()

    def ask_rename(self) -> None:
        from claude_tui.ui.dialogs.tab_prompts import TAB_NAME, tab_name_prompt
        from claude_tui.ui.dialogs.text_prompt import prompt_open

        view = self.active_view
        if view is None or prompt_open(self.app, TAB_NAME):
            return
        session = view.session

        def named(name: str | None) -> None:
            if name is not None:
                session.name = name.strip()
                self.redraw_tabs()
                if session.name:
                    self.run_worker(self._rename_in_cli(session, session.name), group="rename", exit_on_error=False)

        self.app.push_screen(tab_name_prompt(session.name or session.display_name()), named)

    async def _rename_in_cli(self, session: ChatSession, name: str) -> None:
        if (why := await session.rename_in_cli(name)) is not None:
            self.notify(why, severity="warning", timeout=5)

    def ask_close(self, view: ChatView) -> None:
        """Close `view`'s tab; while its turn runs, only after a yes (as quitting asks)."""
        if not view.session.busy:
            self.run_worker(self.close_tab(view), group="tabs", exit_on_error=False)
            return
        from claude_tui.ui.dialogs.confirm import ConfirmScreen
        from claude_tui.ui.kit.screen_once import opened_before

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.run_worker(self.close_tab(view), group="tabs", exit_on_error=False)

        question = f"A turn is still running in “{view.session.display_name()}”. Close the tab and stop it?"
        if not opened_before(self.app, ConfirmScreen, where=lambda asked: asked.question == question):
            self.app.push_screen(ConfirmScreen(question, yes="Close", no="Keep working"), confirmed)

    def show_overview(self) -> None:
        from claude_tui.ui.kit.screen_once import opened_before
        from claude_tui.ui.window.overview import OverviewScreen, open_overview

        active = self.active_view
        if active is not None and not opened_before(self.app, OverviewScreen, toggle=True):
            self._overview = open_overview(self.app, self.summaries(), active.id or "",
                                           lambda tab_id: self.activate_id(tab_id) if tab_id else None)

    def cycle(self, delta: int) -> None:
        views, active = self.views, self.active_view
        if active is None or len(views) < 2:
            return
        self.activate(views[(views.index(active) + delta) % len(views)])

    def redraw_tabs(self) -> None:
        bar = self.query_one(TabBar)
        views = self.views
        active = self.active_view
        # Hidden with one tab: a lone tab says nothing the status bar does not, and costs a row.
        self._several_tabs = len(views) > 1
        self.set_class(self._several_tabs, "-several-tabs")
        # On the app too: a waiting dialog (a screen of its own) keeps clear of the tab bar's row.
        self.app.set_class(len(views) > 1, "-several-tabs")
        bar.tabs = tuple(view.session.summary() for view in views)
        bar.active = active.id or "" if active is not None else ""
        if self._overview is not None:
            if self._overview.is_attached:  # open: it shows the states as they change
                self._overview.tabs = bar.tabs
            else:
                self._overview = None

    def summaries(self) -> tuple[TabSummary, ...]:
        return tuple(view.session.summary() for view in self.views)

    @on(TabBar.Selected)
    def _tab_clicked(self, message: TabBar.Selected) -> None:
        message.stop()
        self.activate_id(message.tab_id)

    def activate_id(self, tab_id: str) -> None:
        view = next((view for view in self.views if view.id == tab_id), None)
        if view is not None:
            self.activate(view)

    @on(ChatView.Changed)
    def _tab_changed(self, message: ChatView.Changed) -> None:
        message.stop()
        if self._overview is None and not self._several_tabs:
            # One tab: the bar is hidden and no overview shows the states; a second tab redraws them
            # all. (A burst posts this ~25 times a turn: it was 2 % of the app's CPU over a session.)
            return
        self.redraw_tabs()
        self.query_one(TabBar).frame += 1  # news from a CLI turns the spinner of a streaming tab

    @on(ChatView.NeedsAttention)
    def _needs_attention(self, message: ChatView.NeedsAttention) -> None:
        from claude_tui.ui.kit.attention import request_attention

        message.stop()
        self.redraw_tabs()
        notifications = self.host.config.notifications
        name = message.view.session.display_name()
        if self.app.app_focus:
            if notifications.bell:
                self.app.bell()  # you are here, in another tab: the mark and one bell
        else:
            request_attention(self.app, f"{name} needs an answer", bell=notifications.bell,
                              desktop=notifications.desktop)
