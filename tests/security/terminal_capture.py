"""Run claude-tui in a pseudo-terminal and keep every byte it writes to it; judge those bytes.

`PtyApp` starts ``python -m claude_tui`` on a pty (Textual's real Linux driver, not the
headless one), sends keys as a terminal would and records the exact output. `audit` splits the
output into escape sequences and text and returns every sequence Textual would not write itself:

* CSI: only the shapes Textual uses (SGR colours, cursor position, its mode switches, the kitty
  keyboard and DECRQM queries); a CSI from the content (``ESC[5n`` asks the terminal to answer,
  ``ESC[2J`` clears it) is not among them;
* OSC: only 22 (pointer shape, a plain word), and 52 only where the test made a copy, with a
  base64 payload that decodes to clean text (`copies` returns them); no title (0/1/2), no link (8);
* DCS, SOS, PM, APC (``ESC P``, ``ESC X``, ``ESC ^``, ``ESC _``), other ESC pairs, C1 characters
  (a UTF-8 terminal may act on U+009B as CSI) and C0 controls other than CR, LF and BS: never.
"""

from __future__ import annotations

import base64
import fcntl
import os
import pty
import re
import signal
import struct
import sys
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_MAIN = "import sys; from claude_tui.cli import main; sys.exit(main())"

# Textual's own sequences, by shape: SGR (m), cursor position (H), modes (?…h/l), kitty keyboard
# (>…u, <u), DECRQM (?…$p), and the synchronized-update mode set/reset (?2026h/l) among the modes.
_CSI_ALLOWED = re.compile(r"\x1b\[(?:[0-9;:]*m|[0-9]*;?[0-9]*H|\?[0-9;]+[hl]|>[0-9]*u|<u|\?[0-9]+\$p)")
_CSI = re.compile(r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]")
_CSI_OPEN = re.compile(r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*")
_OSC_END = re.compile(r"\x07|\x1b\\")
_OSC = re.compile(r"\x1b\](\d*);([^\x07\x1b]*)(?:\x07|\x1b\\)")
_BAD_C0 = re.compile(r"[\x00-\x07\x09\x0b-\x0c\x0e-\x1a\x1c-\x1f\x7f]")  # all but BS, LF, CR and ESC
_C1 = re.compile(r"[\x80-\x9f]")

KEYS = {
    "enter": b"\r", "tab": b"\t", "up": b"\x1b[A", "down": b"\x1b[B", "escape": b"\x1b", "f1": b"\x1bOP",
    "f2": b"\x1bOQ", "f4": b"\x1bOS", "f5": b"\x1b[15~", "f8": b"\x1b[19~", "backspace": b"\x7f", "left": b"\x1b[D",
    **{f"ctrl+{chr(c)}": bytes([c - 96]) for c in range(ord("a"), ord("z") + 1)},
}


_DIRTY_COPY = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]|\x1b|\[20[01]~")


def dirty_copy(text: str) -> bool:
    """A copy must be clean text: no ESC, no C0/C1 control but newline and tab, no bracketed-paste marker."""
    return _DIRTY_COPY.search(text) is not None


@dataclass
class Audit:
    bad: list[str] = field(default_factory=list)
    copies: list[str] = field(default_factory=list)
    text: str = ""
    """The output with every escape sequence taken out: the characters the terminal was asked to draw."""


def audit(output: str, copying: bool = False, partial: bool = False) -> Audit:
    """`copying`: the span holds copies we asked for (Ctrl+Y …); elsewhere any OSC 52 is an attack.
    `partial`: the output is still being read, so a sequence cut at its end is not judged yet."""
    result = Audit()
    text: list[str] = []
    i = 0
    while i < len(output):
        ch = output[i]
        if ch != "\x1b":
            if _BAD_C0.match(ch):
                result.bad.append(f"raw C0 {ch!r} at {i}: …{output[max(0, i - 40):i + 20]!r}")
            elif _C1.match(ch):
                result.bad.append(f"C1 {ch!r} at {i}: …{output[max(0, i - 40):i + 20]!r}")
            text.append(ch)
            i += 1
            continue
        nxt = output[i + 1:i + 2]
        if partial and (not nxt or (nxt == "[" and _CSI_OPEN.fullmatch(output, i))
                        or (nxt == "]" and not _OSC_END.search(output, i))):
            break
        if nxt == "[":
            match = _CSI.match(output, i)
            if match is None:
                result.bad.append(f"broken CSI at {i}: {output[i:i + 30]!r}")
                i += 2
                continue
            if not _CSI_ALLOWED.fullmatch(match.group()):
                result.bad.append(f"CSI Textual does not write: {match.group()!r}")
            i = match.end()
        elif nxt == "]":
            match = _OSC.match(output, i)
            if match is None:
                result.bad.append(f"malformed OSC at {i}: {output[i:i + 60]!r}")
                i += 2
                continue
            number, body = match.groups()
            if number == "22" and re.fullmatch(r"[a-z-]*", body):
                pass
            elif number == "52" and body.startswith("c;") and copying:
                try:
                    copied = base64.b64decode(body[2:], validate=True).decode("utf-8")
                except ValueError:
                    result.bad.append(f"OSC 52 with a bad payload: {body[:60]!r}")
                else:
                    result.copies.append(copied)
                    if dirty_copy(copied):
                        result.bad.append(f"OSC 52 with a dirty payload: {copied[:200]!r}")
            else:
                result.bad.append(f"OSC {number}: {match.group()[:80]!r}")
            i = match.end()
        else:
            result.bad.append(f"ESC {nxt!r} (DCS/SOS/PM/APC or other) at {i}: {output[i:i + 30]!r}")
            i += 2
    result.text = "".join(text)
    return result


class PtyApp:
    """claude-tui on a pty of `cols` x `rows`, its output kept whole."""

    def __init__(self, args: list[str], env: dict[str, str], cols: int = 120, rows: int = 40) -> None:
        self.args = args
        self.env = env
        self.cols, self.rows = cols, rows
        self._out = bytearray()
        self._lock = threading.Lock()
        self.pid = 0
        self.fd = -1

    def start(self) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its terminal
            try:
                fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", self.rows, self.cols, 0, 0))
                os.chdir(ROOT)
                os.execve(sys.executable, [sys.executable, "-c", _MAIN, *self.args], self.env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self._out += data

    @property
    def raw(self) -> bytes:
        with self._lock:
            return bytes(self._out)

    def output(self) -> str:
        return self.raw.decode("utf-8", "strict")

    def mark(self) -> int:
        return len(self.raw)

    def since(self, mark: int) -> str:
        return self.raw[mark:].decode("utf-8", "replace")

    def send(self, *keys: str, text: str | None = None, pause: float = 0.15) -> None:
        for key in keys:
            os.write(self.fd, KEYS[key])
            time.sleep(pause)  # a lone ESC is only a key once nothing follows it
        if text is not None:
            os.write(self.fd, text.encode("utf-8"))
            time.sleep(pause)

    def paste(self, text: str) -> None:
        os.write(self.fd, b"\x1b[200~" + text.encode("utf-8") + b"\x1b[201~")
        time.sleep(0.2)

    def wait_text(self, predicate: Callable[[str], bool], what: str, since: int = 0, timeout: float = 30,
                  copying: bool = False) -> str:
        """Poll the text drawn since `since` until `predicate` holds; every poll also audits those bytes."""
        deadline = time.monotonic() + timeout
        while True:
            result = audit(self.since(since), copying=copying, partial=True)
            assert not result.bad, (f"while waiting for {what}, the app wrote sequences Textual does not:\n"
                                    + "\n".join(result.bad[:20]))
            shown = result.text
            if predicate(shown):
                return shown
            if not self.alive():
                raise AssertionError(f"claude-tui exited while waiting for {what}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; drawn:\n{shown[-3000:]}")
            time.sleep(0.05)

    def alive(self) -> bool:
        try:
            done, _ = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return False
        return done == 0

    def stop(self, timeout: float = 15) -> None:
        """Ctrl+Q, then wait; a SIGKILL (of this pid only) if it does not end."""
        if self.alive():
            try:
                self.send("ctrl+q")
            except OSError:
                pass
        deadline = time.monotonic() + timeout
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        time.sleep(0.2)  # the reader drains what is left
        os.close(self.fd)
