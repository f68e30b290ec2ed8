"""Make untrusted text inert for a terminal: no ESC, no C0/C1 controls, no bidi overrides.

One rule for every character that reaches the screen or the clipboard, whatever its source
(the CLI, the model, file names, command names, history, the user's own paste):

* `printable` — text shown as text: controls become visible stand-ins (ESC -> "␛"); newline and
  tab stay, as layout.
* `printable_name` — a name shown on one row (a file, a command): newline and tab too become
  stand-ins, so `new\nline.txt` is one row.
* `prompt_text` — what the prompt box may hold: `printable`, with CR/CRLF as newlines.
* `clipboard_text` — what a copy carries: escape sequences removed whole (they are formatting, and
  `\x1b[201~` would end a bracketed paste early), the rest as `printable`.

The UI adds a last net at its render boundary (`claude_tui.ui.kit.inert`), which drops whatever
control character a widget still let through.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["CONTROL_CLASS", "CONTROL_CLASS_BUT_LAYOUT", "clipboard_text", "inert_json", "needs_sanitizing", "one_line",
           "printable", "printable_name", "prompt_text", "typed_stand_in"]

#: Every character a terminal could act on, as a regex class: C0, DEL, C1, the bidi
#: embeddings/overrides (U+202A-U+202E) and isolates (U+2066-U+2069). Other layers build on it.
CONTROL_CLASS = r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
#: The same without \t and \n, which display as layout. \r stays in: a bare carriage return
#: can overwrite what is already on the line.
CONTROL_CLASS_BUT_LAYOUT = r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
#: Lone surrogates: a Node CLI that cuts its output inside an emoji prints one; UTF-8 cannot encode
#: it, so written to the terminal it would raise in Textual's writer thread.
SURROGATE_CLASS = r"[\ud800-\udfff]"
_BAD = re.compile(f"{CONTROL_CLASS_BUT_LAYOUT}|{SURROGATE_CLASS}")
_BAD_IN_NAME = re.compile(f"{CONTROL_CLASS}|{SURROGATE_CLASS}|[\u2028\u2029]")


def _replacement(ch: str) -> str:
    o = ord(ch)
    if o < 0x20:
        return chr(0x2400 + o)  # U+2400..U+241F control pictures, e.g. ESC -> "␛"
    if o == 0x7F:
        return "\u2421"  # ␡
    if o <= 0x9F:
        return f"\\x{o:02x}"  # C1 has no control pictures
    if 0xD800 <= o <= 0xDFFF:
        return "\ufffd"  # a lone surrogate: the replacement character, as a lenient decoder shows it
    return f"\\u{o:04x}"  # bidi controls (and, in names, line/paragraph separators) shown by code point


_TABLE = {i: _replacement(chr(i)) for i in [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0),
                                             *range(0x202A, 0x202F), *range(0x2066, 0x206A),
                                             *range(0xD800, 0xE000)]}
_NAME_TABLE = {**_TABLE, **{i: _replacement(chr(i)) for i in (0x09, 0x0A, 0x2028, 0x2029)}}


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


def printable_name(text: str) -> str:
    """A name (file, path, command) as one inert row: `printable`, and newline, tab and the Unicode
    line/paragraph separators shown as stand-ins too (``new\\nline.txt`` -> ``new␊line.txt``)."""
    if text.isascii() and text.isprintable():
        return text
    if _BAD_IN_NAME.search(text) is None:
        return text
    return text.translate(_NAME_TABLE)


def prompt_text(text: str) -> str:
    """What the prompt box holds and sends: `printable`, with CRLF and a lone CR as newlines (a
    pasted Windows text), so the prompt shows exactly what goes to the CLI."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return printable(text)


# ESC or C1 introducers of the sequences a terminal acts on: CSI (params, intermediates, final),
# OSC/DCS/SOS/PM/APC strings up to BEL or ST (a cut one only to the end of its line), and
# the two-character ESC sequences.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[\x20-\x7e]?"
)


def clipboard_text(text: str) -> str:
    """What a copy may carry: no ESC, no C0/C1 control but newline and tab, so never a bracketed-paste
    end marker (``\\x1b[201~``) that would let pasted text run in a shell.

    Escape sequences go whole (colours in tool output are formatting, not text); any other control
    left shows as its stand-in, as on the screen; CRLF and CR become newlines.
    """
    if text.isascii() and text.isprintable():
        return text
    if "\x1b" in text or any("\x90" <= ch <= "\x9f" for ch in text):
        text = _SEQUENCE.sub("", text)
    return prompt_text(text)


def one_line(text: str | None) -> str:
    """Untrusted text as one inert line: `printable`, with every run of whitespace one space."""
    return " ".join(printable(text or "").split())


_JSON_RAW_CONTROLS = re.compile(f"[\x7f-\x9f\u202a-\u202e\u2066-\u2069]|{SURROGATE_CLASS}")
"""What `json.dumps` leaves raw of `CONTROL_CLASS` (it escapes C0 itself; JSON's own newlines are C0)."""


def inert_json(text: str) -> str:
    """JSON from `json.dumps(..., ensure_ascii=False)` with C1, bidi controls and lone surrogates
    escaped as well: the same data, and text that is inert wherever it is printed."""
    return _JSON_RAW_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def typed_stand_in(character: str | None) -> str | None:
    """What the prompt inserts for a typed character that draws as nothing — a bidi control, a
    zero-width or other format character, a line or paragraph separator — so it is neither dropped
    unseen nor held invisible: its stand-in as `printable` shows it (``\\u202e``), else its code point.
    None for every other key (C0 controls are keys, not text)."""
    if character is None or len(character) != 1 or character.isprintable():
        return None
    if unicodedata.category(character) not in ("Cf", "Zl", "Zp"):
        return None
    shown = printable(character)
    return shown if shown != character else f"\\u{ord(character):04x}"
