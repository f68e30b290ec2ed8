"""ClaudeClient against small scripted python children (not the fake CLI)."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from claude_tui.protocol import builders
from claude_tui.transport import AutoAnswered, CliOptions, ProcessExited
from claude_tui.transport.client import ClaudeClient
from claude_tui.transport.errors import ControlError, ControlTimeout, ProcessGoneError

PY = sys.executable

# A tiny scripted "CLI": prints PRELUDE lines, then reacts to stdin lines.
SCRIPT = """
import json, sys
def out(obj):
    sys.stdout.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\\n"); sys.stdout.flush()
for line in PRELUDE:
    out(line)
held = []
for raw in sys.stdin:
    msg = json.loads(raw)
    t = msg.get("type")
    if t == "control_request":
        rid, sub = msg["request_id"], msg["request"]["subtype"]
        if sub == "fail":
            out({"type": "control_response", "response": {"subtype": "error", "request_id": rid, "error": "nope: bad"}})
        elif sub == "hold":
            held.append(rid)
        elif sub == "release":
            for h in reversed(held + [rid]):   # answer out of order
                out({"type": "control_response", "response": {"subtype": "success", "request_id": h, "response": {"id": h}}})
            held = []
        elif sub == "silent":
            pass
        elif sub == "die":
            sys.stderr.write("dying now\\n"); sys.exit(7)
        else:
            out({"type": "control_response", "response": {"subtype": "success", "request_id": rid, "response": {"sub": sub}}})
    elif t == "user":
        out({"type": "system", "subtype": "init", "session_id": "sess-1"})
        if "finish" in json.dumps(msg):
            out({"type": "result", "subtype": "success", "session_id": "sess-1", "is_error": False})
    else:
        out({"type": "system", "subtype": "echo", "got": msg})
