"""When the keyboard last spoke, and what it said, per app: a dialog that appears reads it to tell
whether the user is typing.

The app notes every key and paste as it arrives (`ClaudeTuiApp.on_event`), with the dialogs' clock, so
a dialog compares like with like (and tests that drive that clock drive this record too).
"""

from __future__ import annotations

from typing import NamedTuple
from weakref import WeakKeyDictionary


class LastKey(NamedTuple):
    at: float
    key: str
    """The key's name ("enter", "y", …); "paste" for a paste."""
    seen: int
    """How many keys and pastes reached the app so far, this one included."""


_LAST: WeakKeyDictionary[object, LastKey] = WeakKeyDictionary()


def note_key(app: object, now: float, key: str) -> None:
    """A key (or a paste, ``key="paste"``) reached ``app`` at ``now``."""
    last = _LAST.get(app)
    _LAST[app] = LastKey(now, key, (last.seen if last is not None else 0) + 1)


def last_key(app: object) -> LastKey | None:
    """The last key or paste that reached ``app`` (None: none yet)."""
    return _LAST.get(app)
