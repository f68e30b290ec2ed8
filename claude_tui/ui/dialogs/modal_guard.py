"""The guard a guarded modal owns (`base.py` GuardedModal): which key may act on the modal, when.

A plain object, not a base class: the screen makes one and hands every key, paste, click and
screen change to it. What the screen adds of its own (its keys ahead of the rules below, a hint
that follows the guard, what Esc does while it waits, what happens once it is first shown) is
given to the guard as functions when it is made, so no part of it hides behind an override.

Typing never answers
--------------------
Every guarded modal that waits opens *waiting*: it is shown, but it has no focus and takes no
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
The guard reads the clock it is given (`GuardedModal.clock`, ``time.monotonic``; tests replace it).
The timing rules themselves are `guard.py`'s `TypeaheadGuard` and `OneKey`, held here.

Keys after the answer
---------------------
A dialog moved to runs the binding of each key itself (`ModalGuard.key`), in the order the keys
came (Textual would run it once the key bubbled up to the app, after the keys typed behind it
had been dropped here). The answer settles the dialog at once; the keys after it — a burst
of ``yhello world`` — go on into the prompt, in order, until the dialog is gone. The next
request's dialog opens waiting, so none of them answers it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

from textual import events
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from claude_tui.ui.dialogs.guard import Clock, OneKey, TypeaheadGuard
from claude_tui.ui.kit.app_config import app_config

STEP_IN_KEY = "tab"
"""The one key that moves from the prompt to a waiting dialog (and back)."""
WAITING_WORDS = "Tab to answer · until then your typing goes to the prompt"
READY_WORDS = "Press a key to answer · typing anything else goes to the prompt"
STEPPED_IN_WORDS = "Tab back to the prompt"
HELD_WORDS = "Too quick to be an answer: Tab, then the key · typing goes to the prompt"

KeyAhead = Callable[[events.Key], Awaitable[bool]]
"""The screen's own keys, ahead of the guard's rules: True when it took the key (and stopped it)."""


@cache
def key_actions(modal: type[Screen[Any]]) -> dict[str, str]:
    """Each key of a modal's own bindings -> its action (a subclass's binding wins over its base's)."""
    actions: dict[str, str] = {}
    for cls in modal.__mro__:
        for binding in Binding.make_bindings(vars(cls).get("BINDINGS", [])):
            actions.setdefault(binding.key, binding.action)
    return actions


@cache
def own_keys(modal: type[Screen[Any]]) -> frozenset[str]:
    """The keys a modal's own bindings use (its answers, Back, Esc), from its class and its bases."""
    return frozenset(binding.key for cls in modal.__mro__ if "BINDINGS" in vars(cls)
                     for binding in Binding.make_bindings(vars(cls)["BINDINGS"]))


def waiting_notice(waiting: bool = True) -> Static:
    """The line that says how to reach a waiting dialog (its text follows the state)."""
    return Static(WAITING_WORDS if waiting else STEPPED_IN_WORDS, classes="waiting-notice", markup=False)


def _nothing() -> None:
    """No part of the screen's own to run here."""


async def _takes_none(event: events.Key) -> bool:
    return False


