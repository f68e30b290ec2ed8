"""Vim mode for the prompt, as plain state: text + cursor + key in, text + cursor + mode out (no Textual).

The keys are the ones Claude Code's vim mode has: motions h j k l w b e 0 ^ $ gg G; operators
d c y with a motion, doubled (dd cc yy) or to the line's end (D C); p P x r u . and counts;
i a I A o O to insert. Insert mode leaves every key but Esc to the editor (`handled` False), as
does normal mode for keys it has no meaning for (arrows, Backspace); Enter is the adapter's: it
sends in either mode, as in Claude Code. Esc in normal mode is not handled either, so the view
can still interrupt a running turn with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

NORMAL = "normal"
INSERT = "insert"
_MOTIONS = set("hjklwbe0^$G")
_OPERATORS = set("dcy")
_LINEWISE_MOTIONS = set("jkG") | {"gg"}
_INCLUSIVE_MOTIONS = set("e$")


@dataclass(frozen=True)
class Outcome:
    text: str
    cursor: int
    mode: str
    handled: bool
    """False: the key is the editor's (insert mode, or no vim meaning): apply it as usual."""


def _kind(char: str) -> int:
    """0 blank, 1 word character, 2 other (vim's word classes)."""
    if char.isspace():
        return 0
    return 1 if char.isalnum() or char == "_" else 2


def line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def line_end(text: str, pos: int) -> int:
    """Index of the line's newline (or the text's end)."""
    found = text.find("\n", pos)
    return len(text) if found < 0 else found


def _first_blank_end(text: str, pos: int) -> int:
    start, end = line_start(text, pos), line_end(text, pos)
    index = start
    while index < end and text[index] in " \t":
        index += 1
    return index if index < end else max(start, end - 1) if end > start else start


def _clamp_normal(text: str, pos: int) -> int:
    """Normal mode sits on a character, never on a line's newline (an empty line excepted)."""
    pos = max(0, min(pos, len(text)))
    start, end = line_start(text, pos), line_end(text, pos)
    return max(start, min(pos, end - 1)) if end > start else start


def _word_forward(text: str, pos: int) -> int:
    if pos >= len(text):
        return len(text)
    kind = _kind(text[pos])
    if kind:
        while pos < len(text) and _kind(text[pos]) == kind:
            pos += 1
    while pos < len(text) and _kind(text[pos]) == 0:
        pos += 1
    return pos


def _word_end(text: str, pos: int) -> int:
    pos += 1
    while pos < len(text) and _kind(text[pos]) == 0:
        pos += 1
    if pos >= len(text):
        return max(0, len(text) - 1)
    kind = _kind(text[pos])
    while pos + 1 < len(text) and _kind(text[pos + 1]) == kind:
        pos += 1
    return pos


def _word_back(text: str, pos: int) -> int:
    pos -= 1
    while pos > 0 and _kind(text[pos]) == 0:
        pos -= 1
    if pos <= 0:
        return 0
    kind = _kind(text[pos])
    while pos > 0 and _kind(text[pos - 1]) == kind:
        pos -= 1
    return pos


def _line_starts(text: str) -> list[int]:
    return [0] + [i + 1 for i, char in enumerate(text) if char == "\n"]


def _line_index(text: str, pos: int) -> int:
    return text.count("\n", 0, pos)


def _vertical(text: str, pos: int, lines: int) -> int:
    starts = _line_starts(text)
    here = _line_index(text, pos)
    target = max(0, min(len(starts) - 1, here + lines))
    column = pos - starts[here]
    start = starts[target]
    return min(start + column, line_end(text, start))


def _motion(text: str, pos: int, motion: str, count: int, has_count: bool) -> int:
    """Where `motion` (repeated `count` times) takes the cursor from `pos`."""
    if motion == "h":
        return max(line_start(text, pos), pos - count)
    if motion == "l":
        return min(line_end(text, pos), pos + count)
    if motion in "jk":
        return _vertical(text, pos, count if motion == "j" else -count)
    if motion == "0":
        return line_start(text, pos)
    if motion == "^":
        return _first_blank_end(text, pos)
    if motion == "$":
        target = _vertical(text, pos, count - 1) if count > 1 else pos
        return max(line_start(text, target), line_end(text, target) - 1)
    if motion in ("gg", "G"):
        starts = _line_starts(text)
        line = (count - 1 if has_count else 0) if motion == "gg" else (count - 1 if has_count else len(starts) - 1)
        return _first_blank_end(text, starts[max(0, min(len(starts) - 1, line))])
    step = {"w": _word_forward, "e": _word_end, "b": _word_back}[motion]
    for _ in range(count):
        pos = step(text, pos)
    return pos


