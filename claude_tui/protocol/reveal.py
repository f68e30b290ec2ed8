"""Text shown to be approved, with nothing that runs hidden in whitespace or invisible characters.

A permission dialog shows what a tool will run; what it shows must be all of it. `printable`
makes text inert, but a command of ``echo hello``, two hundred newlines and ``touch PWNED`` is
inert and still reads as ``echo hello``. `reveal` keeps every character that matters visible:

* a run of blank lines becomes one marker line saying how many (``⋯ 200 blank lines ⋯``);
* trailing whitespace shows as ``·`` (a long run as ``⟨N spaces⟩``), and so does a long run of
  whitespace inside a line, which would otherwise wrap into rows of nothing;
* a carriage return shows as ``␍`` (bash takes it as part of a word; a terminal moves back
  over the line with it), CRLF included;
* control, bidi and zero-width or other format characters show as stand-ins or code points;
* bytes that were not UTF-8 (lone surrogates) show as ``\\xNN``.

Markers are returned as spans so the UI styles them apart from the input's own text. Wrapping
long lines is the widget's job (the dialog wraps; nothing runs past the right edge).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from claude_tui.protocol.sanitize import printable

__all__ = ["LONG_RUN", "Revealed", "conceals", "escape_bytes", "reveal", "tail"]

LONG_RUN = 32
"""Whitespace runs longer than this inside a line are shown as a count (they would wrap into blank rows)."""
TAIL = 120
"""At most this many characters of a line are quoted as "ends with" (its end: that is what runs last)."""

_SURROGATES = re.compile("[\ud800-\udfff]")
_SPACE = re.compile(r"[^\S\r\n]+")
"""Whitespace inside a line (a \\r is no whitespace here: it shows as a glyph)."""


def _escape_surrogate(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def escape_bytes(text: str) -> str:
    """Bytes that were not UTF-8 (lone surrogates) shown as ``\\xNN``, readable and inert."""
    return _SURROGATES.sub(_escape_surrogate, text) if _SURROGATES.search(text) else text


def _invisible(ch: str) -> str | None:
    """A visible stand-in for a character that draws as nothing or acts on the terminal, else None."""
    if ch in "\t\n":
        return None
    if ch == "\r":
        return "␍"
    shown = printable(ch)
    if shown != ch:
        return shown
    if ch in "\u2028\u2029" or (ch != "\u00ad" and unicodedata.category(ch) == "Cf"):
        return f"\\u{ord(ch):04x}"  # zero-width spaces and joiners, LRM/RLM, BOM: there but unseen
    return None


@dataclass(frozen=True)
class Revealed:
    """What to show for an input: inert text, the spans of it that are markers, and facts about it."""

    text: str
    marks: tuple[tuple[int, int], ...]
    """(start, end) offsets in ``text`` of markers and stand-ins, not the input's own characters."""
    lines: int
    """Lines in the input (a final newline ends a line, it does not start one)."""
    last_line: str
    """The input's last line that is not blank, as shown (its end when it is long); "" if none."""


class _Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.marks: list[tuple[int, int]] = []
        self.length = 0

    def add(self, text: str, mark: bool = False) -> None:
        if not text:
            return
        if mark:
            self.marks.append((self.length, self.length + len(text)))
        self.parts.append(text)
        self.length += len(text)

    def add_plain(self, text: str) -> None:
        """Input text: characters that draw as nothing become marked stand-ins."""
        if text.isascii() and text.isprintable():
            self.add(text)
            return
        start = 0
        for index, ch in enumerate(text):
            stand_in = _invisible(ch)
            if stand_in is not None:
                self.add(text[start:index])
                self.add(stand_in, mark=True)
                start = index + 1
        self.add(text[start:])


def _spaces(run: str) -> str:
    return f"⟨{len(run):,} spaces⟩"


def _content_end(line: str) -> int:
    """Where ``line``'s trailing whitespace starts (a \\r is no whitespace here: it shows as ␍)."""
    end = len(line)
    while end and line[end - 1] != "\r" and line[end - 1].isspace():
        end -= 1
    return end


def _blank(line: str) -> bool:
    return _content_end(line) == 0


def _line(out: _Builder, line: str) -> None:
    end = _content_end(line)
    position = 0
    for match in _SPACE.finditer(line, 0, end):
        out.add_plain(line[position:match.start()])
        run = match.group()
        out.add(_spaces(run), mark=True) if len(run) > LONG_RUN else out.add_plain(run)
        position = match.end()
    out.add_plain(line[position:end])
    trailing = line[end:]
    if trailing:
        out.add(_spaces(trailing) if len(trailing) > LONG_RUN else "·" * len(trailing), mark=True)


def tail(line: str, limit: int = TAIL) -> str:
    """The end of a long line: what runs last is what must be read."""
    return line if len(line) <= limit else "…" + line[-(limit - 1):]


def reveal(text: str) -> Revealed:
    """``text`` (untrusted, multi-line) as it must be shown to be approved. Tabs are expanded to 4."""
    lines = escape_bytes(text).expandtabs(4).split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it starts no blank line of its own
    out = _Builder()
    last = (0, 0)
    index = 0
    while index < len(lines):
        if index:
            out.add("\n")
        if _blank(lines[index]):
            run_end = index
            while run_end < len(lines) and _blank(lines[run_end]):
                run_end += 1
            if run_end - index > 1:
                out.add(f"⋯ {run_end - index:,} blank lines ⋯", mark=True)
            else:
                _line(out, lines[index])
            index = run_end
            continue
        start = out.length
        _line(out, lines[index])
        last = (start, out.length)
        index += 1
    shown = "".join(out.parts)
    return Revealed(shown, tuple(out.marks), len(lines), tail(shown[last[0]:last[1]]))


_CONCEALING = re.compile(rf"\r|[^\S\r\n]{{{LONG_RUN + 1},}}|\n(?:[^\S\r\n]*\n){{8,}}")
"""What a plain view draws as nothing, or as rows of nothing: a carriage return, a long run of
spaces, more than eight blank lines in a row."""


def conceals(text: str) -> bool:
    """True when a plain view of ``text`` (a diff) could hide part of it: `reveal` must show it."""
    if _CONCEALING.search(text):
        return True
    return not text.isascii() and any(_invisible(ch) is not None for ch in text if ch not in "\t\n")
