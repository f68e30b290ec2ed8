"""Playing one scenario: id rewriting, per-line rendering, interrupt/deny synthesis.

A `Play` owns the remaining lines of the current turn. Rendering makes every
replay look like a fresh one from a real CLI: one session id per process,
fresh uuids/timestamps, fresh ``toolu_…``/``msg_…`` ids per play (the app keys
tool calls by id, so replaying "bash" twice must not collide), cumulative cost.
"""

from __future__ import annotations

import copy
import datetime as _dt
import itertools
import json
import re
import secrets
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from claude_tui.fakecli import recordings as rec
from claude_tui.fakecli.recordings import SESSION, Line, is_
from claude_tui.fakecli.scenarios import Scenario

RECORDED_CWD = "/home/user/project"
_TOOLU = re.compile(r"toolu_[A-Za-z0-9_]+")
_MSG = re.compile(r"\bmsg_\d+\b")
_msg_counter = itertools.count(1000)


@dataclass
class SessionState:
    session_id: str
    model: str = "claude-opus-5-5"
    permission_mode: str = "default"
    cwd: str = ""
    cost: float = 0.0


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


_COST_LINE = re.compile(r"((?:Estimated|Total) cost:\s*)\$[0-9.,]+")


def turn_cost(result: Line) -> float:
    """What this recorded turn cost on its own (recordings are fresh sessions,
    but use the per-result breakdown when present to be safe)."""
    since = result.get("model_usage_since_last_result")
    if isinstance(since, dict) and since:
        return float(sum(float(v.get("costUSD") or 0) for v in since.values() if isinstance(v, dict)))
    return float(result.get("total_cost_usd") or 0)


