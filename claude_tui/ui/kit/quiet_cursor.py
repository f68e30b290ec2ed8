"""A text area whose cursor stops blinking when nobody types, so an idle app runs no timer.

Textual's `TextArea` blinks its cursor every 0.5 s for as long as it has focus: an
app left open at its prompt wakes twice a second for ever (each blink repaints the
cursor's line: ~2 ms, ~0.25 s of CPU a minute). As GTK's `cursor-blink-timeout`
does, the cursor here blinks for `BLINK_SECONDS` after the last edit, move or
focus, then stays on, solid; typing or moving it blinks it again.
"""

from __future__ import annotations

from textual import events, on
from textual.timer import Timer
from textual.widgets import TextArea

BLINK_SECONDS = 10.0
"""How long the cursor blinks after the last edit, move or focus (it may run up to twice this:
a restarted Textual timer waits for the end of the period it is in)."""


class QuietCursorTextArea(TextArea):
    """A `TextArea` whose cursor blinks only for a while after it was last used."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]  # TextArea's arguments, passed on as given
        self._blink_until: Timer | None = None
        """Stops the blinking; paused (no wake-ups) while the cursor is solid."""

    def on_mount(self) -> None:
        self._blink_until = self.set_interval(BLINK_SECONDS, self._stop_blinking)

    def _stop_blinking(self) -> None:
        if self._blink_until is not None:
            self._blink_until.pause()
        self.cursor_blink = False  # Textual pauses its blink timer and shows the cursor solid

    def _keep_blinking(self) -> None:
        if self._blink_until is None:
            return
        self._blink_until.reset()  # and resumes it
        if not self.cursor_blink:
            self.cursor_blink = True

    @on(TextArea.Changed)
    @on(TextArea.SelectionChanged)
    def _used(self) -> None:
        self._keep_blinking()

    def on_focus(self, event: events.Focus) -> None:
        self._keep_blinking()