class ModalGuard:
    """The key rules of one modal screen (see the module docstring): waiting or moved to, settled
    or not, the typeahead guard and the one key; the screen's classes and notices follow them."""

    def __init__(self, screen: ModalScreen[Any], *, one_key: frozenset[str], clock: Clock,
                 guard_ms: int | None = None, waits: bool = True, mark_paused: bool = True,
                 key_ahead: KeyAhead | None = None, guard_changed: Callable[[bool], None] | None = None,
                 escape_waiting: Callable[[], None] | None = None, first_shown: Callable[[], None] | None = None,
                 ) -> None:
        """``guard_ms=None``: the app's ``Config.typeahead_guard_ms``. ``waits=False``: the modal opens
        moved to (the user's own command opened it: no Tab), its guard armed as it appears.
        ``mark_paused``: set ``-paused`` on a swallowed key (a class change restyles the screen: off
        where nothing shows it)."""
        self.screen = screen
        self.guard_ms = None if guard_ms is None else max(0, guard_ms)
        self.mark_paused = mark_paused
        self.key_ahead = key_ahead or _takes_none
        self.guard_changed = guard_changed
        """Told each time the guard is (re-)armed or falls, for hints TCSS cannot reach: on every key
        typed while armed, so it must stay cheap."""
        self.escape_waiting = escape_waiting or _nothing
        """Esc while the modal waits (by default nothing: it is no answer, and nothing below may act)."""
        self.first_shown = first_shown or _nothing
        """The modal became the active screen for the first time (the guard is already up)."""
        self.typeahead = TypeaheadGuard(screen, clock, self._show_guard)
        self.one_key = OneKey(screen, one_key, clock, self._ready_changed)
        """Appeared while the user was not typing: its first key may answer (``ONE_KEY``)."""
        self.settled = False
        """An answer was given (or the modal was cancelled): no key acts here any more."""
        self.shown = False
        """Set when the modal first becomes the active screen; keys before that never count."""
        self.waiting = waits
        """Shown without focus: typing goes to the prompt, no key answers (see the module docstring)."""
        self.focus_later: Widget | None = None
        """What the modal wanted focused while waiting: focused when the user moves to it."""
        screen.set_class(waits, "-waiting")
        screen.set_class(waits, "-waits")  # where it is placed: above the prompt, waiting or moved to

    # ------------------------------------------------------------------ the typeahead guard

    @property
    def armed(self) -> bool:
        return self.typeahead.armed

    def guard_length_ms(self) -> int:
        if self.guard_ms is not None:
            return self.guard_ms
        return max(0, app_config(self.screen).typeahead_guard_ms)

    def arm(self, guard_ms: int | None = None) -> None:
        """Ignore keys and clicks for ``guard_ms`` (default: the modal's guard) from now."""
        self.typeahead.arm(self.guard_length_ms() if guard_ms is None else guard_ms)

    def _show_guard(self, armed: bool) -> None:
        if not armed:
            self.screen.remove_class("-paused")
        self.screen.set_class(armed, "-armed")  # no-op (no restyle) when unchanged
        if self.guard_changed is not None:
            self.guard_changed(armed)

    def _swallow(self) -> bool:
        """A key or click arrived: if the guard is up, keep it up and report the key as swallowed."""
        if self.shown and not self.settled and not self.waiting and self.armed and self.screen.is_active:
            self.arm()
            if self.mark_paused:
                self.screen.add_class("-paused")
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
        return self.shown and not self.settled and not self.armed and self.screen.is_active

    # ------------------------------------------------------------------ waiting / moved to

    def step_in(self, guard: bool = True) -> None:
        """Move from the prompt to the dialog: focus its part, and arm the guard (unless a key that
        answers at once brought the user here, ``guard=False``)."""
        if not self.waiting or self.settled:
            return
        self.one_key.end()
        self.waiting = False
        self.screen.set_class(False, "-waiting")
        self._show_waiting()
        target, self.focus_later = self.focus_later, None
        if target is None or not target.is_attached or not target.focusable:
            target = self.focus_target()
        if target is not None:
            self.screen.set_focus(target)
        self.arm(None if guard else 0)

    def step_out(self) -> None:
        """Back to the prompt: the dialog stays shown, waiting, and keeps its place (mode, step)."""
        if self.waiting or self.settled:
            return
        self.focus_later = self.screen.focused
        self.waiting = True
        self.screen.set_class(True, "-waiting")
        self.screen.remove_class("-paused")
        self._show_waiting()
        self.screen.set_focus(None)

    def focus_target(self) -> Widget | None:
        """What takes focus when the user moves to the dialog: its ``AUTO_FOCUS``, if it matches."""
        if self.screen.AUTO_FOCUS:
            for widget in self.screen.query(self.screen.AUTO_FOCUS):
                if widget.focusable:
                    return widget
        return None

    def holds_focus(self, widget: Widget | None) -> bool:
        """While waiting nothing in the dialog may take focus (a focused list would take digits and
        Enter): what asked for focus is kept, and gets it when the user moves here."""
        if self.waiting and widget is not None:
            self.focus_later = widget
            return True
        return False

    def _ready_changed(self) -> None:
        self.screen.set_class(self.one_key.ready or self.one_key.held is not None, "-ready")
        self._show_waiting()

    def _show_waiting(self) -> None:
        if not self.waiting:
            words = STEPPED_IN_WORDS
        elif self.one_key.held is not None:
            words = HELD_WORDS
        else:
            words = READY_WORDS if self.one_key.ready else WAITING_WORDS
        for notice in self.screen.query(".waiting-notice").results(Static):
            notice.update(words)

    # ------------------------------------------------------------------ what the screen hands over

    async def key(self, event: events.Key) -> None:
        """A key reached the modal: the screen's own first, then the rules of the module docstring."""
        if await self.key_ahead(event):
            return
        if self.settled:
            # Answered (or withdrawn) but still on top until it is popped: the keys typed right
            # after the answering key are the next words of the prompt, in order, never an answer
            # to the dialog that comes next (it opens waiting). Tab and Esc do nothing here.
            event.stop()
            event.prevent_default()
            self._type_below(event.key, event.character, keep=frozenset())
            return
        verdict = "no"
        if self.waiting and self.one_key.held is not None:
            held = self.one_key.release(event.key)
            if held is not None:  # typing after all: the held key goes to the prompt first
                self._type_below(held.key, held.character)
        elif self.waiting:
            verdict = self.one_key.answers(self.screen.app, event.key, event.character)
            if verdict == "too soon":  # held: neither an answer nor a letter for the prompt, yet
                event.stop()
                event.prevent_default()
                return
        if verdict == "answer" and (action := key_actions(type(self.screen)).get(event.key)) is not None:
            event.stop()
            event.prevent_default()
            self.step_in(guard=False)
            await self.screen.run_action(action)
            return
        if event.key == STEP_IN_KEY:
            event.stop()
            event.prevent_default()
            if self.waiting and self._tab_for_menu():
                from claude_tui.ui.panels.prompt_typing import type_into_prompt

                type_into_prompt(self.screen.app, event.key, None, any_key=True)
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
                self.escape_waiting()
            else:
                self._type_below(event.key, event.character)
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
        active = self.screen.active_bindings.get(event.key)
        if active is None or active.binding.priority or not active.enabled:
            return  # nothing of the dialog's: as before, the app has its say
        if await self.screen.app.run_action(active.binding.action, active.node):
            event.stop()
            event.prevent_default()

    def mouse_down(self, event: events.MouseDown) -> None:
        # A click on a waiting dialog is a deliberate move to it (never an answer: the key bar's
        # actions still see keys_open() False until the guard falls, and re-arm it).
        if self.waiting and not self.settled and event.widget is not None and event.widget is not self.screen:
            self.step_in()  # on the dialog itself: a click beside it (on the dimmed chat) is not a move

    def _type_below(self, key: str, character: str | None, keep: frozenset[str] | None = None) -> None:
        """The key goes on in the prompt (not the keys in `keep`: by default the dialog's own)."""
        from claude_tui.ui.panels.prompt_typing import type_into_prompt

        type_into_prompt(self.screen.app, key, character, keep=own_keys(type(self.screen)) if keep is None else keep)

    def _tab_for_menu(self) -> bool:
        """Tab completes in the prompt's open completion menu rather than moving here."""
        from claude_tui.ui.panels.prompt_typing import prompt_menu_open

        return prompt_menu_open(self.screen.app)

    def paste(self, event: events.Paste) -> None:
        if self.waiting or self.settled:
            event.stop()
            from claude_tui.ui.panels.prompt_typing import paste_into_prompt

            if self.waiting and self.one_key.held is not None:
                held = self.one_key.release(None)
                if held is not None:  # a paste on its heels: it was typing, and it goes first
                    self._type_below(held.key, held.character)

            paste_into_prompt(self.screen.app, event.text)

    def resume(self) -> None:
        """The modal became the active screen (first shown, or uncovered), not settled."""
        if self.waiting:
            self.screen.set_focus(None)  # Textual's AUTO_FOCUS ran first
        else:
            self.arm()
        if not self.shown:
            self.shown = True
            if self.waiting:
                self.one_key.get_ready(self.screen.app)
            self.first_shown()

    def suspend(self) -> None:
        # Covered (the quit question, help): the first key after it comes back is no reply to how it
        # first appeared, so one key no longer answers; Tab does.
        self.one_key.end()

    def settle(self) -> None:
        """No key acts here any more: the focus leaves the dialog's parts (a focused list or text box
        would take the keys typed next), so they reach the guard, which passes them to the prompt."""
        self.settled = True
        self.screen.set_focus(None)