"""


def make_client(prelude: list[Any] | None = None, extra: str = "", **kw: Any) -> ClaudeClient:
    code = f"PRELUDE = {prelude or []!r}\n" + textwrap.dedent(SCRIPT) + textwrap.dedent(extra)
    return ClaudeClient(CliOptions(command=[PY, "-c", code]), **kw)


async def collect_until(client: ClaudeClient, pred: Any, limit: float = 10) -> list[Any]:
    items: list[Any] = []

    async def run() -> None:
        async for item in client.events():
            items.append(item)
            if pred(item):
                return

    await asyncio.wait_for(run(), limit)
    return items


def is_echo(item: Any) -> bool:
    return getattr(item, "type", None) == "system" and item.raw.get("subtype") == "echo"


async def test_non_json_lines_are_events_not_fatal() -> None:
    client = make_client(["not json {", {"type": "system", "subtype": "status", "status": None}, "", "[1,2"])
    await client.start()
    await client.close()
    items = [i async for i in client.events()]
    kinds = [type(i).__name__ for i in items]
    assert kinds == ["InvalidLine", "SystemStatus", "InvalidLine", "ProcessExited"]
    assert items[0].text == "not json {"
    assert items[-1].returncode == 0


async def test_request_response_correlation_out_of_order() -> None:
    client = make_client()
    await client.start()
    a = asyncio.create_task(client.request(builders.control_request("hold", request_id="A"), timeout=5))
    b = asyncio.create_task(client.request(builders.control_request("hold", request_id="B"), timeout=5))
    await asyncio.sleep(0.2)
    c = await client.request(builders.control_request("release", request_id="C"), timeout=5)
    ra, rb = await a, await b
    assert (ra.request_id, rb.request_id, c.request_id) == ("A", "B", "C")
    assert ra.payload == {"id": "A"} and rb.payload == {"id": "B"}
    # matched responses never reach events(): only our sentinel echo does
    await client.send({"type": "ping"})
    items = await collect_until(client, is_echo)
    assert [i.type for i in items] == ["system"]
    await client.close()


async def test_request_timeout_and_error() -> None:
    client = make_client()
    await client.start()
    with pytest.raises(ControlTimeout) as timeout:
        await client.request(builders.control_request("silent", request_id="S1"), timeout=0.3)
    assert "silent" in str(timeout.value) and "S1" in str(timeout.value)
    assert isinstance(timeout.value, TimeoutError)
    with pytest.raises(ControlError) as err:
        await client.request(builders.control_request("fail"), timeout=5)
    assert "nope: bad" in str(err.value)
    assert err.value.subtype == "fail"
    # the channel still works afterwards
    ok = await client.request(builders.initialize(), timeout=5)
    assert ok.payload == {"sub": "initialize"}
    await client.close()


async def test_unknown_control_requests_are_answered_at_once() -> None:
    prelude = [
        {"type": "control_request", "request_id": "hook-1", "request": {"subtype": "hook_callback", "callback_id": "x"}},
        {"type": "control_request", "request_id": "odd-1", "request": {"subtype": "brand_new_thing"}},
    ]
    client = make_client(prelude)
    await client.start()
    items = await collect_until(client, lambda i: is_echo(i) and i.raw["got"]["response"]["request_id"] == "odd-1")
    auto = [i for i in items if isinstance(i, AutoAnswered)]
    assert [(a.request_id, a.subtype) for a in auto] == [("hook-1", "hook_callback"), ("odd-1", "brand_new_thing")]
    echoes = [i.raw["got"] for i in items if is_echo(i)]
    assert {e["response"]["request_id"] for e in echoes} == {"hook-1", "odd-1"}
    assert all(e["response"]["subtype"] == "error" for e in echoes)
    assert client.pending_permissions == ()
    await client.close()


def can_use(rid: str) -> dict[str, Any]:
    return {"type": "control_request", "request_id": rid,
            "request": {"subtype": "can_use_tool", "tool_name": "Bash", "input": {"command": "ls"}, "tool_use_id": "t"}}


async def test_cancel_drops_late_answers() -> None:
    client = make_client([can_use("p1"), {"type": "control_cancel_request", "request_id": "p1"}, can_use("p2")])
    await client.start()
    items = await collect_until(client, lambda i: getattr(i, "request_id", None) == "p2")
    assert [i.type for i in items] == ["control_request", "control_cancel_request", "control_request"]
    assert client.pending_permissions == ("p2",)
    assert await client.answer_permission(builders.allow("p1", {"command": "ls"})) is False
    assert await client.answer_permission(builders.deny("p2", "no")) is True
    assert await client.answer_permission(builders.deny("p2", "twice")) is False
    assert await client.answer_permission(builders.deny("never-seen", "x")) is False
    echoes = await collect_until(client, is_echo)
    assert echoes[-1].raw["got"]["response"]["request_id"] == "p2"
    await client.send({"type": "ping"})
    more = await collect_until(client, is_echo)
    assert more[-1].raw["got"] == {"type": "ping"}  # p1's and the 2nd p2 answer never arrived
    await client.close()


async def test_exit_is_detected_with_code_and_stderr_and_fails_pending() -> None:
    client = make_client([can_use("p1")])
    await client.start()
    waiter = asyncio.create_task(client.request(builders.control_request("silent"), timeout=10))
    await asyncio.sleep(0.2)
    assert await client.send(builders.control_request("die")) is True
    with pytest.raises(ProcessGoneError):
        await waiter
    items = await collect_until(client, lambda i: isinstance(i, ProcessExited))
    exited = items[-1]
    assert exited.returncode == 7 and "dying now" in exited.stderr_tail
    assert "7" in exited.describe() and "dying now" in exited.describe()
    assert client.pending_permissions == () and not client.running
    assert await client.send({"type": "ping"}) is False
    with pytest.raises(ProcessGoneError):
        await client.request(builders.initialize(), timeout=1)
    assert [i async for i in client.events()] == []  # iterator finished for good
    await client.close()


async def test_busy_tracking_and_session_id() -> None:
    client = make_client()
    await client.start()
    assert not client.busy
    await client.send(builders.user_message("hello"))
    assert client.busy
    await collect_until(client, lambda i: i.type == "system")
    assert client.busy and client.session_id == "sess-1"
    await client.send(builders.user_message("finish"))
    await collect_until(client, lambda i: i.type == "result")
    assert not client.busy
    await client.close()


async def test_close_interrupts_a_busy_turn_first(tmp_path: Path) -> None:
    log = tmp_path / "debug.log"
    client = make_client(debug_log=log)
    await client.start()
    await client.send(builders.user_message("hello"))
    await collect_until(client, lambda i: i.type == "system")
    exited = await client.close()
    assert exited is not None and exited.returncode == 0
    text = log.read_text()
    assert '"subtype": "interrupt"' in text or '"subtype":"interrupt"' in text
    lines = text.splitlines()
    sent_interrupt = next(i for i, ln in enumerate(lines) if ">> " in ln and "interrupt" in ln)
    got_answer = next(i for i, ln in enumerate(lines) if "<< " in ln and '"sub": "interrupt"' in ln)
    assert sent_interrupt < got_answer


async def test_stdout_closed_while_running_is_reported_and_cleaned_up() -> None:
    client = ClaudeClient(
        CliOptions(command=[PY, "-c", "import os, time; os.close(1); time.sleep(60)"]),
        eof_grace=0.3, close_grace=0.3, term_timeout=2,
    )
    await client.start()
    items = await collect_until(client, lambda i: isinstance(i, ProcessExited))
    exited = items[-1]
    assert exited.stdout_closed_early
    assert exited.returncode is not None and exited.returncode < 0
    await client.close()


async def test_start_twice_and_events_before_start() -> None:
    client = make_client()
    with pytest.raises(RuntimeError):
        async for _ in client.events():
            pass
    await client.start()
    with pytest.raises(RuntimeError):
        await client.start()
    await client.close()
    await client.close()  # idempotent


async def test_spawn_failure_raises_before_any_process(tmp_path: Path) -> None:
    client = ClaudeClient(CliOptions(command=[PY, "-c", "pass"], cwd=str(tmp_path / "missing")))
    with pytest.raises(OSError):
        await client.start()
    assert client.pid is None and await client.close() is None
    client2 = ClaudeClient(CliOptions(claude_path=str(tmp_path / "no-claude")))
    from claude_tui.transport import ClaudeNotFoundError

    with pytest.raises(ClaudeNotFoundError):
        await client2.start()


async def test_a_malformed_control_request_does_not_end_the_session(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`request` is a string, not an object: logged and skipped, later lines still arrive."""
    import sys

    from claude_tui.transport.client import ClaudeClient
    from claude_tui.transport.options import CliOptions

    script = (
        "import sys, time\n"
        "print('{\"type\":\"control_request\",\"request_id\":\"r1\",\"request\":\"x\"}', flush=True)\n"
        "print('{\"type\":\"keep_alive\"}', flush=True)\n"
        "sys.stdin.read()\n"
    )
    client = ClaudeClient(CliOptions(cwd=str(tmp_path), command=[sys.executable, "-c", script]))
    await client.start()
    seen = []
    async for item in client.events():
        seen.append(type(item).__name__)
        if type(item).__name__ == "KeepAlive":
            break
    assert "KeepAlive" in seen
    assert await client.close() is not None


