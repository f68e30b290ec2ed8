"""Getting the user's attention when the terminal is not focused: bell and desktop notification."""

from __future__ import annotations

import re

from textual.app import App

# Only plain words reach the escape sequence: anything else could end the OSC
# early and smuggle a sequence of its own.
_SAFE = re.compile(r"[^A-Za-z0-9 .,:;!?()'/_-]")


def desktop_escape(title: str, body: str) -> str:
    """OSC 777 (urxvt/foot/WezTerm) and OSC 9 (iTerm2/kitty/Windows Terminal) notifications."""
    title = _SAFE.sub("", title)[:60]
    body = _SAFE.sub("", body)[:120]
    return f"\x1b]777;notify;{title};{body}\x1b\\\x1b]9;{title}: {body}\x1b\\"


def attention(app: App[object], message: str, *, bell: bool = True, desktop: bool = True) -> None:
    if bell:
        app.bell()
    if desktop:
        driver = getattr(app, "_driver", None)
        if driver is not None and hasattr(driver, "write"):
            try:
                driver.write(desktop_escape("claude-tui", message))
            except Exception:  # noqa: BLE001 - a notification must never break the app
                pass
