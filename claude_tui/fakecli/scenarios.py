"""Scenarios built from the recordings, and the keyword table picking them.

Every scenario is real recorded output. Two are stitched from recorded lines
rather than played verbatim: ``welcome`` (the plain-text turn with the demo
help text streamed through its recorded delta/assistant/result lines) and
``slow`` (the interrupt-stream recording's word-by-word stream, continued to
an end the recording never reached because it was interrupted).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from dataclasses import dataclass, field

from claude_tui.fakecli import recordings as rec
from claude_tui.fakecli.recordings import Line, is_

WELCOME_TEXT = """\
# Welcome to the claude-tui demo

This is a **fake Claude Code** replaying real recordings: no account, no network, \
nothing on disk changes. Put one of these words in a message to see a feature:

| word | what you get |
|---|---|
| `bash` | a Bash command that asks for permission |
| `edit` or `diff` | an Edit with a diff |
| `write` / `overwrite` | a new file / a replaced file |
| `ask` or `question` | an AskUserQuestion dialog (`multiq`: two questions) |
| `plan` | a plan to approve (ExitPlanMode) |
| `think` | extended thinking |
| `agent` | a background subagent |
| `tasks` | the task list |
| `story` | a slow answer you can interrupt |
| `long` | a very long streamed answer |
| `escape` | hostile escape sequences and markup, shown inert |
| `/cost`, `/context` | slash commands |
"""


@dataclass
class Scenario:
    name: str
    lines: list[Line]  # played first; ends after a can_use_tool (+ its stream tail) if any
    allow: list[Line] = field(default_factory=list)  # continuation after "allow"
    deny: list[Line] | None = None  # recorded continuation after "deny" (else synthesized)
    delay_factor: float = 1.0
    min_delay: float = 0.0  # seconds per delta even when FAKE_CLAUDE_DELAY_MS=0

    @property
    def asks_permission(self) -> bool:
        return any(is_("control_request", "can_use_tool")(line) for line in self.lines)

    def copy(self) -> Scenario:
        return copy.deepcopy(self)


def _split(turn: list[Line]) -> tuple[list[Line], list[Line]]:
    """Cut after the can_use_tool and the stream events that followed it
    (those were streaming concurrently and do not depend on the answer)."""
    i = rec.find(turn, is_("control_request", "can_use_tool")) + 1
    while i < len(turn) and turn[i].get("type") == "stream_event":
        i += 1
    return turn[:i], turn[i:]


def _recorded(name: str, recording: str, **kw: float) -> Scenario:
    turn = rec.turn(recording)
    if os.environ.get("FAKE_CLAUDE_DEMO"):
        turn = rec.without_unavailable_tools(turn)
    if any(is_("control_request", "can_use_tool")(line) for line in turn):
        before, after = _split(turn)
        return Scenario(name, before, after, **kw)  # type: ignore[arg-type]
    return Scenario(name, turn, **kw)  # type: ignore[arg-type]


def _tool_id(lines: list[Line]) -> str:
    return str(rec.template_from(lines, is_("control_request", "can_use_tool"))["request"]["tool_use_id"])


def _bash() -> Scenario:
    sc = _recorded("bash", "bash-allow")
    _, deny = _split(rec.turn("bash-deny"))
    deny_tool = _tool_id(rec.turn("bash-deny"))
    text = json.dumps(deny).replace(deny_tool, _tool_id(sc.lines))
    sc.deny = json.loads(text)
    return sc


def _stream_text(name: str, base: list[Line], deltas_upto: int, chunks: list[str], **kw: float) -> Scenario:
    """``base[:deltas_upto]`` then one delta line per chunk (cloned from the
    last recorded delta), then the recorded assistant/stop/result lines of
    the plain-text turn carrying the full text."""
    text_turn = rec.turn("text")
    head = base[:deltas_upto]
    delta_tpl = [ln for ln in head if is_("stream_event", "content_block_delta")(ln)][-1]
    out = [ln for ln in head]
    for chunk in chunks:
        d = copy.deepcopy(delta_tpl)
        d["event"]["delta"]["text"] = chunk
        out.append(d)
    full = "".join(line["event"]["delta"]["text"] for line in out if is_("stream_event", "content_block_delta")(line))
    i = rec.find(text_turn, is_("assistant"))
    assistant = copy.deepcopy(text_turn[i])
    assistant["message"]["content"][0]["text"] = full
    msg_id = next(ln for ln in head if is_("stream_event", "message_start")(ln))["event"]["message"]["id"]
    tail = [assistant, *copy.deepcopy(text_turn[i + 1 :])]
    for ln in tail:
        if "message" in ln and isinstance(ln["message"], dict) and ln.get("type") == "assistant":
            ln["message"]["id"] = msg_id
        if "api_message_id" in ln:
            ln["api_message_id"] = msg_id
        if ln.get("type") == "result":
            ln["result"] = full
            ln["begun_message_ids"] = [msg_id]
    return Scenario(name, out + tail, **kw)  # type: ignore[arg-type]


def _welcome() -> Scenario:
    turn = rec.turn("text")
    first_delta = rec.find(turn, is_("stream_event", "content_block_delta"))
    words = re.findall(r"\S+\s*", WELCOME_TEXT)
    chunks = ["".join(words[i : i + 3]) for i in range(0, len(words), 3)]
    scenario = _stream_text("welcome", turn, first_delta + 1, chunks)
    # The recorded turn's own first delta ("Hello! ") stays as the delta template;
    # blank it so the welcome text is the whole answer.
    first = next(ln for ln in scenario.lines if is_("stream_event", "content_block_delta")(ln))
    recorded = first["event"]["delta"]["text"]
    first["event"]["delta"]["text"] = ""
    for ln in scenario.lines:
        if ln.get("type") == "assistant":
            ln["message"]["content"][0]["text"] = ln["message"]["content"][0]["text"][len(recorded):]
        elif ln.get("type") == "result":
            ln["result"] = str(ln.get("result", ""))[len(recorded):]
    return scenario


def _slow(words: int = 240) -> Scenario:
    turn = rec.turn("interrupt-stream")
    last_delta = max(i for i, ln in enumerate(turn) if is_("stream_event", "content_block_delta")(ln))
    recorded = sum(1 for ln in turn[: last_delta + 1] if is_("stream_event", "content_block_delta")(ln))
    chunks = [f"word{n} " for n in range(recorded, words)]
    return _stream_text("slow", turn, last_delta + 1, chunks, min_delay=0.05)


@functools.cache
def _table() -> dict[str, Scenario]:
    table = {
        "plain": _recorded("plain", "text"),
        "think": _recorded("think", "thinking"),
        "bash": _bash(),
        "edit": _recorded("edit", "edit-allow"),
        "write": _recorded("write", "write-create"),
        "overwrite": _recorded("overwrite", "write-overwrite"),
        "ask": _recorded("ask", "ask-single"),
        "multiq": _recorded("multiq", "ask-multi"),
        "plan": _recorded("plan", "plan-exit"),
        "agent": _recorded("agent", "subagent"),
        "tasks": _recorded("tasks", "tasks"),
        "longstream": _recorded("longstream", "long-stream", delay_factor=0.2),
        "escape": _recorded("escape", "untrusted-text"),
        "max-turns": _recorded("max-turns", "max-turns"),
        "cost": _recorded("cost", "slash-cost"),
        "context": _recorded("context", "slash-context"),
        "slow": _slow(),
        "welcome": _welcome(),
    }
    return table


def get(name: str) -> Scenario:
    return _table()[name].copy()


def names() -> list[str]:
    return list(_table())


# `kw:NAME` words used when recording (exact), then friendly demo words,
# checked in this order so that e.g. "overwrite" is not taken for "write".
KW_ALIASES = {"subagent": "agent", "maxturns": "max-turns", "long": "longstream", "story": "slow", "text": "plain"}
FRIENDLY: list[tuple[str, tuple[str, ...]]] = [
    ("multiq", ("multiq", "questions")),
    ("overwrite", ("overwrite", "replace")),
    ("write", ("write", "create")),
    ("edit", ("edit", "diff")),
    ("bash", ("bash", "shell", "command", "run")),
    ("ask", ("ask", "question")),
    ("plan", ("plan",)),
    ("think", ("think", "thinking", "reason")),
    ("agent", ("agent", "subagent")),
    ("tasks", ("tasks", "task", "todo", "todos")),
    ("slow", ("story", "slow")),
    ("longstream", ("long", "longstream")),
    ("escape", ("escape", "untrusted", "ansi")),
    ("max-turns", ("maxturns",)),
    ("plain", ("plain", "echo")),
]
SLASH = {"/cost": "cost", "/context": "context", "/usage": "cost"}


def pick(text: str) -> str:
    """The scenario name for a user message."""
    low = text.lower()
    for m in re.finditer(r"kw:([a-z-]+)", low):
        word = KW_ALIASES.get(m.group(1), m.group(1))
        if word in _table():
            return word
    stripped = low.strip()
    if stripped.startswith("/"):
        cmd = stripped.split()[0]
        if cmd in SLASH:
            return SLASH[cmd]
    words = set(re.findall(r"[a-z]+", low))
    for name, triggers in FRIENDLY:
        if words.intersection(triggers):
            return name
    return "welcome"
