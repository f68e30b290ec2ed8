"""A keystroke is painted at once, not at Textual's next 60 Hz grid point.

Textual paints a screen from one timer on a 1/60 s grid: what is marked dirty right after a frame
waits for the next grid point. Each key typed soon after the last one's frame (a fast typist, a key
held down) waited 9-15 ms for its echo that way, against 3-4 ms after a pause; Claude Code echoes
in about 6. Here, when the screen has nothing to paint but prompts (no turn streaming, nothing else
changed), it paints at once. Anything else waiting (an answer streaming, the status bar, a layout
asked for by another widget) leaves the frame to the grid, so the streaming cadence is Textual's.

Textual keeps both the screen's dirty set and its paint private; they are read and called here
only (allow-listed in `tests/unit/test_no_private_textual.py`, held by `tests/pilot/test_key_frames.py`).
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widget import Widget


def paint_keystroke_now(screen: Screen[Any], prompt: type[Widget]) -> bool:
    """Paint `screen` now if the only widgets waiting for a frame are `prompt`s; True if it did."""
    dirty = screen._dirty_widgets
    if not dirty or not screen.is_current or not all(isinstance(widget, prompt) for widget in dirty):
        return False
    screen._on_timer_update()  # the grid's own paint: layout if asked for, the dirty regions, the cursor
    return True
