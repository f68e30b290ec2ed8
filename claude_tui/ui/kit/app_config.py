"""The app's `Config` for the parts no one hands it to: a dialog's typeahead guard, the help's keymap.

A context variable, as Posting keeps its settings: the app sets it as it is made, and everything
running in it reads it, typed, instead of asking the app for an attribute by name. It holds which app set it,
so a part under a test's own plain `App` gets the defaults, never another app's config.
"""

from __future__ import annotations

import weakref
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from claude_tui.config import Config

if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode

_CONFIG: ContextVar[tuple[weakref.ref[App[Any]], Config] | None] = ContextVar("claude_tui_config", default=None)
_DEFAULTS = Config()


def use_config(app: App[Any], config: Config) -> None:
    """``app`` runs with ``config`` (called by the app as it is made, and again if it changes)."""
    _CONFIG.set((weakref.ref(app), config))


def app_config(node: DOMNode) -> Config:
    """The config of the app ``node`` runs in; the defaults under an app that set none."""
    held = _CONFIG.get()
    if held is None:
        return _DEFAULTS
    app, config = held
    return config if app() is node.app else _DEFAULTS
