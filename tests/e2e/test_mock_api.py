"""The Messages API stand-in on its own (no CLI): HTTP, SSE shape, scripts, CLI entry point."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import RequestView, choose_reply

REPO = Path(__file__).resolve().parents[2]
REMINDER = {"type": "text", "text": "<system-reminder>\nkw:bash is not a prompt\n</system-reminder>\n"}

def post(url: str, body: dict[str, Any], path: str = "/v1/messages?beta=true") -> tuple[int, str]:
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()

def sse(text: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for chunk in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out

def body(*messages: dict[str, Any], stream: bool = True) -> dict[str, Any]:
    return {"model": "claude-test", "stream": stream, "messages": list(messages),
            "system": [{"type": "text", "text": "Primary working directory: /work/proj"}]}

def user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}

def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}

def test_stream_is_well_formed_sse() -> None:
    with MockApi() as api:
        status, raw = post(api.url, body(user(REMINDER, text("kw:bash go"))))
    assert status == 200
    events = sse(raw)
    names = [n for n, _ in events]
    assert names[:2] == ["message_start", "ping"] and names[-2:] == ["message_delta", "message_stop"]
    assert all(n == d["type"] for n, d in events)
    assert events[0][1]["message"]["usage"]["input_tokens"] > 0
    tool_start = next(d for n, d in events if n == "content_block_start"
                      and d["content_block"]["type"] == "tool_use")
    partial = "".join(d["delta"]["partial_json"] for n, d in events if n == "content_block_delta"
                      and d["delta"]["type"] == "input_json_delta")
    assert tool_start["content_block"]["name"] == "Bash"
    assert json.loads(partial)["command"] == "touch /work/proj/touched && echo hello-from-bash"
    assert events[-2][1]["delta"]["stop_reason"] == "tool_use"
    assert [r.keyword for r in api.requests] == ["bash"]

def test_non_streaming_request_gets_a_message() -> None:
    with MockApi() as api:
        status, raw = post(api.url, body(user(text("kw:think")), stream=False))
    msg = json.loads(raw)
    assert status == 200 and msg["type"] == "message"
    assert [b["type"] for b in msg["content"]] == ["thinking", "text"]

def test_side_routes() -> None:
    with MockApi() as api:
        status, raw = post(api.url, body(user(text("hi"))), "/v1/messages/count_tokens")
        assert status == 200 and json.loads(raw)["input_tokens"] > 0
        with urllib.request.urlopen(api.url + "/v1/models", timeout=5) as resp:
            assert json.loads(resp.read())["data"] == []
        status, raw = post(api.url, {}, "/v1/nowhere")
        assert status == 404 and json.loads(raw)["error"]["type"] == "not_found_error"
        assert [r.status for r in api.side_requests()] == [200, 200, 404]

def test_retry_then_success_and_auth_error() -> None:
    with MockApi() as api:
        statuses = [post(api.url, body(user(text("kw:retry"))))[0] for _ in range(3)]
        status, raw = post(api.url, body(user(text("kw:autherr"))))
    assert statuses == [529, 529, 200]
    assert status == 401 and json.loads(raw)["error"]["type"] == "authentication_error"

def test_script_steps_follow_tool_results() -> None:
    first = user(text("kw:tasks go"))
    names = []
    convo: list[dict[str, Any]] = [first]
    for _ in range(4):
        reply = choose_reply(RequestView(body(*convo)))
        names.append([b.get("name", b["type"]) for b in reply.blocks])
        convo += [{"role": "assistant", "content": reply.blocks},
                  user({"type": "tool_result", "tool_use_id": "x", "content": "ok"})]
    assert names == [["text", "TaskCreate", "TaskCreate"], ["TaskUpdate"],
                     ["TaskUpdate", "TaskUpdate"], ["text"]]

def test_reminders_and_unknown_prompts() -> None:
    view = RequestView(body(user(REMINDER, text("what is up?"))))
    assert view.keyword == "" and view.prompt == "what is up?"
    assert choose_reply(view).blocks[0]["text"] == "Hello! You said: what is up? "
    assert RequestView(body(user(text("kw:subagent explore the tree")))).is_subagent

def test_module_entry_point_prints_the_url(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.e2e.mock_api", "--port", "0", "-q",
         "--print-env", str(tmp_path)],
        cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        exports = [proc.stdout.readline().strip() for _ in range(3)]
        assert exports[0] == f"export HOME={tmp_path / 'home'}"
        status, raw = post(url, body(user(text("kw:plain hello"))))
        streamed = "".join(d["delta"]["text"] for n, d in sse(raw) if n == "content_block_delta")
        assert status == 200 and streamed == "Hello! You said: kw:plain hello "
    finally:
        proc.terminate()
        proc.wait(timeout=10)
