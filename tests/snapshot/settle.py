"""Wait for a screen to stop changing before its picture is taken.

Fixed pauses made snapshots flaky on a loaded machine: Markdown lays out
asynchronously, and 0.3 s was sometimes not enough. Instead, the screen is
rendered every few hundredths of a second until several renders in a row
agree (cursors are stopped first, or a blink would never agree).
"""

from __future__ import annotations

import time

from textual.pilot import Pilot
from textual.widgets import Input, TextArea


async def settle(pilot: Pilot, *, quiet: float = 0.15, timeout: float = 10.0) -> None:
    """Return once the screen has rendered the same for `quiet` seconds (at most `timeout`)."""
    app = pilot.app
    await pilot.pause()
    deadline = time.monotonic() + timeout
    last: str | None = None
    same_since = time.monotonic()
    while time.monotonic() < deadline:
        for screen in app.screen_stack:  # a prompt under a modal blinks too
            for field in screen.query(Input):
                field.cursor_blink = False
            for area in screen.query(TextArea):
                area.cursor_blink = False
        await pilot.wait_for_scheduled_animations()
        shot = app.export_screenshot()
        now = time.monotonic()
        if shot != last:
            last, same_since = shot, now
        elif now - same_since >= quiet:
            return
        await pilot.pause(0.03)
    raise AssertionError(f"the screen kept changing for {timeout} s")
