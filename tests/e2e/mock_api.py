"""A loopback stand-in for the Anthropic Messages API, for driving the real CLI offline.

Stdlib only.  Replies come from ``mock_api_scripts`` (keyword scripts); this
module owns HTTP, the SSE event stream, usage numbers and the request log.

    python -m tests.e2e.mock_api --port 0        # prints the base URL, serves until ^C

    with MockApi() as api:                        # from Python / pytest
        env["ANTHROPIC_BASE_URL"] = api.url
        ...
        api.requests                              # every request received
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import shlex
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.e2e.mock_api_scripts import Reply, RequestView, choose_reply

#: usage reported for every reply (the recordings' numbers). The real API reports cache writes twice:
#: the total (`cache_creation_input_tokens`, what the CLI prices) and split by lifetime
#: (`cache_creation`, what ccusage prices, a 1-hour write at twice a 5-minute one's price): they agree.
START_USAGE = {
    "input_tokens": 1200,
    "output_tokens": 1,
    "cache_read_input_tokens": 30000,
    "cache_creation_input_tokens": 500,
    "cache_creation": {"ephemeral_5m_input_tokens": 500, "ephemeral_1h_input_tokens": 0},
    "service_tier": "standard",
}
OUTPUT_TOKENS = 42
_WORDS = re.compile(r"\S+\s*|\s+")


@dataclass
class Received:
    """One request the stand-in answered."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    keyword: str = ""
    step: int = 0
    subagent: bool = False
    status: int = 200
    time: float = field(default_factory=time.monotonic)

    @property
    def is_messages(self) -> bool:
        return self.method == "POST" and self.path.split("?")[0] == "/v1/messages"


def split_text(t: str) -> list[str]:
    return _WORDS.findall(t) or [t]


