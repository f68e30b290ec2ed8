"""The fake CLI process: stdin reader thread, one main loop, one stdout writer.

Behaviour (see the package docstring for how to start it):

* ``initialize`` → the recorded initialize response.
* a user message → the scenario `scenarios.pick` chooses, paced; messages
  arriving during a turn are queued and played afterwards.
* at a recorded ``can_use_tool`` it waits for the matching control_response:
  allow → the recorded allow path; deny → the recorded deny path (Bash) or
  the recorded deny tool_result re-aimed at the tool; ``interrupt: true`` on a
  deny ends the turn like an interrupt. ``acceptEdits`` skips the prompt for
  edit tools and ``bypassPermissions`` for all, as the real CLI does.
* ``interrupt`` → control_cancel_request for a pending permission, the
  control_response, ``[Request interrupted by user…]``, an
  ``error_during_execution`` result (all recorded lines).
* ``set_permission_mode``, ``set_model`` (with the recorded isReplay echo),
  ``set_max_thinking_tokens``, ``stop_task``, ``rewind_files`` (bookkeeping only, see
  `checkpoints.py`); unknown subtypes → error.
* ``--replay-user-messages`` → each prompt is echoed with a uuid and ``isReplay``.
* ``--resume ID --resume-session-at UUID`` (a conversation rewind) → the session ID goes on (the fake
  keeps no history, so from nothing); without ``--resume`` it exits 1 with the real CLI's error.
* stdin EOF → finish the current turn without pauses, then exit 0.

Environment knobs:
  FAKE_CLAUDE_DELAY_MS   pause before each stream delta (default 15; tests use 0)
  FAKE_CLAUDE_FAULT      comma list, see `faults.py`
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import threading
import time
import uuid
from collections import deque
from pathlib import Path
from typing import Any

from claude_tui.fakecli import recordings as rec
from claude_tui.fakecli import scenarios
from claude_tui.fakecli.checkpoints import Checkpoints
from claude_tui.fakecli.faults import Faults
from claude_tui.fakecli.manage import ManageState
from claude_tui.fakecli.player import Play, SessionState, now_iso

EOF_MARK = object()
_ECHO = "_echo_prompt"  # a placeholder in a play's lines: emit the prompt's echo here
EDIT_TOOLS = {"Edit", "Write", "MultiEdit", "NotebookEdit"}
MODES = {"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto"}


class StdoutGone(Exception):
    pass


class Writer:
    """The only code that writes to stdout: one compact JSON object per line."""

    def __init__(self, faults: Faults) -> None:
        self.faults = faults
        self.closed = False
        self.count = 0

    def line(self, text: str) -> None:
        if self.closed:
            return
        try:
            out = sys.stdout.buffer
            out.write(text.encode("utf-8") + b"\n")
            self.count += 1
            for extra in self.faults.after_line(self.count):
                out.write(extra + b"\n")
            out.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise StdoutGone from None
        self.faults.after_flush(self.count)

    def obj(self, obj: dict[str, Any]) -> None:
        self.line(json.dumps(obj, separators=(",", ":"), ensure_ascii=False))

    def close(self) -> None:
        self.closed = True


def _reader(inbox: queue.Queue[Any]) -> None:
    for raw in sys.stdin.buffer:
        raw = raw.strip()
        if not raw:
            continue
        try:
            inbox.put(json.loads(raw))
        except ValueError:
            sys.stderr.write(f"fake-claude: ignoring non-JSON input line ({len(raw)} bytes)\n")
            sys.stderr.flush()
    inbox.put(EOF_MARK)


def _models() -> dict[str, str]:
    models = rec.init_response()["response"]["response"].get("models") or []
    return {m["value"]: m["resolvedModel"] for m in models if "value" in m and "resolvedModel" in m}


def _resumed_cost(session_id: str) -> float:
    """What a resumed (or forked) session had cost, from its transcript's last cost-state: the real CLI
    counts the history in every total it reports, so the fake does too (the demo's /cost and results)."""
    if not session_id or "/" in session_id or ".." in session_id:
        return 0.0
    root = Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude")
    for path in root.glob(f"projects/*/{session_id}.jsonl"):
        cost = 0.0
        try:
            with open(path, "rb") as fh:
                for line in fh:
                    if line.startswith(b'{"type":"cost-state"'):
                        value = json.loads(line).get("totalCostUSD")
                        cost = float(value) if isinstance(value, (int, float)) else cost
        except (OSError, ValueError):
            return 0.0
        return cost
    return 0.0


class FakeCli:
    def __init__(self, args: argparse.Namespace, faults: Faults) -> None:
        sid = args.resume if args.resume and not args.fork_session else str(uuid.uuid4())
        if args.session_id:
            sid = args.session_id
        model = _models().get(args.model or "default", args.model or "claude-opus-5-5")
        mode = args.permission_mode if args.permission_mode in MODES else "default"
        self.state = SessionState(session_id=sid, model=model, permission_mode=mode, cwd=os.getcwd(),
                                  cost=_resumed_cost(args.resume) if args.resume else 0.0)
        self.faults = faults
        self.out = Writer(faults)
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.play: Play | None = None
        self.queued: deque[dict[str, Any]] = deque()
        self.eof = False
        self.max_turns: int | None = args.max_turns
        self.echo_prompts: bool = args.replay_user_messages
        self.checkpoints = Checkpoints()
        self.manage = ManageState()
        base = os.environ.get("FAKE_CLAUDE_DELAY_MS", "15")
        self.delay = max(0.0, float(base or 0)) / 1000.0

    # -- main loop ---------------------------------------------------------
    def run(self) -> int:
        threading.Thread(target=_reader, args=(self.inbox,), daemon=True).start()
        try:
            while True:
                if self.play is not None and self.play.lines:
                    msg = self._next_input(self._pause(self.play))
                    if msg is None:
                        self._emit(self.play.lines.popleft())
                    else:
                        self._handle(msg)
                elif self.play is not None and self.play.waiting:
                    if self.eof:
                        return 0  # nobody can answer any more
                    self._handle(self.inbox.get())
                elif self.play is not None:
                    self.play = None  # turn finished
                elif self.queued:
                    self._start_turn(self.queued.popleft())
                elif self.eof:
                    return 0
                else:
                    self._handle(self.inbox.get())
        except StdoutGone:
            return 0

    def _next_input(self, timeout: float) -> Any:
        try:
            if timeout <= 0:
                return self.inbox.get_nowait()
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    def _pause(self, play: Play) -> float:
        if self.eof:
            return 0.0
        line = play.lines[0]
        if line.get("type") != "stream_event":
            return 0.0
        et = (line.get("event") or {}).get("type")
        sc = play.scenario
        if et == "content_block_delta":
            return max(self.delay * sc.delay_factor, sc.min_delay)
        if et == "message_start":
            return self.delay * 4  # "time to first token"
        return 0.0

    def _emit(self, line: dict[str, Any]) -> None:
        assert self.play is not None
        if line.get("type") == "system" and line.get("subtype") == "status" and line.get("status") == "requesting":
            self.play.requests += 1
            if self.max_turns is not None and self.play.requests > self.max_turns:
                # The CLI stops before the API request that would exceed
                # --max-turns (max-turns.stdout: tool_result, then this result).
                self.play.lines.clear()
                line = rec.template("max-turns", rec.is_("result"))
        if line.get("type") == _ECHO:
            self._echo(line)
            return
        if line.get("type") == "control_request" and self._auto_allowed(line):
            self.play.allow(line["request"].get("input"))  # the CLI would not ask
            return
        rendered = self.play.render(line)
        # The paths as printed (the recording's cwd becomes the real one), as a rewind names them.
        self.checkpoints.saw(json.loads(rendered) if line.get("type") == "user" else line)
        self.out.line(rendered)
        if self.faults.silent_after_permission and self.play.waiting:
            self.faults.hang()

    def _auto_allowed(self, line: dict[str, Any]) -> bool:
        mode = self.state.permission_mode
        tool = (line.get("request") or {}).get("tool_name")
        return mode == "bypassPermissions" or (mode == "acceptEdits" and tool in EDIT_TOOLS)

    # -- input -------------------------------------------------------------
    def _handle(self, msg: Any) -> None:
        if msg is EOF_MARK:
            self.eof = True
            return
        if not isinstance(msg, dict):
            return
        kind = msg.get("type")
        if kind == "user":
            if self.play is None:
                self._start_turn(msg)
            else:
                self.queued.append(msg)
        elif kind == "control_request":
            self._control(str(msg.get("request_id") or ""), msg.get("request") or {})
        elif kind == "control_response":
            self._answer(msg.get("response") or {})
        # keep_alive, update_environment_variables, …: nothing to do

    def _echo(self, msg: dict[str, Any]) -> None:
        """--replay-user-messages: the prompt comes back with its uuid (the id a rewind names)."""
        echo_id = str(uuid.uuid4())
        self.checkpoints.prompt(echo_id)
        self.out.obj({"type": "user", "message": msg.get("message") or {}, "session_id": self.state.session_id,
                      "parent_tool_use_id": None, "uuid": echo_id, "timestamp": now_iso(), "isReplay": True})

    def _start_turn(self, msg: dict[str, Any]) -> None:
        text = _user_text(msg)
        self.faults.on_turn(self.out)
        name = self.faults.forced_scenario or scenarios.pick(text)
        self.play = Play(scenarios.get(name), self.state)
        if self.faults.huge_line:
            self.faults.huge_line = False
            self.play.lines.insert(1, self.faults.huge_assistant())
        if self.echo_prompts:
            # The real CLI echoes a prompt when its turn starts, after the turn's system lines.
            at = next((i for i, line in enumerate(self.play.lines) if line.get("type") != "system"),
                      len(self.play.lines))
            self.play.lines.insert(at, {"type": _ECHO, "message": msg.get("message") or {}})

    def _answer(self, resp: dict[str, Any]) -> None:
        play = self.play
        if play is None or play.waiting is None or resp.get("request_id") != play.waiting:
            return  # late/unknown answers are ignored, like the real CLI
        inner = resp.get("response") or {}
        if resp.get("subtype") == "error":
            play.deny(str(resp.get("error") or "Permission request failed"))
        elif inner.get("behavior") == "allow":
            play.allow(inner.get("updatedInput"))
        elif inner.get("interrupt"):
            self._finish_interrupt(play, cancel=False)
        else:
            play.deny(str(inner.get("message") or "The user denied this tool use."))

    def _control(self, rid: str, req: dict[str, Any]) -> None:
        sub = req.get("subtype")
        if sub == "initialize" and "initialize-error" in self.faults.names:
            self._error(rid, "initialize is not available")
        elif sub == "initialize":
            resp = rec.init_response()
            resp["response"]["request_id"] = rid
            resp["response"]["response"]["current_permission_mode"] = self.state.permission_mode
            resp["response"]["response"]["pid"] = os.getpid()
            self.out.obj(resp)
        elif sub == "interrupt":
            if self.play is not None:
                self._finish_interrupt(self.play, cancel=True, rid=rid)
            else:
                self._ok(rid, {"still_queued": []})
        elif sub == "set_permission_mode":
            mode = req.get("mode")
            if mode not in MODES:
                return self._error(rid, f"Invalid permission mode: {mode}")
            self.state.permission_mode = str(mode)
            self._ok(rid, {"mode": mode})
            self.out.obj({"type": "system", "subtype": "status", "status": None, "permissionMode": mode,
                          "uuid": str(uuid.uuid4()), "session_id": self.state.session_id})
        elif sub == "set_model":
            self._set_model(rid, str(req.get("model") or "default"))
        elif sub in ("set_max_thinking_tokens", "stop_task"):
            self._ok(rid, {})
        elif sub == "rewind_files":
            self._ok(rid, self.checkpoints.rewind(str(req.get("user_message_id") or ""), bool(req.get("dry_run"))))
        elif (answer := self.manage.answer(str(sub), req)) is not None:
            self._ok(rid, answer)
        else:
            self._error(rid, f"Unsupported control request subtype: {sub}")

    def _set_model(self, rid: str, value: str) -> None:
        resolved = _models().get(value, value)
        self.state.model = resolved
        label = f"{value} ({resolved})" if resolved != value else resolved
        self.out.obj({"type": "user", "message": {"role": "user",
                      "content": f"<local-command-stdout>Set model to `{label}`</local-command-stdout>"},
                      "session_id": self.state.session_id, "parent_tool_use_id": None, "uuid": str(uuid.uuid4()),
                      "timestamp": now_iso(), "isReplay": True})
        self._ok(rid, {"model": resolved})

    def _finish_interrupt(self, play: Play, cancel: bool, rid: str | None = None) -> None:
        while play.lines and play.lines[0].get("type") == "stream_event" and play.waiting:
            self.out.line(play.render(play.lines.popleft()))  # the stream tail already "in flight"
        if cancel and play.waiting:
            self.out.obj({"type": "control_cancel_request", "request_id": play.waiting})
        if rid is not None:
            self._ok(rid, {"still_queued": []})
        for line in play.interrupt_lines(cancelled=cancel):
            self.out.line(play.render(line))
        self.play = None
        self.queued.clear()

    def _ok(self, rid: str, payload: dict[str, Any]) -> None:
        self.out.obj({"type": "control_response",
                      "response": {"subtype": "success", "request_id": rid, "response": payload}})

    def _error(self, rid: str, error: str) -> None:
        self.out.obj({"type": "control_response", "response": {"subtype": "error", "request_id": rid, "error": error}})


def _user_text(msg: dict[str, Any]) -> str:
    content = (msg.get("message") or {}).get("content")
    if isinstance(content, str):
        return content
    parts = [b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text"]
    return " ".join(parts)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="fake-claude", add_help=False)
    p.add_argument("--resume", "-r")
    p.add_argument("--continue", "-c", dest="continue_session", action="store_true")
    p.add_argument("--fork-session", action="store_true")
    p.add_argument("--resume-session-at")
    p.add_argument("--session-id")
    p.add_argument("--model")
    p.add_argument("--permission-mode")
    p.add_argument("--max-turns", type=int)
    p.add_argument("--replay-user-messages", action="store_true")
    args, _unknown = p.parse_known_args(argv)  # every other claude flag is accepted and ignored
    return args


def main(argv: list[str] | None = None) -> int:
    faults = Faults.from_env()
    faults.at_start()
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.resume_session_at and not args.resume:
        # The real CLI's words and exit (every version checked, 2.0.77 to 2.1.332).
        sys.stderr.write("Error: --resume-session-at requires --resume\n")
        return 1
    fake = FakeCli(args, faults)
    rc = fake.run()
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    time.sleep(0)  # let the reader thread be; it is a daemon
    return rc