@dataclass
class Play:
    scenario: Scenario
    state: SessionState
    lines: deque[Line] = field(default_factory=deque)
    waiting: str | None = None  # request_id of the can_use_tool we wait on
    permission: Line | None = None  # that (rendered) request
    ids: dict[str, str] = field(default_factory=dict)
    message_id: str | None = None  # current api message id (rendered)
    in_message: bool = False
    block_open: bool = False
    block_text: list[str] = field(default_factory=list)
    requests: int = 0  # API requests so far this turn (for --max-turns)

    def __post_init__(self) -> None:
        self.lines = deque(self.scenario.lines)

    # -- rendering ---------------------------------------------------------
    def _map(self, pattern_id: str, fresh: str) -> str:
        return self.ids.setdefault(pattern_id, fresh)

    def render(self, line: Line) -> str:
        obj = copy.deepcopy(line)
        st = self.state
        kind = obj.get("type")
        if "uuid" in obj:
            obj["uuid"] = str(uuid.uuid4())
        if "timestamp" in obj:
            obj["timestamp"] = now_iso()
        if kind == "system" and obj.get("subtype") == "init":
            obj["model"] = st.model
            obj["permissionMode"] = st.permission_mode
            if st.cwd:
                obj["cwd"] = obj["original_cwd"] = st.cwd
        elif kind == "system" and obj.get("subtype") == "status" and obj.get("permissionMode"):
            st.permission_mode = obj["permissionMode"]
        elif kind == "assistant" and obj.get("message", {}).get("model") == "<synthetic>":
            # /cost was recorded in a fresh session ($0.0000): say what this session has cost.
            for block in obj["message"].get("content") or ():
                if isinstance(block, dict) and isinstance(block.get("text"), str):
                    block["text"] = _COST_LINE.sub(lambda m: f"{m.group(1)}${st.cost:.4f}", block["text"])
        elif kind == "assistant" and obj.get("message", {}).get("model") not in (None, "<synthetic>"):
            obj["message"]["model"] = st.model
        elif kind == "stream_event" and (obj.get("event") or {}).get("type") == "message_start":
            obj["event"]["message"]["model"] = st.model
        elif kind == "result":
            st.cost = round(st.cost + turn_cost(obj), 10)
            obj["total_cost_usd"] = st.cost
        elif kind == "control_request":
            obj["request_id"] = self._map("req:" + obj["request_id"], str(uuid.uuid4()))
        text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
        text = text.replace(SESSION, st.session_id)
        if st.cwd:
            # Recordings were made in /home/user/project: point them at the real cwd
            # so diff previews and paths make sense where the fake runs.
            text = text.replace(RECORDED_CWD, json.dumps(st.cwd)[1:-1])
        text = _TOOLU.sub(lambda m: self._map(m.group(0), "toolu_01" + secrets.token_hex(11)), text)
        text = _MSG.sub(lambda m: self._map(m.group(0), f"msg_{next(_msg_counter)}"), text)
        self._track(json.loads(text) if kind in ("stream_event", "control_request") else obj)
        return text

    def _track(self, obj: Line) -> None:
        """Follow the stream so an interrupt can close it like the CLI does."""
        kind = obj.get("type")
        if kind == "stream_event":
            ev = obj.get("event") or {}
            et = ev.get("type")
            if et == "message_start":
                self.in_message, self.message_id = True, ev["message"]["id"]
            elif et == "message_stop":
                self.in_message = False
            elif et == "content_block_start":
                self.block_open, self.block_text = True, []
            elif et == "content_block_stop":
                self.block_open = False
            elif et == "content_block_delta" and (ev.get("delta") or {}).get("type") == "text_delta":
                self.block_text.append(ev["delta"]["text"])
        elif kind == "control_request" and (obj.get("request") or {}).get("subtype") == "can_use_tool":
            self.waiting, self.permission = obj["request_id"], obj

    # -- continuations -----------------------------------------------------
    @property
    def tool_use_id(self) -> str:
        return str(((self.permission or {}).get("request") or {}).get("tool_use_id") or "")

    @property
    def tool_name(self) -> str:
        return str(((self.permission or {}).get("request") or {}).get("tool_name") or "")

    def _recorded_tool_id(self) -> str:
        """The recording's tool id behind the rendered one (reverse map)."""
        for k, v in self.ids.items():
            if v == self.tool_use_id:
                return k
        return self.tool_use_id

    def allow(self, updated_input: dict[str, Any] | None) -> None:
        self.waiting = None
        cont = copy.deepcopy(self.scenario.allow)
        answers = (updated_input or {}).get("answers")
        if isinstance(answers, dict) and self.tool_name == "AskUserQuestion":
            for line in cont:
                if _is_tool_result(line, self._recorded_tool_id()):
                    pairs = ", ".join(f'"{q}"="{a}"' for q, a in answers.items())
                    line["message"]["content"][0]["content"] = (
                        f"Your questions have been answered: {pairs}. You can now continue with these answers in mind."
                    )
                    if isinstance(line.get("tool_use_result"), dict):
                        line["tool_use_result"]["answers"] = answers
                    break
        self.lines.extend(cont)

    def deny(self, message: str) -> None:
        self.waiting = None
        recorded_id = self._recorded_tool_id()
        if self.scenario.deny is not None:
            cont = copy.deepcopy(self.scenario.deny)
        else:
            # The recorded Bash deny line, re-aimed at this tool, replaces
            # the allow path's tool_result; a plan approval's mode switch goes.
            tpl = rec.template(
                "bash-deny", lambda ln: ln.get("type") == "user" and isinstance(ln.get("tool_use_result"), str)
            )
            cont = []
            replaced = False
            for line in copy.deepcopy(self.scenario.allow):
                if not replaced and line.get("type") == "system" and line.get("permissionMode"):
                    continue
                if not replaced and _is_tool_result(line, recorded_id):
                    line = copy.deepcopy(tpl)
                    replaced = True
                cont.append(line)
        for line in cont:
            if _is_tool_result(line, None):
                block = line["message"]["content"][0]
                block["content"], block["tool_use_id"] = message, recorded_id
                line["tool_use_result"] = f"Error: {message}"
                for meta in line.get("tool_result_meta") or []:
                    meta["id"] = recorded_id
                break
        self.lines.extend(cont)

    def interrupt_lines(self, cancelled: bool) -> list[Line]:
        """What the CLI prints after an interrupt (the interrupt's own
        control_response is emitted by the caller, first)."""
        if self.waiting is not None:
            tpl = rec.load("interrupt-permission")
            rejected = copy.deepcopy(tpl[rec.find(tpl, lambda ln: _is_tool_result(ln, None))])
            recorded_id = self._recorded_tool_id()
            rejected["message"]["content"][0]["tool_use_id"] = recorded_id
            for meta in rejected.get("tool_result_meta") or []:
                meta["id"] = recorded_id
            note = tpl[rec.find(tpl, _text_user("[Request interrupted by user for tool use]"))]
            result = tpl[rec.find(tpl, is_("result"))]
            self.waiting = None
            return [rejected, note, result]
        tpl = rec.load("interrupt-stream")
        out: list[Line] = []
        if self.block_text:
            aborted = tpl[rec.find(tpl, is_("assistant"))]
            aborted["message"]["content"][0]["text"] = "".join(self.block_text)
            if self.message_id:
                aborted["message"]["id"] = self.message_id
            out.append(aborted)
        out.append(tpl[rec.find(tpl, _text_user("[Request interrupted by user]"))])
        closing = {"content_block_stop": self.block_open, "message_delta": self.in_message,
                   "message_stop": self.in_message}
        for name, wanted in closing.items():
            if wanted:
                ev = tpl[rec.find(tpl, is_("stream_event", name))]
                if self.message_id:
                    ev["api_message_id"] = self.message_id
                out.append(ev)
        out.append(tpl[rec.find(tpl, is_("result"))])
        return out


def _is_tool_result(line: Line, tool_use_id: str | None) -> bool:
    if line.get("type") != "user":
        return False
    content = (line.get("message") or {}).get("content")
    if not isinstance(content, list) or not content or not isinstance(content[0], dict):
        return False
    if content[0].get("type") != "tool_result":
        return False
    return tool_use_id is None or content[0].get("tool_use_id") == tool_use_id


def _text_user(text: str) -> Any:
    def pred(line: Line) -> bool:
        content = (line.get("message") or {}).get("content") if line.get("type") == "user" else None
        return isinstance(content, list) and bool(content) and content[0].get("text") == text

    return pred