REFUSAL = {"originalModel": "claude-opus-5-5", "fallbackModel": "claude-sonnet-5", "apiRefusalCategory": "cyber"}


async def test_an_elicitation_and_a_dialog_we_render_wait_for_the_user_any_other_dialog_is_cancelled() -> None:
    # An elicitation and a request_user_dialog of a kind we declare are the user's to answer (pending, like
    # a permission); a dialog kind we do not render is answered "cancelled" at once (the CLI's default), never
    # left waiting, and said (AutoAnswered).
    prelude = [
        {"type": "control_request", "request_id": "form-1",
         "request": {"subtype": "elicitation", "mcp_server_name": "notes", "message": "Who?"}},
        {"type": "control_request", "request_id": "dlg-1",
         "request": {"subtype": "request_user_dialog", "dialog_kind": "chrome_install_upsell", "payload": {}}},
        {"type": "control_request", "request_id": "dlg-2",
         "request": {"subtype": "request_user_dialog", "dialog_kind": "refusal_fallback_prompt", "payload": REFUSAL}},
    ]
    client = make_client(prelude)
    await client.start()
    items = await collect_until(client, lambda i: getattr(i, "request_id", None) == "dlg-2")
    auto = [i for i in items if isinstance(i, AutoAnswered)]
    assert [a.request_id for a in auto] == ["dlg-1"] and "'chrome_install_upsell'" in auto[0].error
    assert client.pending_permissions == ("form-1", "dlg-2")
    assert await client.answer_permission(builders.control_success("form-1", {"action": "decline"})) is True
    await client.send({"type": "ping"})
    echoes = [i.raw["got"] for i in await collect_until(client, lambda i: is_echo(i) and i.raw["got"] == {"type": "ping"})
              if is_echo(i)]
    answers = [e["response"] for e in echoes if e.get("type") == "control_response"]
    assert [(a["request_id"], a.get("response")) for a in answers] == [
        ("dlg-1", {"behavior": "cancelled"}), ("form-1", {"action": "decline"})]
    await client.close()
