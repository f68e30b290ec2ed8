"""GuardedModal: the one screen class our modals derive from, whose keys obey the guard it owns.

Any modal whose keys do something that cannot be undone (answer the CLI, quit, rewind files,
remove a worktree, turn an MCP server off) must not act on keys typed for the screen below it.
Its rules (waiting, Tab, the one key, the typeahead guard, focus) are `modal_guard.py`'s
`ModalGuard`, which the screen owns and hands its keys, pastes, clicks and screen changes to; the
box a dialog that answers the CLI is drawn in is `frame.py`'s `DialogFrame`, a widget it composes.
A concrete dialog is a `GuardedModal` and nothing more: what it adds to the rules (its keys ahead of
them, what Esc does while it waits, a call for attention) it gives the constructor, and its own
start is its own `on_mount`.

Ways out
--------
* Every key or click that ends the modal goes through :meth:`GuardedModal.finish`, which
  dismisses with the result — Esc included (a permission dialog denies).
* :meth:`GuardedModal.cancel` closes the modal WITHOUT a result: the app calls it when the CLI
  withdraws the request (``control_cancel_request``) or exits. The screen is popped and the
  ``push_screen`` callback is never called, so the callback only ever sees real decisions and the
  app (which called ``cancel``) already knows the request is gone. (Use the callback form of
  ``push_screen``: a ``wait_for_dismiss`` future would never resolve for a cancelled dialog.)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import ClassVar, Generic, NamedTuple, TypeVar

from textual import events, on
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widget import Widget

from claude_tui.config import Config
from claude_tui.ui.dialogs.frame import DialogFrame
from claude_tui.ui.dialogs.modal_guard import (
    HELD_WORDS,
    READY_WORDS,
    STEP_IN_KEY,
    STEPPED_IN_WORDS,
    WAITING_WORDS,
    KeyAhead,
    ModalGuard,
    waiting_notice,
)
from claude_tui.ui.dialogs.parts import KeyBar
from claude_tui.ui.kit.attention import request_attention

__all__ = ["DEFAULT_GUARD_MS", "DIALOG_CSS", "ENTER_ANSWERS_NOTHING", "HELD_WORDS", "READY_WORDS", "STEP_IN_KEY",
           "STEPPED_IN_WORDS", "WAITING_WORDS", "Attention", "GuardedModal", "waiting_notice"]

DEFAULT_GUARD_MS: int = Config.model_fields["typeahead_guard_ms"].default
"""The config's default (400 ms), so the dialogs and the config cannot drift apart."""

ResultT = TypeVar("ResultT")

DIALOG_CSS = str(Path(__file__).with_name("base.tcss"))
"""Where every GuardedModal that waits is placed, its waiting state, and the DialogFrame. Absolute, so
a modal in any module finds it: each one that adds its own file lists this one first in its CSS_PATH."""


class Attention(NamedTuple):
    """What a modal that answers the CLI calls for as it first appears (`kit/attention.py`)."""

    text: str
    """What the desktop notification says (reduced to a safe alphabet before sending)."""
    bell: bool = True
    desktop: bool = True


ENTER_ANSWERS_NOTHING = Binding("enter", "enter", show=False)
"""A dialog that answers the CLI binds Enter to `GuardedModal.action_enter`, a no-op, so an Enter that
no focused part takes (a choice list, a field) can never reach anything that approves or answers."""


