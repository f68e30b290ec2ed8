"""The two timing rules of a guarded modal (`base.py` GuardedModal, whose docstring says why):
the typeahead guard, and the one key that answers when the user is not typing.

Plain objects the modal holds, not a base class: each keeps its own state and tells the modal
what changed through the callback it was made with (the modal sets its classes and notices).
Both read the modal's clock late (tests replace `GuardedModal.clock`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple

from textual.app import App
from textual.message_pump import MessagePump
from textual.timer import Timer

QUIET_MS = 500
"""Not typing: no key reached the app for this long before the dialog appeared (see `base.py`)."""
REACT_MS = 250
"""Not typing: the first key came at least this long after the dialog appeared and the keys on their
way had arrived (no one reads a dialog and presses a key faster: a sooner key was typed blind)."""

Clock = Callable[[], float]

Verdict = Literal["answer", "too soon", "no"]
"""What the first key on a ready dialog is: its answer; an answer key that came too soon to be a
reply (held, see `OneKey.held`); or no answer (it goes to the prompt)."""


class HeldKey(NamedTuple):
    """An answer key that came too soon, kept out of the prompt until the next key says what it was."""

    key: str
    character: str | None


def prompt_empty(app: object) -> bool:
    """The chat prompt is there and holds no draft."""
    from claude_tui.ui.panels.prompt_typing import chat_prompt

    prompt = chat_prompt(app)  # type: ignore[arg-type]
    return prompt is not None and not prompt.text


def not_typing(app: object, now: float) -> bool:
    """The prompt is empty, and no key reached the app for ``QUIET_MS`` or the last was the Enter that
    sent a prompt (the user now waits for Claude) or a command key no text makes (Ctrl+Q that asked
    "quit?", F5): the first half of the rule."""
    from claude_tui.ui.kit.keyboard import last_key

    if not prompt_empty(app):
        return False
    last = last_key(app)
    return last is None or last.key == "enter" or is_command_key(last.key) or now - last.at >= QUIET_MS / 1000


_TEXT_CONTROLS = frozenset({"ctrl+j", "ctrl+m", "ctrl+i", "ctrl+h", "ctrl+@", "ctrl+space"})
"""Control keys that text itself produces (a line feed, a tab, a backspace in a paste without
bracketed paste, or keys batched over ssh): typing, not a command."""


def is_command_key(key: str) -> bool:
    """A key prose cannot produce: Ctrl+letter (bar the ones above), a function key."""
    if key in _TEXT_CONTROLS:
        return False
    return (key.startswith("ctrl+") and len(key) == 6) or (key[:1] == "f" and key[1:].isdigit())


class TypeaheadGuard:
    """Keys and clicks are swallowed for a while after the user moved to the modal (armed)."""

    def __init__(self, node: MessagePump, clock: Clock, changed: Callable[[bool], None]) -> None:
        self.node = node
        """The modal: its timer brings the guard down."""
        self.clock = clock
        self.changed = changed
        """Told when the guard goes up (again) or falls."""
        self._until = 0.0
        self._timer: Timer | None = None

    @property
    def armed(self) -> bool:
        return self.clock() < self._until

    def arm(self, ms: int) -> None:
        """Up for `ms` from now (0: down now)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if ms <= 0:
            self._until = 0.0
            self.changed(False)
            return
        self._until = self.clock() + ms / 1000
        self.changed(True)
        self._timer = self.node.set_timer(ms / 1000, self._disarm)

    def _disarm(self) -> None:
        self._timer = None
        remaining = self._until - self.clock()
        if remaining > 0:  # re-armed meanwhile (or a slow clock): check again later
            self._timer = self.node.set_timer(max(remaining, 0.05), self._disarm)
        else:
            self.changed(False)


class OneKey:
    """Whether the modal's first key may answer: it appeared while the user was not typing, the keys
    on their way had arrived, and this key is the only one since, ``REACT_MS`` after it appeared."""

    def __init__(self, node: MessagePump, keys: frozenset[str], clock: Clock, changed: Callable[[], None]) -> None:
        self.node = node
        """The modal: the second leg of the marker runs in its queue."""
        self.keys = keys
        """The keys that may answer at once (the modal's ``ONE_KEY``; empty: never ready)."""
        self.clock = clock
        self.changed = changed
        """Told when `ready` changes."""
        self.ready = False
        """Appeared while the user was not typing: its first key may answer."""
        self._ready_at: float | None = None
        """When the app had taken every key on its way as the dialog appeared (None: not yet)."""
        self._keys_before = 0
        """How many keys the app had taken by then (`kit/keyboard.py` counts them)."""
        self._keys_arrived_here = False
        """Those keys have reached the modal too (they count as typing, not as its first key)."""

    def get_ready(self, app: App[object]) -> None:
        """As the dialog first appears: may its first key answer?"""
        if not self.keys or not not_typing(app, self.clock()):
            return
        self.ready = True
        self.changed()
        # Keys already queued for the app are ahead of this marker, and once the app has taken them,
        # ahead of its second leg in the modal's queue: they reach its on_key first, and count as typing.
        # The times are the app's (its queue stays quick while the modal is busy mounting a preview).
        app.call_later(self._app_took_keys, app)

    def _app_took_keys(self, app: App[object]) -> None:
        from claude_tui.ui.kit.keyboard import last_key

        last = last_key(app)
        self._ready_at = self.clock()
        self._keys_before = last.seen if last is not None else 0
        self.node.call_later(self._keys_arrived)

    def _keys_arrived(self) -> None:
        self._keys_arrived_here = True

    def end(self) -> None:
        """No key answers at once any more (moved to, covered, or the first key came); a held key is
        dropped (the user moved to the dialog, or it was covered: no letter for the prompt)."""
        if self.ready or self.held is not None:
            self.ready = False
            self.held = None
            self.changed()

    def answers(self, app: App[object], key: str, character: str | None = None) -> Verdict:
        """What `key`, the first, is; it ends readiness either way (only the first decides)."""
        if not self.ready:
            return "no"
        from claude_tui.ui.kit.keyboard import last_key

        ready_at, arrived = self._ready_at, self._keys_arrived_here
        self.end()
        last = last_key(app)
        # This key must be the only one since the keys in flight (a second one already taken by the
        # app means typing), and come REACT_MS after the dialog appeared, by when the app took it.
        if key not in self.keys or ready_at is None or not arrived or last is None \
                or last.seen != self._keys_before + 1:
            return "no"
        if last.at - ready_at >= REACT_MS / 1000:
            return "answer"
        # A lone answer key on an idle keyboard, faster than anyone reads: no answer, yet no letter
        # for the prompt either (issue 27: a stray "y" in an empty prompt). The next key decides.
        self.held = HeldKey(key, character)
        self.changed()
        return "too soon"

    held: HeldKey | None = None
    """The too-soon key, until the next key (or a paste) comes (`release`)."""

    def release(self, key: str | None) -> HeldKey | None:
        """The next key (None: a paste) after a held one: returns the held key, which goes to the
        prompt first (it was typing), or None after Tab (the user moves to the dialog: prose never
        holds a Tab, so the held key was a reply, and no letter for the prompt). No key answers now:
        the held key counts as a draft (had it gone to the prompt, the dialog would wait for Tab), so
        a sentence begun blind, then paused over, cannot answer with its next letter."""
        held, self.held = self.held, None
        self.changed()
        return None if key == "tab" else held
