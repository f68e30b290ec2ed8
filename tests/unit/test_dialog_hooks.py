"""Each guarded modal handles the guard's Textual events in one class only: GuardedModal's.

Textual calls the handler of every class in the MRO (`on_key`, `on_screen_resume` …), the subclass's
first, whether or not it calls super(). GuardedModal hands those events to the `ModalGuard` it owns
(`modal_guard.py`), whose rules run in an order that matters, so a modal gives the guard its own part
as a function when it is made (`key_ahead=`, `guard_changed=`) instead; a second handler would run
too, in an order nobody chose. `on_mount` is each modal's own (GuardedModal has none).
"""

from __future__ import annotations

import importlib
import pkgutil

from textual import events

import claude_tui.ui
from claude_tui.ui.dialogs.base import GuardedModal

HANDLERS = ("on_mount", "on_screen_resume", "on_screen_suspend", "on_key", "on_paste", "on_mouse_down")
"""The events a base of ours might handle (GuardedModal: all but `on_mount`)."""


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


def levels_of_ours(cls: type) -> int:
    """How many classes of ours a screen is made of (itself included)."""
    return sum(base.__module__.startswith("claude_tui") for base in cls.__mro__)


def test_every_dialog_is_two_levels_of_ours_at_most() -> None:
    # A dialog is a GuardedModal and itself: what they share is the guard it owns and the frame it
    # composes, not a base between them. (The manage screens keep ManageScreen, their template: ui/manage.)
    for module in pkgutil.walk_packages(claude_tui.ui.__path__, "claude_tui.ui."):
        importlib.import_module(module.name)
    dialogs = {cls for cls in all_subclasses(GuardedModal)
               if cls.__module__.startswith("claude_tui.ui.dialogs.") or cls.__name__ == "ElicitationScreen"}
    assert len(dialogs) >= 8
    assert {cls.__qualname__: levels_of_ours(cls) for cls in dialogs if levels_of_ours(cls) > 2} == {}


def test_the_levels_count_can_fail() -> None:
    class Middle(GuardedModal[None]): ...

    class Concrete(Middle): ...

    Middle.__module__ = Concrete.__module__ = "claude_tui.ui.dialogs.example"
    assert levels_of_ours(Concrete) == 3
