"""One of each: a key pressed again never stacks a second copy of the screen it opened.

Alt+O four times stacked four overviews (four Esc to get out), and the palette, which opens over
any screen, offers the commands that open it again. Every opener of such a screen asks here first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import App
from textual.screen import Screen

S = TypeVar("S", bound=Screen[Any])


def open_screen(app: App[Any], kind: type[S], where: Callable[[S], bool] | None = None) -> S | None:
    """The topmost open screen of `kind` (and `where`), or None."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, kind) and (where is None or where(screen)):
            return screen
    return None


def opened_before(app: App[Any], kind: type[S], *, where: Callable[[S], bool] | None = None,
                  toggle: bool = False) -> bool:
    """Whether a screen of `kind` is open already: the opener then opens none.

    With `toggle`, the key pressed again on that screen closes it, as Esc does (its result None),
    once it is mounted: one dismissed before its own mount ran would still run it, on widgets gone."""
    screen = open_screen(app, kind, where)
    if screen is None:
        return False
    if toggle and screen is app.screen and screen.is_mounted:
        screen.dismiss(None)
    return True
