"""The bundled recordings (``scenarios/*.ndjson``), loaded and normalised.

Each file is what Claude Code 2.1.330 printed on stdout for one session:
line 0 answers ``initialize``, the rest is one turn (``system/init`` …
``result``). On load, the recording's session id is replaced by
`SESSION` so the player can substitute its own id everywhere.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from typing import Any

SESSION = "__FAKE_SESSION_ID__"

Line = dict[str, Any]


def _read(name: str) -> str:
    return resources.files("claude_tui.fakecli").joinpath("scenarios", f"{name}.ndjson").read_text("utf-8")


@functools.cache
def _load(name: str) -> tuple[Line, ...]:
    text = _read(name)
    lines = text.splitlines()
    init = json.loads(lines[1]) if len(lines) > 1 else {}
    sid = init.get("session_id")
    if sid:
        text = text.replace(sid, SESSION)
    return tuple(json.loads(line) for line in text.splitlines() if line.strip())


def load(name: str) -> list[Line]:
    """All lines of a recording (deep copies: callers may mutate)."""
    return copy.deepcopy(list(_load(name)))


def turn(name: str) -> list[Line]:
    """The turn part: from ``system/init`` to ``result``."""
    return load(name)[1:]


UNAVAILABLE = "No such tool available"


def _requesting(line: Line) -> bool:
    return line.get("type") == "system" and line.get("subtype") == "status" and line.get("status") == "requesting"


def _unavailable_result(line: Line) -> bool:
    content = (line.get("message") or {}).get("content") if line.get("type") == "user" else None
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" and UNAVAILABLE in json.dumps(b.get("content"))
        for b in content)


def without_unavailable_tools(lines: list[Line]) -> list[Line]:
    """``lines`` minus each API request whose only outcome was a call to a tool the recording CLI had
    off (TodoWrite: "No such tool available"): from its ``requesting`` status up to the next one.
    For the demo, whose CLI offers no such tool: a red error there would only confuse."""
    out = list(lines)
    while True:
        bad = next((i for i, line in enumerate(out) if _unavailable_result(line)), None)
        if bad is None:
            return out
        start = next((i for i in range(bad, -1, -1) if _requesting(out[i])), bad)
        end = next((i for i in range(bad + 1, len(out)) if _requesting(out[i]) or out[i].get("type") == "result"),
                   bad + 1)
        del out[start:end]


def init_response() -> Line:
    return load("text")[0]


def find(lines: list[Line], pred: Any) -> int:
    for i, line in enumerate(lines):
        if pred(line):
            return i
    raise LookupError("line not found in recording")


def is_(kind: str, subtype: str | None = None) -> Any:
    def pred(line: Line) -> bool:
        if line.get("type") != kind:
            return False
        if subtype is None:
            return True
        if kind == "stream_event":
            return (line.get("event") or {}).get("type") == subtype
        if kind == "control_request":
            return (line.get("request") or {}).get("subtype") == subtype
        return line.get("subtype") == subtype

    return pred


def template(name: str, pred: Any) -> Line:
    lines = load(name)
    return lines[find(lines, pred)]


def template_from(lines: list[Line], pred: Any) -> Line:
    return lines[find(lines, pred)]
