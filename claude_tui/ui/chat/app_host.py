"""The running app as the parts above a chat see it: the palette, the browser, the help screen.

They are opened by the app but may not import it (the app imports them), and Textual hands them
only an `App`. The app registers itself here as an `AppHost` (mypy checks at that call that it is
one), and they ask `app_host(node)` instead of reaching into `self.app` by name. A registration
counts only for the app that made it, so a part running under a test's own plain `App` gets None.
"""

from __future__ import annotations

import weakref
from contextvars import ContextVar
from typing import TYPE_CHECKING, Protocol

from claude_tui.ui.chat.host import ChatHost

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from claude_tui.ui.chat.view import ChatView


class AppHost(ChatHost, Protocol):
    """`ChatHost` and what only the parts above a chat ask: the active tab's view, the version."""

    version: str

    @property
    def chat(self) -> ChatView | None:
        """The active tab's view (None before a chat screen is shown)."""
        ...


_HOST: ContextVar[weakref.ref[AppHost] | None] = ContextVar("claude_tui_app_host", default=None)


def register_app_host(host: AppHost) -> None:
    """Called by the app as it is made (``register_app_host(self)``): mypy checks it is an `AppHost`."""
    _HOST.set(weakref.ref(host))


def app_host(node: DOMNode) -> AppHost | None:
    """The app ``node`` runs in, as an `AppHost`; None under an app that registered none."""
    held = _HOST.get()
    host = held() if held is not None else None
    return host if host is not None and id(host) == id(node.app) else None  # the same object, whatever its type
