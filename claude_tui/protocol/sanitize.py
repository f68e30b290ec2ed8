"""Make untrusted text inert for a terminal: no ESC, no C0/C1 controls, no bidi overrides."""

from __future__ import annotations

import re

__all__ = ["CONTROL_CLASS", "CONTROL_CLASS_BUT_LAYOUT", "printable", "needs_sanitizing", "one_line"]

#: Every character a terminal could act on, as a regex class: C0, DEL, C1, the bidi
#: embeddings/overrides (U+202A-U+202E) and isolates (U+2066-U+2069). Other layers build on it.
CONTROL_CLASS = r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
#: The same without \t and \n, which display as layout. \r stays in: a bare carriage return
#: can overwrite what is already on the line.
CONTROL_CLASS_BUT_LAYOUT = r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
_BAD = re.compile(CONTROL_CLASS_BUT_LAYOUT)


def _replacement(ch: str) -> str:
    o = ord(ch)
    if o < 0x20:
        return chr(0x2400 + o)  # U+2400..U+241F control pictures, e.g. ESC -> "␛"
    if o == 0x7F:
        return "\u2421"  # ␡
    if o <= 0x9F:
        return f"\\x{o:02x}"  # C1 has no control pictures
    return f"\\u{o:04x}"  # bidi controls shown by code point


_TABLE = {i: _replacement(chr(i)) for i in [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0),
                                             *range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def needs_sanitizing(text: str) -> bool:
    return _BAD.search(text) is not None


def printable(text: str) -> str:
    """Replace ESC, C0 (except \\n and \\t), DEL, C1 and bidi controls with visible stand-ins.

    Fast path: text with nothing to replace (the common case) is returned unchanged.
    """
    if text.isascii() and text.isprintable():
        return text
    if _BAD.search(text) is None:
        return text
    return text.translate(_TABLE)


def one_line(text: str | None) -> str:
    """Untrusted text as one inert line: `printable`, with every run of whitespace one space."""
    return " ".join(printable(text or "").split())
