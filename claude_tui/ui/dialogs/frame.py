"""The frame of a dialog that answers the CLI (permission, question, plan, Claude Code's own dialog,
an MCP server's form): a widget the dialog's screen composes, not a base class of the screen.

The frame is the bordered box: its title, the place in the queue of requests ("2 of 3"), a docked
head, a body that scrolls, and a docked foot with the dialog's own parts, the waiting notice and
the key bar. The dialog hands it the head, body and foot it composes (their `with` blocks run as
the frame composes); its layout lives in `base.tcss`, beside the rules of the screens that hold it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.errors import NoWidget
from textual.widgets import Static

from claude_tui.ui.dialogs.modal_guard import waiting_notice
from claude_tui.ui.dialogs.parts import DialogBody, Hint, KeyBar


class DialogFrame(Vertical):
    """The box of a dialog: ``title`` on its border, ``head``/``body``/``foot`` composed inside.

    ``ends_with``: how the body's input ends ("the command ends: …"), said when the end is out of
    view; inert. ``waiting``: how the dialog opens (the notice's first words)."""

    def __init__(self, title: Content, hints: list[Hint], *, body: ComposeResult, head: ComposeResult = (),
                 foot: ComposeResult = (), ends_with: str = "", waiting: bool = True, position: int = 1,
                 total: int = 1, classes: str = "") -> None:
        super().__init__(id="dialog", classes=f"dialog {classes}".strip())
        self.title = title
        self.hints = hints
        self.head, self.body, self.foot = head, body, foot
        self.ends_with = ends_with
        self.waiting = waiting
        self.position, self.total = position, total
        self._overflow_said = ""

    def compose(self) -> ComposeResult:
        # Head and foot are docked: that is what lets the body shrink and scroll while
        # the key bar stays visible, yet the whole frame stays as small as its content.
        with Vertical(id="head"):
            yield from self.head
        with DialogBody(id="body"):
            yield from self.body
        with Vertical(id="foot"):
            yield Static("", id="overflow", markup=False)
            yield from self.foot
            yield waiting_notice(self.waiting)
            with Horizontal(id="keys"):
                yield KeyBar(self.hints, id="key-bar")
                yield Static("keys paused…", classes="guard-notice", markup=False)

    def on_mount(self) -> None:
        self.border_title = self.title
        self._show_position()

    # ------------------------------------------------------------------ queue position

    def set_queue(self, position: int, total: int) -> None:
        """Show "position of total" (hidden when this is the only pending request)."""
        self.position, self.total = position, total
        if self.is_mounted:
            self._show_position()

    def _show_position(self) -> None:
        self.border_subtitle = Content(f"{self.position} of {self.total}" if self.total > 1 else "")

    # ------------------------------------------------------------------ what is out of view

    def on_dialog_body_moved(self, event: DialogBody.Moved) -> None:
        self.call_after_refresh(self._say_overflow)

    def _say_overflow(self) -> None:
        # Under the body, above the keys: a command that goes on past the view says so, with its
        # last line, before anything can be allowed. Counted from what the screen shows of the
        # body: a dialog at its height limit can clip the body (or the foot cover it) with no
        # scrollbar at all.
        if not self.is_attached:
            return
        try:  # a dialog the CLI withdrew is taken apart child by child: its parts can be gone already
            body = self.query_one("#body", DialogBody)
            foot = self.query_one("#foot")
            note = self.query_one("#overflow", Static)
            shown = self.screen.find_widget(body).visible_region
            foot_top = self.screen.find_widget(foot).region.y
        except (NoMatches, NoWidget):
            return
        visible = max(0, min(shown.bottom, foot_top) - shown.y) if shown.height else 0
        below = body.rows_below(visible)
        lines = "1 more line" if below == 1 else f"{below:,} more lines"
        ends = self.ends_with
        text = Content.assemble((f"↓ {lines} below (↓ PgDn scroll)", "bold"), *((" · ", ends) if ends else ()))
        if below > 0 and (not note.display or text.plain != self._overflow_said):
            note.update(text)
        self._overflow_said = text.plain if below > 0 else ""
        note.display = below > 0
