"""The render boundary: no control character in a widget's output reaches the terminal.

Every line a widget draws passes through the app's line filters (`App.get_line_filters`, which
`Widget.get_line_filters` asks) on its way to the compositor: that is the one place all text
goes through, whatever the widget — the prompt box, a menu, a toast, a Textual widget we did not
write. `TerminalSafe` is such a filter. The sources still show controls as visible stand-ins
(`claude_tui.protocol.sanitize`); this is the net for what one of them forgets:

* C0, DEL, C1, the bidi controls and the line/paragraph separators are dropped. They were
  measured zero cells wide when the line was laid out, so dropping them keeps the layout (a
  visible stand-in here would push the line past its width);
* a lone surrogate (one cell wide) becomes U+FFFD: UTF-8 cannot encode it, and Textual's writer
  thread would fail on it;
* a hyperlink style is unset: we never make terminal links (Markdown links are click actions),
  and a link's address is written into an OSC 8 sequence as it is.

`leaks` counts the segments it had to clean, so tests can also prove that the sources did their
part (the net should rarely catch anything).
"""

from __future__ import annotations

import re

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from claude_tui.protocol.sanitize import CONTROL_CLASS, SURROGATE_CLASS

_UNSAFE = re.compile(f"{CONTROL_CLASS}|{SURROGATE_CLASS}|[\u2028\u2029]")
_SURROGATE = re.compile(SURROGATE_CLASS)
_ZERO_WIDTH_CONTROL = re.compile(f"{CONTROL_CLASS}|[\u2028\u2029]")


def terminal_safe(text: str) -> str:
    """`text` as a filter leaves it: zero-width controls dropped, lone surrogates as U+FFFD (same width)."""
    return _ZERO_WIDTH_CONTROL.sub("", _SURROGATE.sub("\ufffd", text))


class TerminalSafe(LineFilter):
    """Drops control characters (and terminal links) from every rendered segment, width unchanged."""

    def __init__(self) -> None:
        super().__init__()
        self.leaks = 0

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        cleaned: list[Segment] | None = None
        for index, segment in enumerate(segments):
            text, style, control = segment
            # str.isprintable is False for every Cc, Cf, Cs, Zl and Zp character: one C call per segment.
            if not control and (style is None or not style.link) and (text.isprintable()
                                                                    or _UNSAFE.search(text) is None):
                if cleaned is not None:
                    cleaned.append(segment)
                continue
            if cleaned is None:
                cleaned = list(segments[:index])
            self.leaks += 1
            text = terminal_safe(text)
            if style is not None and style.link:
                style = style.update_link(None)
            if text:
                cleaned.append(Segment(text, style))
        return segments if cleaned is None else cleaned
