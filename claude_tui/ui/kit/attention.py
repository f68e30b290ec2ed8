"""Getting the user's attention when a dialog opens while the terminal is not focused.

The desktop notification is an OSC escape written straight to the terminal, so
its text is built only from a fixed sentence and a tool name reduced to a safe
alphabet: no untrusted byte (ESC, BEL, ``;`` separators, bidi controls) can ever
reach the terminal through it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from textual.app import App

NotifyStyle = Literal["osc9", "osc777"]

_UNSAFE = re.compile(r"[^A-Za-z0-9 _.:/()-]+")
LABEL_LIMIT = 48


def safe_label(text: str, limit: int = LABEL_LIMIT) -> str:
    """``text`` reduced to letters, digits and a few punctuation marks, at most ``limit`` long."""
    label = _UNSAFE.sub(" ", text.replace("mcp__", "").replace("__", " ")).strip()
    label = re.sub(r" {2,}", " ", label)
    return label[:limit].rstrip() or "a tool"


def notify_style(environ: Mapping[str, str] | None = None) -> NotifyStyle:
    """Which escape the terminal understands: OSC 777 for rxvt/foot/VTE terminals, else OSC 9.

    Sending both would show two notifications in terminals that speak both.
    """
    env = os.environ if environ is None else environ
    term = env.get("TERM", "")
    if term.startswith(("rxvt", "foot")) or env.get("VTE_VERSION"):
        return "osc777"
    return "osc9"


def notification_escape(title: str, body: str, style: NotifyStyle = "osc9") -> str:
    """The desktop-notification escape; ``title`` and ``body`` are reduced with :func:`safe_label`."""
    title = safe_label(title)
    body = safe_label(body, 120)
    if style == "osc777":
        return f"\x1b]777;notify;{title};{body}\x07"
    return f"\x1b]9;{title}: {body}\x07"


def request_attention(app: App[Any], body: str, *, bell: bool, desktop: bool) -> None:
    """Ring the bell and/or send a desktop notification, but only when the terminal is unfocused.

    ``body`` (e.g. "permission needed for Bash") is reduced to a safe alphabet.
    """
    if app.app_focus:
        return
    if bell:
        app.bell()
    if desktop:
        # Textual has no public "write an escape" API; App.bell() itself writes through
        # the driver. Headless drivers (tests) print nothing, like bell().
        driver = getattr(app, "_driver", None)
        if driver is not None and not app.is_headless:
            try:
                driver.write(notification_escape("Claude Code", body, notify_style()))
            except Exception:  # noqa: BLE001 - a notification must never break the app
                pass