def _split_json(s: str, parts: int = 3) -> list[str]:
    size = max(1, -(-len(s) // parts))
    return [s[i : i + size] for i in range(0, len(s), size)]


def finished_blocks(reply: Reply, msg_id: str) -> list[dict[str, Any]]:
    """Content blocks as the final message holds them (tool ids filled in)."""
    out = []
    for i, b in enumerate(reply.blocks):
        b = {k: v for k, v in b.items() if k != "chunks"}
        if "chunks" in reply.blocks[i]:
            b["text"] = "".join(reply.blocks[i]["chunks"])
        if b["type"] == "tool_use":
            b = {"type": "tool_use", "id": f"toolu_{msg_id}_{i}", **b}
        out.append(b)
    return out


def sse_events(reply: Reply, msg_id: str, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The Anthropic SSE sequence for one reply: (event name, data) pairs."""
    yield "message_start", {
        "type": "message_start",
        "message": {
            "id": msg_id, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": dict(START_USAGE),
        },
    }
    yield "ping", {"type": "ping"}
    for index, (raw, block) in enumerate(zip(reply.blocks, finished_blocks(reply, msg_id))):
        kind = block["type"]
        start: dict[str, Any] = {"type": kind}
        if kind == "text":
            start["text"] = ""
            deltas = [{"type": "text_delta", "text": c}
                      for c in raw.get("chunks") or split_text(block["text"])]
        elif kind == "thinking":
            start.update(thinking="", signature="")
            deltas = [{"type": "thinking_delta", "thinking": c} for c in split_text(block["thinking"])]
            deltas.append({"type": "signature_delta", "signature": block["signature"]})
        else:
            start.update(id=block["id"], name=block["name"], input={})
            deltas = [{"type": "input_json_delta", "partial_json": c}
                      for c in _split_json(json.dumps(block["input"]))]
        yield "content_block_start", {"type": "content_block_start", "index": index,
                                      "content_block": start}
        for d in deltas:
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": d}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield "message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": reply.stop_reason, "stop_sequence": None},
        "usage": {"output_tokens": OUTPUT_TOKENS},
    }
    yield "message_stop", {"type": "message_stop"}


def full_message(reply: Reply, msg_id: str, model: str) -> dict[str, Any]:
    usage = dict(START_USAGE, output_tokens=OUTPUT_TOKENS)
    return {"id": msg_id, "type": "message", "role": "assistant", "model": model,
            "content": finished_blocks(reply, msg_id), "stop_reason": reply.stop_reason,
            "stop_sequence": None, "usage": usage}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        pass  # MockApi.record logs requests when verbose

    # -- plumbing ---------------------------------------------------------
    def _read_body(self) -> Any:
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return {"unparsed": raw[:2000].decode("utf-8", "replace")}

    def _json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", f"req_mock_{next(self.server.api.ids)}")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _record(self, body: Any, **kw: Any) -> Received:
        rec = Received(self.command, self.path, dict(self.headers), body, **kw)
        self.server.api.record(rec)
        return rec

    # -- verbs ------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        path = self.path.split("?")[0]
        if path.rstrip("/") == "/v1/models":
            self._record(None)
            self._json(200, {"data": [], "has_more": False, "first_id": None, "last_id": None})
        else:
            self._record(None, status=404)
            self._json(404, _error_body("not_found_error", f"mock_api: no route {path}"))

    def do_HEAD(self) -> None:  # noqa: N802 - stdlib name
        self._record(None)
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        body = self._read_body()
        path = self.path.split("?")[0]
        if path == "/v1/messages/count_tokens":
            self._record(body)
            self._json(200, {"input_tokens": max(1, len(json.dumps(body)) // 4)})
            return
        if path != "/v1/messages" or not isinstance(body, dict):
            self._record(body, status=404)
            self._json(404, _error_body("not_found_error", f"mock_api: no route {path}"))
            return
        api = self.server.api
        view = RequestView(body, default_project=api.project_dir)
        view.attempt = api.count_attempt(view.prompt_key)
        reply = choose_reply(view)
        self._record(body, keyword=view.keyword, step=view.step, subagent=view.is_subagent,
                     status=reply.status)
        if reply.status != 200:
            self._json(reply.status, _error_body(reply.error_type, reply.error_message),
                       reply.headers)
            return
        msg_id = f"msg_{next(api.ids)}"
        model = str(body.get("model") or "claude-mock")
        if not body.get("stream"):
            self._json(200, full_message(reply, msg_id, model))
            return
        self._stream(reply, msg_id, model)

    def _stream(self, reply: Reply, msg_id: str, model: str) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.send_header("request-id", f"req_{msg_id}")
        self.end_headers()
        self.close_connection = True
        stop = self.server.api.stopping
        try:
            for name, data in sse_events(reply, msg_id, model):
                if stop.is_set():
                    return
                self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
                if reply.delay and name == "content_block_delta":
                    stop.wait(reply.delay)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the CLI hung up (interrupt): nothing more to say


def _error_body(etype: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": etype, "message": message}}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    api: MockApi


class MockApi:
    """The stand-in server, run on a background thread; a context manager."""

    def __init__(self, port: int = 0, project_dir: str = "", verbose: bool = False) -> None:
        self.port = port
        self.project_dir = project_dir
        self.verbose = verbose
        self.requests: list[Received] = []
        self.ids = itertools.count(1)
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._attempts: dict[str, int] = {}
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "MockApi not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> MockApi:
        self._server = _Server(("127.0.0.1", self.port), _Handler)
        self._server.api = self
        self._thread = threading.Thread(target=lambda: self._server.serve_forever(poll_interval=0.05),
                                        name="mock-api", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> MockApi:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- bookkeeping (called from handler threads) -------------------------
    def record(self, rec: Received) -> None:
        with self._lock:
            self.requests.append(rec)
        if self.verbose:
            sys.stderr.write(f"mock_api: {rec.method} {rec.path} kw={rec.keyword!r} "
                             f"step={rec.step} status={rec.status}\n")

    def count_attempt(self, key: str) -> int:
        with self._lock:
            self._attempts[key] = self._attempts.get(key, 0) + 1
            return self._attempts[key]

    def messages_requests(self) -> list[Received]:
        with self._lock:
            return [r for r in self.requests if r.is_messages]

    def side_requests(self) -> list[Received]:
        """Everything that is not a scripted ``POST /v1/messages``."""
        with self._lock:
            return [r for r in self.requests if not r.is_messages]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.mock_api", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--project", default="", help="fallback project dir for tool paths")
    parser.add_argument("-q", "--quiet", action="store_true", help="do not log requests")
    parser.add_argument("--print-env", metavar="DIR",
                        help="also print `export` lines for an offline CLI whose HOME, "
                             "CLAUDE_CONFIG_DIR and TMPDIR live under DIR")
    args = parser.parse_args(argv)
    api = MockApi(args.port, args.project, verbose=not args.quiet).start()
    print(api.url, flush=True)
    if args.print_env:
        from tests.e2e.offline_env import offline_overrides

        root = Path(args.print_env).expanduser().resolve()
        for key, value in offline_overrides(api.url, root).items():
            print(f"export {key}={shlex.quote(value)}", flush=True)
        for sub in ("home", "tmp"):
            (root / sub).mkdir(parents=True, exist_ok=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        api.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
