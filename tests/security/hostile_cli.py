"""A hostile stand-in for `claude`: the fake CLI, with escape sequences and markup in every name it reports.

Run as a script (the terminal-bytes harness writes an executable wrapper around it). It plays the
fake CLI's recordings, but its ``initialize`` response lists slash commands, agents and argument
hints whose names carry OSC 52/OSC 2/CSI/C1/BEL and Textual markup, its ``system/init`` reports
the same names, and every assistant text, tool input
(paths, commands, diffs, questions, permission requests) and tool result gets a hostile tail. The real CLI drops command names with
ESC, but passes markup (``we[@click=app.quit]ird``); a plugin or an older CLI may pass anything.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from claude_tui.fakecli import server  # noqa: E402

CLIP = "\x1b]52;c;UFdORUQtQlktQ0xJ\x07"  # base64 "PWNED-BY-CLI"
TITLE = "\x1b]2;PWNED-CLI-TITLE\x1b\\"
HOSTILE_NAMES = [
    f"clipcmd{CLIP}",
    f"titlecmd{TITLE}",
    "we[@click=app.quit]ird",
    "bellcmd\x07\x9b31m\x1bP1$qm\x1b\\",
    "newcmd\nline",
]
TAIL = f" tail{CLIP}{TITLE}\x1b[201~echo PASTEJACK\n\x1b[5n\x07\x1bP+q544e\x1b\\\x9d0;c1title\x9c"


def _taint(value: Any) -> Any:
    """Every string in a tool's input, with the hostile tail (paths, commands, diffs, questions)."""
    if isinstance(value, str):
        return value + TAIL
    if isinstance(value, list):
        return [_taint(v) for v in value]
    if isinstance(value, dict):
        return {k: _taint(v) for k, v in value.items()}
    return value


def _hostile(obj: dict[str, Any]) -> dict[str, Any]:
    request = obj.get("request") if obj.get("type") == "control_request" else None
    if isinstance(request, dict) and request.get("subtype") == "can_use_tool":
        request["input"] = _taint(request.get("input") or {})
        if isinstance(request.get("description"), str):
            request["description"] += TAIL
    response = (obj.get("response") or {}).get("response") if obj.get("type") == "control_response" else None
    if isinstance(response, dict) and "commands" in response:
        response["commands"] = [
            *({"name": name, "description": f"desc {name}", "argumentHint": f"<arg{TITLE}>"} for name in HOSTILE_NAMES),
            *response["commands"],
        ]
        response["agents"] = [{"name": f"agent{CLIP}", "description": f"agent desc{TITLE}"},
                              *(response.get("agents") or [])]
    if obj.get("type") == "system" and obj.get("subtype") == "init":
        obj["slash_commands"] = [*HOSTILE_NAMES, *(obj.get("slash_commands") or [])]
        obj["tools"] = [f"tool{CLIP}", *(obj.get("tools") or [])]
    if obj.get("type") == "assistant":
        for block in (obj.get("message") or {}).get("content") or []:
            if isinstance(block, dict) and block.get("type") == "text":
                block["text"] = str(block.get("text", "")) + TAIL
            if isinstance(block, dict) and block.get("type") == "tool_use":
                block["input"] = _taint(block.get("input") or {})
    if obj.get("type") == "user":
        for block in (obj.get("message") or {}).get("content") or []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                if isinstance(block.get("content"), str):
                    block["content"] += TAIL
                for part in block.get("content") if isinstance(block.get("content"), list) else []:
                    if isinstance(part, dict) and part.get("type") == "text":
                        part["text"] = str(part.get("text", "")) + TAIL
        result = obj.get("tool_use_result")
        if isinstance(result, dict) and isinstance(result.get("stdout"), str):
            result["stdout"] += TAIL
    return obj


_line = server.Writer.line


def _patched(self: server.Writer, text: str) -> None:
    # Every line, recorded or built, leaves through Writer.line.
    try:
        obj = json.loads(text)
    except ValueError:
        return _line(self, text)
    _line(self, json.dumps(_hostile(obj), separators=(",", ":"), ensure_ascii=False))


server.Writer.line = _patched  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(server.main())
