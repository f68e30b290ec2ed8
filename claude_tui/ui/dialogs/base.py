"""What the permission, question and plan dialogs share: the typeahead guard, attention,
the queue position, and the two ways out (a decision, or a cancel from the app).

Ways out
--------
* Every key or click that ends the dialog goes through :meth:`GuardedDialog.decide`,
  which dismisses with a :class:`PermissionDecision` — Esc included (it denies).
* :meth:`GuardedDialog.cancel` closes the dialog WITHOUT a result: the app calls it
  when the CLI withdraws the request (``control_cancel_request``) or exits. The
  screen is popped and the ``push_screen`` callback is never called, so the callback
  only ever sees real decisions and the app (which called ``cancel``) already knows
  the request is gone. (Use the callback form of ``push_screen``: a
  ``wait_for_dismiss`` future would never resolve for a cancelled dialog.)

Typing never answers
--------------------
Every guarded modal opens *waiting*: it is shown, but it has no focus and takes no
answer typed while the user is typing. What the user types meanwhile (letters, digits, Space, Enter, Backspace, a
paste, and the prompt's editing keys: arrows, Home/End, Delete, Ctrl+W/U/K/Z …) goes on
into the chat prompt, in order, through the prompt's own queue (`PromptInput.Typed`); no
answer key does anything. An editing key the dialog binds itself (the question's Left,
"back") is not passed on: it stays inert until the user moves to the dialog. **Tab**
moves to the dialog: prose typed at the keyboard never holds a Tab (a pasted tab arrives
as a paste, not a key), so no sentence, with any pauses, can answer. A click on the dialog
moves to it too. Once there, Tab goes back to the prompt. Esc on a waiting permission, question
or plan dialog is the chat's Esc (close the prompt's menu, else interrupt the turn, which withdraws
the request); on the other modals it does nothing.

One key, when the user is not typing
------------------------------------
A permission, question or plan dialog (``ONE_KEY``) that appears while the user is *not typing*
takes its first key as the answer, with no Tab and no guard: ``y``, ``1`` or Enter, a question's
option number.
Not typing means all of: the prompt was empty when the dialog appeared, no key or paste reached
the app for ``QUIET_MS`` before that (or the last one was the Enter that sent a prompt, and nothing
came since: the user waits for Claude), every key already on its way when it appeared has arrived
(a marker posted behind them came back: those keys were typed blind, and they go to the prompt),
and the key comes at least ``REACT_MS`` after the dialog appeared, by the time the app took it,
with no other key taken meanwhile (no one reads a dialog faster; a key sooner than that was typed
before it was seen, and two keys are typing). Only the first key decides: an answer key answers;
anything else (a letter that starts a sentence) goes to the prompt and the dialog waits, as
above, until Tab. A dialog that appears while keys are arriving, or over a draft, waits. An answer
key that fails only by coming too soon is held (`OneKey.held`), not typed into the empty prompt
as a stray letter: the next key or paste is typing and the held key goes to the prompt first (it
answers nothing: the held key counts as a draft); Tab, or a click on the dialog, drops it.

Typeahead guard
---------------
Each time the dialog is moved to (or becomes active again after another screen)
it is *armed* for ``guard_ms``: actions run in that window are swallowed (not passed
on — an Esc meant for the prompt must not reach an app-level binding either), and the
screen carries the ``-armed`` class so the key bar can say "keys paused". A key in that
window is swallowed too and re-arms it, letters included: the user pressed Tab to come
here (a completion Tab completes in the prompt's menu instead), so a letter on its heels
is neither an answer nor text for the prompt, where it would land as a stray letter.
Clicks on key hints go through the same actions, so they obey the guard too.
The guard reads :attr:`GuardedModal.clock` (``time.monotonic``; tests may replace it). The guard
and the one-key readiness are `guard.py`'s `TypeaheadGuard` and `OneKey`, held by the modal.

Keys after the answer
---------------------
A dialog moved to runs the binding of each key in its own ``on_key``, in the order the keys
came (Textual would run it once the key bubbled up to the app, after the keys typed behind it
had been dropped here). The answer settles the dialog at once; the keys after it — a burst
of ``yhello world`` — go on into the prompt, in order, until the dialog is gone. The next
request's dialog opens waiting, so none of them answers it.

The guard itself lives in :class:`GuardedModal`, which the smaller yes/no modals
(rewind files, quit while a turn runs) share: any modal whose keys do something
that cannot be undone must not act on keys typed for the screen below it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache
from pathlib import Path, PurePath
from typing import ClassVar, Generic, TypeVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.errors import NoWidget
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from claude_tui.config import Config
from claude_tui.session.permissions import PermissionDecision, PermissionRequest
from claude_tui.ui.dialogs.guard import OneKey, TypeaheadGuard
from claude_tui.ui.dialogs.parts import DialogBody, Hint, KeyBar
from claude_tui.ui.kit.app_config import app_config
from claude_tui.ui.kit.attention import request_attention

DEFAULT_GUARD_MS: int = Config.model_fields["typeahead_guard_ms"].default
"""The config's default (400 ms), so the dialogs and the config cannot drift apart."""