class GuardedModal(ModalScreen[ResultT], Generic[ResultT]):
    """A modal whose keys obey the guard it owns (`ModalGuard`, see `modal_guard.py`).

    Actions that answer call :meth:`keys_open` first and end with :meth:`finish`. While the
    guard swallows keys the screen carries ``-armed``; once it has swallowed one it also
    carries ``-paused`` (until the guard falls), so TCSS can say why the key did nothing
    without the notice flashing on every dialog that simply opened. A modal that opens waiting
    carries ``-waits`` for good (`base.tcss` places every one of them above the prompt), and
    ``-waiting`` while it waits.
    """

    CSS_PATH: ClassVar[str | PurePath | list[str | PurePath] | None] = DIALOG_CSS
    MARK_PAUSED: ClassVar[bool] = True
    """Set ``-paused`` on a swallowed key (a class change restyles the screen: off where unused)."""
    ONE_KEY: ClassVar[frozenset[str]] = frozenset()
    """Keys that answer at once when the modal appeared while the user was not typing
    (`modal_guard.py`); empty: the modal always waits for Tab."""
    clock: ClassVar[Callable[[], float]] = staticmethod(lambda: time.monotonic())  # read late: tests replace `time`
    """The guard's clock (seconds). Tests replace it to run long pauses in no time."""

    def __init__(self, *, guard_ms: int | None = None, waits: bool = True, key_ahead: KeyAhead | None = None,
                 guard_changed: Callable[[bool], None] | None = None, answers_cli: bool = False,
                 attention: Attention | None = None, position: int = 1, total: int = 1,
                 name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        """``guard_ms=None``: the app's ``Config.typeahead_guard_ms`` (the default if it has none).
        ``waits=False``: opened by the user's own command, moved to at once (no Tab).
        ``key_ahead``: the modal's own keys, ahead of the guard's rules (True: taken, and stopped).
        ``guard_changed``: told when the guard goes up or falls (hints TCSS cannot reach; keep it cheap).
        ``answers_cli``: a dialog that answers the CLI: Esc while it waits is the chat's Esc, and the
        screen carries ``-answers-cli`` (`base.tcss`: its backdrop).
        ``attention``: called for when the modal is first shown. ``position``/``total``: its place
        in the queue of requests (its `DialogFrame` shows it)."""
        super().__init__(name=name, id=id, classes=classes)
        self.attention = attention
        self.position, self.total = position, total
        self.cancel_reason: str | None = None
        """Set by :meth:`cancel`; the modal then closes without calling the result callback."""
        self._popped = False
        self.set_class(answers_cli, "-answers-cli")

        def clock() -> float:  # read late: tests replace it
            return type(self).clock()

        self.guard = ModalGuard(self, one_key=self.ONE_KEY, clock=clock, guard_ms=guard_ms, waits=waits,
                                mark_paused=self.MARK_PAUSED, key_ahead=key_ahead, guard_changed=guard_changed,
                                escape_waiting=self._escape_below if answers_cli else None,
                                first_shown=self._call_for_attention)

    # ------------------------------------------------------------------ the guard's state, read here

    @property
    def waiting(self) -> bool:
        """Shown without focus: typing goes to the prompt, no key answers."""
        return self.guard.waiting

    @waiting.setter
    def waiting(self, waiting: bool) -> None:
        self.guard.waiting = waiting

    @property
    def settled(self) -> bool:
        """True once an answer was given (or the modal was cancelled)."""
        return self.guard.settled

    @property
    def shown(self) -> bool:
        """It has been the active screen: keys before that never count."""
        return self.guard.shown

    @property
    def armed(self) -> bool:
        return self.guard.armed

    @property
    def ready(self) -> bool:
        """Its first key may answer (see `OneKey`)."""
        return self.guard.one_key.ready

    def guard_length_ms(self) -> int:
        return self.guard.guard_length_ms()

    def arm(self, guard_ms: int | None = None) -> None:
        """Ignore keys and clicks for ``guard_ms`` (default: the modal's guard) from now."""
        self.guard.arm(guard_ms)

    def keys_open(self) -> bool:
        """May a key or click act now? (See `ModalGuard.keys_open`.)"""
        return self.guard.keys_open()

    # ------------------------------------------------------------------ Textual's events, to the guard

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        if self.guard.holds_focus(widget):
            return
        super().set_focus(widget, scroll_visible=scroll_visible, from_app_focus=from_app_focus)

    async def on_key(self, event: events.Key) -> None:
        await self.guard.key(event)

    def on_paste(self, event: events.Paste) -> None:
        self.guard.paste(event)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.guard.mouse_down(event)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self.guard.settled:
            if self.cancel_reason is not None:
                # Cancelled while another screen covered it: leave now, still without a result.
                self._close_without_result()
            return
        self.guard.resume()

    def on_screen_suspend(self, event: events.ScreenSuspend) -> None:
        self.guard.suspend()

    @on(KeyBar.Pressed)
    async def _hint_pressed(self, event: KeyBar.Pressed) -> None:
        # A click on a key hint runs the key's action, which asks `keys_open` as the key would.
        event.stop()
        await self.run_action(event.action)

    def action_enter(self) -> None:
        """Enter alone approves nothing (a dialog that binds Enter names its own action)."""

    def _escape_below(self) -> None:
        # The chat's Esc, as the key bar below says: it closes the prompt's menu if one is open, else
        # interrupts the turn (the CLI then withdraws this request and the dialog closes). It answers
        # nothing itself, and prose cannot type it.
        from claude_tui.ui.panels.prompt_typing import escape_below

        escape_below(self.app)

    def _call_for_attention(self) -> None:
        if self.attention is not None:
            request_attention(self.app, self.attention.text, bell=self.attention.bell, desktop=self.attention.desktop)

    # ------------------------------------------------------------------ queue position

    def set_queue(self, position: int, total: int) -> None:
        """Show "position of total" (hidden when this is the only pending request)."""
        self.position, self.total = position, total
        for frame in self.query(DialogFrame):  # absent before compose and once the modal is closing
            frame.set_queue(position, total)

    def set_total(self, total: int) -> None:
        """More requests arrived (or some were cancelled) behind this one."""
        self.set_queue(self.position, total)

    # ------------------------------------------------------------------ ways out

    def finish(self, result: ResultT) -> None:
        """Close with ``result`` (once; later calls are ignored)."""
        if self.guard.settled:
            return
        self.guard.settle()
        self.dismiss(result)

    def cancel(self, reason: str = "") -> None:
        """Close WITHOUT a result: the request was withdrawn or the CLI exited.

        The ``push_screen`` callback is not called. ``reason`` is kept in
        :attr:`cancel_reason` (the app shows any notice). Safe to call at any time:
        if another screen covers the modal it closes as soon as it is uncovered,
        and a modal that was never shown simply never acts.
        """
        if self.guard.settled:
            return
        self.guard.settle()
        self.cancel_reason = reason
        if self.is_active:
            self._close_without_result()

    def _close_without_result(self) -> None:
        # App.pop_screen drops this screen's result callback without calling it
        # (Screen.dismiss would call it); only valid while we are the top screen,
        # and only once (a late ScreenResume must not pop the chat screen too).
        if self._popped or self.app.screen is not self:
            return
        self._popped = True
        self.app.pop_screen()

