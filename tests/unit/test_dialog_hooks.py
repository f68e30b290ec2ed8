"""Each guarded modal handles a Textual event in one class only: its base's handler plus a hook.

Textual calls the handler of every class in the MRO (`on_mount`, `on_key` …), the subclass's
first, whether or not it calls super(). The base's handlers do the guard's part in an order that matters
(`base.py`), so a subclass hooks in through `mounted`, `key_ahead`, `first_shown`, `resumed_settled` instead; a second
handler would run too, in an order nobody chose.
"""

from __future__ import annotations

import importlib
import pkgutil

from textual import events

import claude_tui.ui
from claude_tui.ui.dialogs.base import GuardedModal

HANDLERS = ("on_mount", "on_screen_resume", "on_screen_suspend", "on_key", "on_paste", "on_mouse_down")
"""The events the guarded modals' base handles itself."""


def all_subclasses(cls: type) -> set[type]:
    found: set[type] = set()
    for sub in cls.__subclasses__():
        found |= {sub} | all_subclasses(sub)
    return found


def doubled_handlers(classes: set[type]) -> list[str]:
    """`Class.handler` for each handler a class of ours defines that another of its bases (ours) also defines."""
    doubled: list[str] = []
    for cls in sorted(classes, key=lambda c: c.__qualname__):
        ours = [base for base in cls.__mro__ if base.__module__.startswith("claude_tui")]
        for name in HANDLERS:
            if sum(name in vars(base) for base in ours) > 1 and name in vars(cls):
                doubled.append(f"{cls.__qualname__}.{name}")
    return doubled


def test_no_guarded_modal_handles_an_event_its_base_handles() -> None:
    for module in pkgutil.walk_packages(claude_tui.ui.__path__, "claude_tui.ui."):
        importlib.import_module(module.name)
    modals = all_subclasses(GuardedModal)
    assert len(modals) >= 8  # the dialogs and the small modals were found
    assert doubled_handlers(modals) == []


def test_the_check_can_fail() -> None:
    class Doubled(GuardedModal[None]):
        async def on_key(self, event: events.Key) -> None: ...

    Doubled.__module__ = "claude_tui.ui.example"
    assert doubled_handlers({Doubled}) == ["test_the_check_can_fail.<locals>.Doubled.on_key"]