ResultT = TypeVar("ResultT")

DIALOG_CSS = str(Path(__file__).with_name("base.tcss"))
"""The waiting state of every GuardedModal and the GuardedDialog frame. Absolute, so a subclass in any
module finds it: each subclass that adds its own file lists this one first in its CSS_PATH."""

STEP_IN_KEY = "tab"
"""The one key that moves from the prompt to a waiting dialog (and back)."""
WAITING_WORDS = "Tab to answer · until then your typing goes to the prompt"
READY_WORDS = "Press a key to answer · typing anything else goes to the prompt"
STEPPED_IN_WORDS = "Tab back to the prompt"
HELD_WORDS = "Too quick to be an answer: Tab, then the key · typing goes to the prompt"


@cache
def key_actions(modal: type[Screen[object]]) -> dict[str, str]:
    """Each key of a modal's own bindings -> its action (a subclass's binding wins over its base's)."""
    actions: dict[str, str] = {}
    for cls in modal.__mro__:
        for binding in Binding.make_bindings(vars(cls).get("BINDINGS", [])):
            actions.setdefault(binding.key, binding.action)
    return actions


@cache
def own_keys(modal: type[Screen[object]]) -> frozenset[str]:
    """The keys a modal's own bindings use (its answers, Back, Esc), from its class and its bases."""
    return frozenset(binding.key for cls in modal.__mro__ if "BINDINGS" in vars(cls)
                     for binding in Binding.make_bindings(vars(cls)["BINDINGS"]))


def waiting_notice(waiting: bool = True) -> Static:
    """The line that says how to reach a waiting dialog (its text follows the state)."""
    return Static(WAITING_WORDS if waiting else STEPPED_IN_WORDS, classes="waiting-notice", markup=False)