@dataclass
class VimMachine:
    """One prompt's vim state: mode, pending keys, the register, undo and the last change."""

    mode: str = INSERT
    register: str = ""
    linewise: bool = False
    _pending: str = ""
    _undo: list[tuple[str, int]] = field(default_factory=list)
    _change: list[str] = field(default_factory=list)
    _last_change: list[str] = field(default_factory=list)
    _last_insert: str = ""
    _insert_from: tuple[str, int] | None = None
    _replaying: bool = False

    @property
    def pending(self) -> str:
        """Keys typed towards a command not yet complete (a count, `d`, `g`, `r`)."""
        return self._pending

    def reset(self) -> None:
        """Back to insert mode with nothing pending (vim mode turned off and on, a prompt sent)."""
        self.mode = INSERT
        self._pending = ""
        self._insert_from = None

    def feed(self, text: str, cursor: int, key: str) -> Outcome:
        """Apply one key: a printable character, or a key name ("escape")."""
        if self.mode == INSERT:
            if key != "escape":
                return Outcome(text, cursor, INSERT, False)
            self._end_insert(text, cursor)
            self.mode = NORMAL
            return Outcome(text, _clamp_normal(text, max(line_start(text, cursor), cursor - 1)), NORMAL, True)
        if key == "escape":
            had = bool(self._pending)
            self._pending = ""
            return Outcome(text, cursor, NORMAL, had)
        if key == "backspace":  # moves left in normal mode, never deletes
            key = "h"
        if len(key) != 1:
            self._pending = ""
            return Outcome(text, cursor, NORMAL, False)
        return self._normal(text, cursor, key)

    # -- normal mode ---------------------------------------------------------------------------
    def _normal(self, text: str, cursor: int, key: str) -> Outcome:
        keys = self._pending + key
        self._pending = ""  # `.` replays keys through here
        result = self._run(text, cursor, keys)
        if result is None:  # incomplete: wait for the next key
            self._pending = keys
            return Outcome(text, cursor, NORMAL, True)
        self._pending = ""
        new_text, new_cursor, changed = result
        if changed and not self._replaying:
            self._last_change = list(keys)
            if self.mode == INSERT:
                self._last_insert = ""
        if self.mode == NORMAL:
            new_cursor = _clamp_normal(new_text, new_cursor)
        return Outcome(new_text, new_cursor, self.mode, True)

    def _run(self, text: str, cursor: int, keys: str) -> tuple[str, int, bool] | None:
        """(text, cursor, changed) for a complete command, None while it is incomplete."""
        digits = 0
        while digits < len(keys) and keys[digits].isdigit() and not (digits == 0 and keys[0] == "0"):
            digits += 1
        count_text, rest = keys[:digits], keys[digits:]
        if not rest:
            return None
        has_count = bool(count_text)
        count = int(count_text) if has_count else 1
        head = rest[0]
        if head == "g":
            if len(rest) < 2:
                return None
            if rest[1] != "g":
                return text, cursor, False
            return text, _motion(text, cursor, "gg", count, has_count), False
        if head in _MOTIONS:
            return text, _motion(text, cursor, head, count, has_count), False
        if head == "r":
            if len(rest) < 2:
                return None
            return self._replace(text, cursor, rest[1], count)
        if head in _OPERATORS:
            return self._operator(text, cursor, head, rest[1:], count, has_count)
        if head in "DC":
            return self._operator(text, cursor, "d" if head == "D" else "c", "$", count, has_count)
        if head == "x":
            if cursor >= line_end(text, cursor):
                return text, cursor, False
            return self._operator(text, cursor, "d", "l", count, has_count)
        if head in "pP":
            return self._put(text, cursor, head, count)
        if head == "u":
            return self._undo_once(text, cursor)
        if head == ".":
            return self._repeat(text, cursor)
        if head in "iaIAoO":
            return self._insert(text, cursor, head)
        return text, cursor, False  # no meaning here: swallowed, never typed into the prompt

    def _save(self, text: str, cursor: int) -> None:
        if not self._undo or self._undo[-1][0] != text:
            self._undo.append((text, cursor))
            del self._undo[:-100]

    def _replace(self, text: str, cursor: int, char: str, count: int) -> tuple[str, int, bool]:
        end = line_end(text, cursor)
        if char == "escape" or cursor + count > end:
            return text, cursor, False
        self._save(text, cursor)
        return text[:cursor] + char * count + text[cursor + count:], cursor + count - 1, True

    def _operator(self, text: str, cursor: int, op: str, motion_keys: str, count: int,
                  has_count: bool) -> tuple[str, int, bool] | None:
        digits = 0
        while digits < len(motion_keys) and motion_keys[digits].isdigit() and not (
                digits == 0 and motion_keys[0] == "0"):
            digits += 1
        if digits:
            count *= int(motion_keys[:digits])
            has_count = True
            motion_keys = motion_keys[digits:]
        if not motion_keys:
            return None
        motion = motion_keys
        if motion == "g":
            return None
        if motion == op:  # dd cc yy
            return self._lines(text, cursor, op, _line_index(text, cursor), _line_index(text, cursor) + count - 1)
        if motion not in _MOTIONS and motion != "gg":
            return text, cursor, False
        if motion in _LINEWISE_MOTIONS:
            target = _motion(text, cursor, motion, count, has_count)
            first, last = sorted((_line_index(text, cursor), _line_index(text, target)))
            return self._lines(text, cursor, op, first, last)
        if op == "c" and motion == "w" and cursor < len(text) and _kind(text[cursor]):
            motion = "e"  # vim's cw changes to the word's end, sparing the blank after it
        target = _motion(text, cursor, motion, count, has_count)
        if motion == "w" and cursor < line_end(text, cursor) < target:
            target = line_end(text, cursor)  # dw on a line's last word keeps the newline, as in vim
        start, end = sorted((cursor, target))
        if motion in _INCLUSIVE_MOTIONS:
            end = min(len(text), end + 1)
        if motion == "l":
            end = min(end, line_end(text, cursor))
        self.register, self.linewise = text[start:end], False
        if op == "y":
            return text, start, False
        self._save(text, cursor)
        new_text = text[:start] + text[end:]
        if op == "c":
            self._begin_insert(new_text, start)
        return new_text, start, True

    def _lines(self, text: str, cursor: int, op: str, first: int, last: int) -> tuple[str, int, bool]:
        starts = _line_starts(text)
        last = min(last, len(starts) - 1)
        start = starts[first]
        end = line_end(text, starts[last])
        self.register, self.linewise = text[start:end] + "\n", True
        if op == "y":
            return text, cursor, False
        self._save(text, cursor)
        if op == "c":
            indent = start
            while indent < end and text[indent] in " \t":
                indent += 1
            new_text = text[:indent] + text[end:]
            self._begin_insert(new_text, indent)
            return new_text, indent, True
        if end < len(text):
            new_text = text[:start] + text[end + 1:]
        else:  # the last line: its newline before goes with it
            start = max(0, start - 1)
            new_text = text[:start] + text[end:]
            start = line_start(new_text, start)
        return new_text, _first_blank_end(new_text, min(start, len(new_text))), True

    def _put(self, text: str, cursor: int, where: str, count: int) -> tuple[str, int, bool]:
        if not self.register:
            return text, cursor, False
        self._save(text, cursor)
        if self.linewise:
            body = self.register * count
            if where == "p":
                at = line_end(text, cursor)
                new_text = text[:at] + "\n" + body[:-1] + text[at:]
                return new_text, at + 1, True
            at = line_start(text, cursor)
            return text[:at] + body + text[at:], at, True
        body = self.register * count
        at = cursor + 1 if where == "p" and cursor < line_end(text, cursor) else cursor
        return text[:at] + body + text[at:], at + len(body) - 1, True

    def _undo_once(self, text: str, cursor: int) -> tuple[str, int, bool]:
        while self._undo:
            before, at = self._undo.pop()
            if before != text:
                return before, at, False
        return text, cursor, False

    def _repeat(self, text: str, cursor: int) -> tuple[str, int, bool]:
        if not self._last_change:
            return text, cursor, False
        self._replaying = True
        try:
            for key in self._last_change:
                outcome = self._normal(text, cursor, key)
                text, cursor = outcome.text, outcome.cursor
            if self.mode == INSERT:
                text = text[:cursor] + self._last_insert + text[cursor:]
                cursor += len(self._last_insert)
                self._insert_from = None
                self.mode = NORMAL
                cursor = max(line_start(text, cursor), cursor - 1)
        finally:
            self._replaying = False
        return text, cursor, True

    def _insert(self, text: str, cursor: int, how: str) -> tuple[str, int, bool]:
        start, end = line_start(text, cursor), line_end(text, cursor)
        if how == "i":
            at = cursor
        elif how == "a":
            at = min(cursor + 1, end)
        elif how == "I":
            at = _first_blank_end(text, cursor)
            at = at if at < end and text[at] not in " \t" else end
        elif how == "A":
            at = end
        else:
            self._save(text, cursor)
            at = end if how == "o" else start
            text = text[:at] + "\n" + text[at:]
            at = at + 1 if how == "o" else at
            self._begin_insert(text, at)
            return text, at, True
        self._save(text, cursor)
        self._begin_insert(text, at)
        return text, at, True

    def _begin_insert(self, text: str, at: int) -> None:
        self.mode = INSERT
        self._insert_from = (text, at)

    def _end_insert(self, text: str, cursor: int) -> None:
        """What was typed since the insert began, for `.` (when it was plain typing at one place)."""
        if self._insert_from is None:
            return
        before, at = self._insert_from
        self._insert_from = None
        grown = len(text) - len(before)
        if grown >= 0 and cursor == at + grown and text[:at] == before[:at] and text[cursor:] == before[at:]:
            if not self._replaying:
                self._last_insert = text[at:cursor]
