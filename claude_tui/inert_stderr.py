"""Everything the command line writes to stderr is inert text.

Messages quote arguments, paths, environment values and file contents (argparse's own
"unrecognized arguments: …" among them); each source should already pass `printable`, and this is
the net under all of them, as `ui/kit/inert.py` is under the app's widgets: an ESC, BEL or other
control character written to `sys.stderr` reaches the terminal as a visible stand-in. The app's
own screen is untouched (Textual writes to ``sys.__stderr__``).
"""

from __future__ import annotations

import io
import sys
from typing import Any, TextIO, cast

from claude_tui.protocol.sanitize import printable


class InertStream(io.TextIOBase):
    """A text stream that writes ``printable(text)`` to the stream it wraps."""

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self.inner = inner

    def write(self, text: str) -> int:
        self.inner.write(printable(text))
        return len(text)

    def flush(self) -> None:
        self.inner.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    def __getattr__(self, name: str) -> Any:  # encoding, errors, reconfigure, buffer…
        return getattr(self.inner, name)


def install() -> None:
    """Wrap ``sys.stderr`` (once)."""
    if not isinstance(sys.stderr, InertStream) and sys.stderr is not None:
        sys.stderr = cast(TextIO, InertStream(sys.stderr))