class GuardedModal(ModalScreen[ResultT], Generic[ResultT]):
    """A modal whose answer keys obey the typeahead guard (see the module docstring).

    Actions that answer call :meth:`keys_open` first and end with :meth:`finish`. While the
    guard swallows keys the screen carries ``-armed``; once it has swallowed one it also
    carries ``-paused`` (until the guard falls), so TCSS can say why the key did nothing
    without the notice flashing on every dialog that simply opened.
    """

    CSS_PATH: ClassVar[str | PurePath | list[str | PurePath] | None] = DIALOG_CSS
    MARK_PAUSED: ClassVar[bool] = True
    """Set ``-paused`` on a swallowed key (a class change restyles the screen: off where unused)."""
    ONE_KEY: ClassVar[frozenset[str]] = frozenset()
    """Keys that answer at once when the dialog appeared while the user was not typing (see the
    module docstring); empty: the modal always waits for Tab."""
    clock: ClassVar[Callable[[], float]] = staticmethod(lambda: time.monotonic())  # read late: tests replace `time`
    """The guard's clock (seconds). Tests replace it to run long pauses in no time."""

    def __init__(self, *, guard_ms: int | None = None, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        """``guard_ms=None``: the app's ``Config.typeahead_guard_ms`` (the default if it has none)."""
        super().__init__(name=name, id=id, classes=classes)
        self.guard_ms = None if guard_ms is None else max(0, guard_ms)
        self._settled = False
        def clock() -> float:  # read late: tests replace it
            return type(self).clock()

        self.guard = TypeaheadGuard(self, clock, self._show_guard)
        self.one_key = OneKey(self, self.ONE_KEY, clock, self._ready_changed)
        """Appeared while the user was not typing: its first key may answer (``ONE_KEY``)."""
        self._shown = False
        """Set when the modal first becomes the active screen; keys before that never count."""
        self.waiting = True
        """Shown without focus: typing goes to the prompt, no key answers (see the module docstring)."""
        self._focus_later: Widget | None = None
        """What the modal wanted focused while waiting: focused when the user moves to it."""
        self.set_class(True, "-waiting")

    @property
    def settled(self) -> bool:
        """True once an answer was given (or, for a dialog, it was cancelled)."""
        return self._settled

    @property
    def armed(self) -> bool:
        return self.guard.armed

    @property
    def ready(self) -> bool:
        """Its first key may answer (see `OneKey`)."""
        return self.one_key.ready

    def guard_length_ms(self) -> int:
        if self.guard_ms is not None:
            return self.guard_ms
        return max(0, app_config(self).typeahead_guard_ms)

    def arm(self, guard_ms: int | None = None) -> None:
        """Ignore keys and clicks for ``guard_ms`` (default: the modal's guard) from now."""
        self.guard.arm(self.guard_length_ms() if guard_ms is None else guard_ms)

    def _show_guard(self, armed: bool) -> None:
        if not armed:
            self.remove_class("-paused")
        self.set_class(armed, "-armed")  # no-op (no restyle) when unchanged
        self.guard_changed(armed)

    def guard_changed(self, armed: bool) -> None:
        """Hook: the guard was (re-)armed or fell, for hints TCSS cannot reach. Runs on every
        re-arm, that is on every key typed while armed: keep it cheap."""

    def _swallow(self) -> bool:
        """A key or click arrived: if the guard is up, keep it up and report the key as swallowed."""
        if self._shown and not self._settled and not self.waiting and self.armed and self.is_active:
            self.arm()
            if self.MARK_PAUSED:
                self.add_class("-paused")
            return True
        return False

    def keys_open(self) -> bool:
        """May a key or click act now? (Moved to, guard passed, modal visible, nothing settled.)

        A key that arrives while the guard is up re-arms it: someone still typing what they meant
        for the screen below keeps the modal closed, so answering takes a pause and then a fresh key.
        """
        if self.waiting:
            return False
        if self._swallow():
            return False
        return self._shown and not self._settled and not self.armed and self.is_active

    # ------------------------------------------------------------------ waiting / moved to

    def step_in(self, guard: bool = True) -> None:
        """Move from the prompt to the dialog: focus its part, and arm the guard (unless a key that
        answers at once brought the user here, ``guard=False``)."""
        if not self.waiting or self._settled:
            return
        self._not_ready()
        self.waiting = False
        self.set_class(False, "-waiting")
        self._show_waiting()
        target, self._focus_later = self._focus_later, None
        if target is None or not target.is_attached or not target.focusable:
            target = self.focus_target()
        if target is not None:
            super().set_focus(target)
        self.arm(None if guard else 0)

    # ------------------------------------------------------------------ one key (not typing)

    def _ready_changed(self) -> None:
        self.set_class(self.one_key.ready or self.one_key.held is not None, "-ready")
        self._show_waiting()

    def _not_ready(self) -> None:
        self.one_key.end()

    def step_out(self) -> None:
        """Back to the prompt: the dialog stays shown, waiting, and keeps its place (mode, step)."""
        if self.waiting or self._settled:
            return
        self._focus_later = self.focused
        self.waiting = True
        self.set_class(True, "-waiting")
        self.remove_class("-paused")
        self._show_waiting()
        super().set_focus(None)

    def focus_target(self) -> Widget | None:
        """What takes focus when the user moves to the dialog: ``AUTO_FOCUS``, if it matches."""
        if self.AUTO_FOCUS:
            for widget in self.query(self.AUTO_FOCUS):
                if widget.focusable:
                    return widget
        return None

    def _show_waiting(self) -> None:
        if not self.waiting:
            words = STEPPED_IN_WORDS
        elif self.one_key.held is not None:
            words = HELD_WORDS
        else:
            words = READY_WORDS if self.ready else WAITING_WORDS
        for notice in self.query(".waiting-notice").results(Static):
            notice.update(words)

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        # While waiting nothing in the dialog may take focus (a focused list would take digits and
        # Enter): what asked for focus gets it when the user moves here.
        if self.waiting and widget is not None:
            self._focus_later = widget
            return
        super().set_focus(widget, scroll_visible=scroll_visible, from_app_focus=from_app_focus)

    async def key_ahead(self, event: events.Key) -> bool:
        """Hook: the modal's own keys, ahead of all the guard's handling below (True: taken, and stopped).

        A hook rather than a second `on_key`: Textual calls every class's `on_key` in the MRO, so a
        subclass's one that also called super() ran this one twice."""
        return False

    async def on_key(self, event: events.Key) -> None:
        if await self.key_ahead(event):
            return
        if self._settled:
            # Answered (or withdrawn) but still on top until it is popped: the keys typed right
            # after the answering key are the next words of the prompt, in order, never an answer
            # to the dialog that comes next (it opens waiting). Tab and Esc do nothing here.
            event.stop()
            event.prevent_default()
            self._type_below(event, keep=frozenset())
            return
        verdict = "no"
        if self.waiting and self.one_key.held is not None:
            held = self.one_key.release(event.key)
            if held is not None:  # typing after all: the held key goes to the prompt first
                self._type_key_below(held.key, held.character)
        elif self.waiting:
            verdict = self.one_key.answers(self.app, event.key, event.character)
            if verdict == "too soon":  # held: neither an answer nor a letter for the prompt, yet
                event.stop()
                event.prevent_default()
                return
        if verdict == "answer" and (action := key_actions(type(self)).get(event.key)) is not None:
            event.stop()
            event.prevent_default()
            self.step_in(guard=False)
            await self.run_action(action)
            return
        if event.key == STEP_IN_KEY:
            event.stop()
            event.prevent_default()
            if self.waiting and self._tab_for_menu():
                from claude_tui.ui.panels.prompt_typing import type_into_prompt

                type_into_prompt(self.app, event.key, None, any_key=True)
            elif self.waiting:
                self.step_in()
            else:
                self.step_out()
            return
        if self.waiting:
            # Nothing reaches the dialog's bindings: typing goes on in the prompt, the rest waits.
            event.stop()
            event.prevent_default()
            if event.key == "escape":
                self.escape_while_waiting()
            else:
                self._type_below(event)
            return
        # Keys no action binds (letters of a sentence) are swallowed by the guard too: after a Tab
        # that came here, a letter is no answer, and in the prompt it would be a stray letter.
        if self._swallow() and event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            return
        await self._run_binding(event)

    async def _run_binding(self, event: events.Key) -> None:
        """The key's binding runs now, in the order the keys came.

        Textual runs a binding once its key has bubbled up to the app, and by then the keys typed
        after it have been through `on_key` already: the keys after an answer met a dialog that had
        not answered yet, and were dropped (Tab, then ``yhello world``: "hello world" was lost). Run
        here, the answer settles the dialog before the next key arrives, which then goes on into the
        prompt. The binding is the one Textual would pick (`active_bindings`: the focused part's first)."""
        active = self.active_bindings.get(event.key)
        if active is None or active.binding.priority or not active.enabled:
            return  # nothing of the dialog's: as before, the app has its say
        if await self.app.run_action(active.binding.action, active.node):
            event.stop()
            event.prevent_default()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        # A click on a waiting dialog is a deliberate move to it (never an answer: the key bar's
        # actions still see keys_open() False until the guard falls, and re-arm it).
        if self.waiting and not self._settled and event.widget is not None and event.widget is not self:
            self.step_in()  # on the dialog itself: a click beside it (on the dimmed chat) is not a move

    def escape_while_waiting(self) -> None:
        """Esc while the modal waits: nothing by default (it is no answer, and nothing below may act)."""

    def _type_below(self, event: events.Key, keep: frozenset[str] | None = None) -> None:
        """The key goes on in the prompt (not the keys in `keep`: by default the dialog's own)."""
        self._type_key_below(event.key, event.character, keep)

    def _type_key_below(self, key: str, character: str | None, keep: frozenset[str] | None = None) -> None:
        from claude_tui.ui.panels.prompt_typing import type_into_prompt

        type_into_prompt(self.app, key, character, keep=own_keys(type(self)) if keep is None else keep)

    def _tab_for_menu(self) -> bool:
        """Tab completes in the prompt's open completion menu rather than moving here."""
        from claude_tui.ui.panels.prompt_typing import prompt_menu_open

        return prompt_menu_open(self.app)

    def on_paste(self, event: events.Paste) -> None:
        if self.waiting or self._settled:
            event.stop()
            from claude_tui.ui.panels.prompt_typing import paste_into_prompt

            if self.waiting and self.one_key.held is not None:
                held = self.one_key.release(None)
                if held is not None:  # a paste on its heels: it was typing, and it goes first
                    self._type_key_below(held.key, held.character)

            paste_into_prompt(self.app, event.text)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Subclasses hook in through resumed_settled/first_shown: a second on_screen_resume in a
        # subclass would also run (Textual calls each class's handler), in an order that matters here.
        if self._settled:
            self.resumed_settled()
            return
        if self.waiting:
            super().set_focus(None)  # Textual's AUTO_FOCUS ran first
        else:
            self.arm()
        if not self._shown:
            self._shown = True
            if self.waiting:
                self.one_key.get_ready(self.app)
            self.first_shown()

    def on_screen_suspend(self, event: events.ScreenSuspend) -> None:
        # Covered (the quit question, help): the first key after it comes back is no reply to how it
        # first appeared, so one key no longer answers; Tab does.
        self._not_ready()

    def resumed_settled(self) -> None:
        """Hook: the modal became active again after it was settled."""

    def first_shown(self) -> None:
        """Hook: the modal became the active screen for the first time (the guard is already up)."""

    def finish(self, result: ResultT) -> None:
        """Close with ``result`` (once; later calls are ignored)."""
        if self._settled:
            return
        self.settle()
        self.dismiss(result)

    def settle(self) -> None:
        """No key acts here any more: the focus leaves the dialog's parts (a focused list or text box
        would take the keys typed next), so they reach `on_key`, which passes them to the prompt."""
        self._settled = True
        super().set_focus(None)


class GuardedDialog(GuardedModal[PermissionDecision]):
    """Base of the three dialogs. Subclasses provide ``compose_body``, ``hints`` and the actions.

    The result is always a :class:`PermissionDecision`; :meth:`cancel` closes without one.
    """

    AUTO_FOCUS: ClassVar[str | None] = "#body"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Enter is bound to a no-op so it can never reach anything that approves; the permission
        # dialog makes it its highlighted choice (allow once), under the rules of its other keys.
        Binding("enter", "enter", show=False),
    ]
    DIALOG_CLASSES: ClassVar[str] = ""
    MARK_PAUSED: ClassVar[bool] = False  # "keys paused…" shows for as long as the guard is up

    def escape_while_waiting(self) -> None:
        # The chat's Esc, as the key bar below says: it closes the prompt's menu if one is open, else
        # interrupts the turn (the CLI then withdraws this request and the dialog closes). It answers
        # nothing itself, and prose cannot type it.
        from claude_tui.ui.panels.prompt_typing import escape_below

        escape_below(self.app)

    def __init__(
        self,
        request: PermissionRequest,
        *,
        position: int = 1,
        total: int = 1,
        guard_ms: int = DEFAULT_GUARD_MS,
        bell: bool = True,
        desktop: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(guard_ms=guard_ms, name=name, id=id, classes=classes)
        self.request = request
        self.bell = bell
        self.desktop = desktop
        self.position = position
        self.total = total
        self.cancel_reason: str | None = None
        """Set by :meth:`cancel`; the dialog then closes without calling the result callback."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        # Head and foot are docked: that is what lets the body shrink and scroll while
        # the key bar stays visible, yet the whole frame stays as small as its content.
        with Vertical(id="dialog", classes=f"dialog {self.DIALOG_CLASSES}".strip()):
            with Vertical(id="head"):
                yield from self.compose_head()
            with DialogBody(id="body"):
                yield from self.compose_body()
            with Vertical(id="foot"):
                yield Static("", id="overflow", markup=False)
                yield from self.compose_foot()
                yield waiting_notice(self.waiting)
                with Horizontal(id="keys"):
                    yield KeyBar(self.hints(), id="key-bar")
                    yield Static("keys paused…", classes="guard-notice", markup=False)

    def compose_head(self) -> ComposeResult:
        yield from ()

    def compose_body(self) -> ComposeResult:  # pragma: no cover - abstract
        yield from ()

    def compose_foot(self) -> ComposeResult:
        yield from ()

    def hints(self) -> list[Hint]:  # pragma: no cover - abstract
        return []

    def ends_with(self) -> str:
        """How the body's input ends ("the command ends: …"), said when the end is out of view; inert."""
        return ""

    @on(DialogBody.Moved)
    def _body_moved(self, event: DialogBody.Moved) -> None:
        self.call_after_refresh(self._say_overflow)

    def _say_overflow(self) -> None:
        # Under the body, above the keys: a command that goes on past the view says so, with its
        # last line, before anything can be allowed. Counted from what the screen shows of the
        # body: a dialog at its height limit can clip the body (or the foot cover it) with no
        # scrollbar at all.
        body = self.query_one("#body", DialogBody)
        foot = self.query_one("#foot")
        try:
            shown = self.find_widget(body).visible_region
            foot_top = self.find_widget(foot).region.y
        except NoWidget:
            return
        visible = max(0, min(shown.bottom, foot_top) - shown.y) if shown.height else 0
        below = body.rows_below(visible)
        note = self.query_one("#overflow", Static)
        lines = "1 more line" if below == 1 else f"{below:,} more lines"
        ends = self.ends_with()
        text = Content.assemble((f"↓ {lines} below (↓ PgDn scroll)", "bold"), *((" · ", ends) if ends else ()))
        if below > 0 and (not note.display or text.plain != self._overflow_said):
            note.update(text)
        self._overflow_said = text.plain if below > 0 else ""
        note.display = below > 0

    _overflow_said = ""

    def dialog_title(self) -> Content:  # pragma: no cover - abstract
        return Content("")

    def attention_text(self) -> str:
        """What the desktop notification says (reduced to a safe alphabet before sending)."""
        return f"permission needed for {self.request.tool_name}"

    def on_mount(self) -> None:
        # The one on_mount of the dialogs: Textual would also call a subclass's own on_mount (each class's
        # in the MRO), so a dialog's part goes in `mounted` instead, in a set order: the dialog's own first
        # render, then the frame's title and place in the queue (tests/unit/test_dialog_hooks.py).
        self.mounted()
        dialog = self.query_one("#dialog")
        dialog.border_title = self.dialog_title()
        self._show_position()

    def mounted(self) -> None:
        """Hook: the dialog's widgets are mounted; its own first render goes here (no super() needed)."""

    # ------------------------------------------------------------------ queue position

    def set_queue(self, position: int, total: int) -> None:
        """Show "position of total" (hidden when this is the only pending request)."""
        self.position, self.total = position, total
        if self.is_mounted:
            self._show_position()

    def set_total(self, total: int) -> None:
        """More requests arrived (or some were cancelled) behind this one."""
        self.set_queue(self.position, total)

    def _show_position(self) -> None:
        label = f"{self.position} of {self.total}" if self.total > 1 else ""
        for dialog in self.query("#dialog"):  # absent once the dialog is closing
            dialog.border_subtitle = Content(label)

    # ------------------------------------------------------------------ guard hooks

    def resumed_settled(self) -> None:
        if self.cancel_reason is not None:
            # Cancelled while another screen covered us: leave now, still without a decision.
            self._close_without_result()

    def first_shown(self) -> None:
        request_attention(self.app, self.attention_text(), bell=self.bell, desktop=self.desktop)

    # ------------------------------------------------------------------ ways out

    def decide(self, decision: PermissionDecision) -> None:
        """Close with ``decision`` (once; later calls are ignored)."""
        self.finish(decision)

    def cancel(self, reason: str = "") -> None:
        """Close WITHOUT a decision: the request was withdrawn or the CLI exited.

        The ``push_screen`` callback is not called. ``reason`` is kept in
        :attr:`cancel_reason` (the app shows any notice). Safe to call at any time:
        if another screen covers the dialog it closes as soon as it is uncovered,
        and a dialog that was never shown simply never acts.
        """
        if self._settled:
            return
        self.settle()
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

    _popped = False

    # ------------------------------------------------------------------ shared handlers

    def action_enter(self) -> None:
        """Enter alone approves nothing here (a subclass may make it its highlighted choice)."""

    @on(KeyBar.Pressed)
    async def _hint_pressed(self, event: KeyBar.Pressed) -> None:
        event.stop()
        await self.run_action(event.action)
