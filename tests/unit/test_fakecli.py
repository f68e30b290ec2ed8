"""The fake CLI, driven through ClaudeClient like the app drives `claude`."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from claude_tui.fakecli import command, scenarios
from claude_tui.protocol import builders
from claude_tui.transport import CliOptions, ProcessExited
from claude_tui.transport.client import ClaudeClient
from claude_tui.transport.errors import ControlError, ControlTimeout

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "claude-code-2.1.330"


def fake(fault: str | None = None, env: dict[str, str] | None = None, **opts: Any) -> ClaudeClient:
    e = {"FAKE_CLAUDE_DELAY_MS": "0", **(env or {})}
    if fault:
        e["FAKE_CLAUDE_FAULT"] = fault
    # The recordings were made without --replay-user-messages: compare like with like by default.
    opts.setdefault("file_checkpoints", False)
    return ClaudeClient(CliOptions(command=command(), env=e, **opts), eof_grace=0.5, close_grace=2, term_timeout=2)


def key(raw: dict[str, Any]) -> tuple[str, str | None]:
    sub = (
        raw.get("subtype")
        or (raw.get("event") or {}).get("type")
        or (raw.get("request") or {}).get("subtype")
        or (raw.get("response") or {}).get("subtype")
    )
    return raw.get("type", "?"), sub


def keys(items: list[Any]) -> list[tuple[str, str | None]]:
    return [key(i.raw) for i in items if hasattr(i, "raw")]


def collapse(seq: list[Any]) -> list[Any]:
    return [x for i, x in enumerate(seq) if i == 0 or seq[i - 1] != x]


async def until(client: ClaudeClient, pred: Any, limit: float = 20) -> list[Any]:
    items: list[Any] = []

    async def run() -> None:
        async for item in client.events():
            items.append(item)
            if pred(item):
                return

    await asyncio.wait_for(run(), limit)
    return items


def is_type(kind: str, sub: str | None = None) -> Any:
    return lambda i: hasattr(i, "raw") and key(i.raw)[0] == kind and (sub is None or key(i.raw)[1] == sub)


is_result = is_type("result")
is_permission = is_type("control_request", "can_use_tool")


async def started(client: ClaudeClient) -> Any:
    await client.start()
    return await client.request(builders.initialize(), timeout=10)


def tool_results(items: list[Any]) -> list[dict[str, Any]]:
    out = []
    for i in items:
        content = i.raw.get("message", {}).get("content") if is_type("user")(i) else None
        if isinstance(content, list) and content and content[0].get("type") == "tool_result":
            out.append(content[0])
    return out


# -- conversation ------------------------------------------------------------


async def test_text_turn_and_initialize() -> None:
    client = fake()
    init = await started(client)
    assert any(c["name"] == "compact" for c in init.payload["commands"])
    await client.send(builders.user_message("Hello there, kw:plain"))
    items = await until(client, is_result)
    assert keys(items)[0] == ("system", "init")
    text = [i for i in items if is_type("assistant")(i)][0].raw["message"]["content"][0]["text"]
    assert text.startswith("Hello! You said")
    sids = {i.raw.get("session_id") for i in items if hasattr(i, "raw")} - {None}
    assert len(sids) == 1 and client.session_id in sids
    assert items[-1].raw["subtype"] == "success"
    await client.close()


async def test_unknown_words_get_the_welcome_answer() -> None:
    client = fake()
    await started(client)
    await client.send(builders.user_message("hi"))
    items = await until(client, is_result)
    text = items[-1].raw["result"]
    assert "claude-tui demo" in text and "`bash`" in text
    deltas = "".join(i.raw["event"]["delta"]["text"] for i in items if is_type("stream_event", "content_block_delta")(i))
    assert deltas == text
    await client.close()


async def test_bash_allow() -> None:
    client = fake()
    await started(client)
    await client.send(builders.user_message("run some bash"))
    items = await until(client, is_permission)
    req = items[-1]
    assert req.request.tool_name == "Bash"
    tool_use = [i for i in items if is_type("assistant")(i)][-1].raw["message"]["content"][0]
    assert tool_use["id"] == req.raw["request"]["tool_use_id"]
    assert await client.answer_permission(builders.allow(req.request_id, req.raw["request"]["input"]))
    items = await until(client, is_result)
    assert tool_results(items)[0]["content"] == "hello-from-bash"
    assert tool_results(items)[0]["tool_use_id"] == tool_use["id"]
    assert items[-1].raw["subtype"] == "success"
    await client.close()


async def test_bash_deny_uses_the_deny_recording() -> None:
    client = fake()
    await started(client)
    await client.send(builders.user_message("kw:bash please"))
    req = (await until(client, is_permission))[-1]
    await client.answer_permission(builders.deny(req.request_id, "Not today."))
    items = await until(client, is_result)
    res = tool_results(items)[0]
    assert res["is_error"] is True and res["content"] == "Not today."
    assert res["tool_use_id"] == req.raw["request"]["tool_use_id"]
    user = [i for i in items if is_type("user")(i)][0]
    assert user.raw["tool_use_result"] == "Error: Not today."
    await client.close()


async def test_edit_deny_is_synthesized_from_recorded_lines() -> None:
    client = fake()
    await started(client)
    await client.send(builders.user_message("show me a diff"))
    req = (await until(client, is_permission))[-1]
    assert req.request.tool_name == "Edit"
    await client.answer_permission(builders.deny(req.request_id, "Leave a.txt alone"))
    items = await until(client, is_result)
    res = tool_results(items)[0]
    assert res == {"type": "tool_result", "content": "Leave a.txt alone", "is_error": True,
                   "tool_use_id": req.raw["request"]["tool_use_id"]}
    await client.close()


async def test_ask_answers_flow_into_the_tool_result() -> None:
    client = fake()
    await started(client)
    await client.send(builders.user_message("ask me a question"))
    req = (await until(client, is_permission))[-1]
    questions = req.raw["request"]["input"]["questions"]
    answer = builders.answer_questions(req.request_id, questions, {"Which color?": "Red"})
    await client.answer_permission(answer)
    items = await until(client, is_result)
    res = tool_results(items)[0]
    assert '"Which color?"="Red"' in res["content"]
    await client.close()


async def test_interrupt_mid_stream() -> None:
    client = fake()
    await started(client)
    await client.send(builders.user_message("tell me a story"))
    await until(client, is_type("stream_event", "content_block_delta"))
    await until(client, is_type("stream_event", "content_block_delta"))
    resp = await client.interrupt(timeout=5)
    assert resp.payload == {"still_queued": []}
    items = await until(client, is_result)
    seq = keys(items)
    aborted = [i for i in items if is_type("assistant")(i)]
    assert aborted and aborted[0].raw["message"]["content"][0]["text"].startswith("word0 word1")
    note = [i for i in items if is_type("user")(i)][0]
    assert note.raw["message"]["content"][0]["text"] == "[Request interrupted by user]"
    assert seq[-1] == ("result", "error_during_execution")
    assert ("stream_event", "message_stop") in seq
    assert not client.busy
    await client.close()


async def test_interrupt_with_pending_permission_cancels_it_first() -> None:
    client = fake()
    await started(client)
    await client.send(builders.user_message("kw:edit the file"))
    req = (await until(client, is_permission))[-1]
    assert client.pending_permissions == (req.request_id,)
    await client.interrupt(timeout=5)
    items = await until(client, is_result)
    assert keys(items) == [
        ("control_cancel_request", None),
        ("user", None),
        ("user", None),
        ("result", "error_during_execution"),
    ]
    assert items[0].request_id == req.request_id
    assert client.pending_permissions == ()
    assert await client.answer_permission(builders.allow(req.request_id, {})) is False
    await client.close()


async def test_set_model_and_permission_mode() -> None:
    client = fake()
    await started(client)
    resp = await client.request(builders.set_model("sonnet"), timeout=5)
    assert resp.payload == {"model": "claude-sonnet-5-5"}
    echo = (await until(client, is_type("user")))[-1]
    assert echo.raw["isReplay"] is True
    assert echo.raw["message"]["content"] == "<local-command-stdout>Set model to `sonnet (claude-sonnet-5-5)`</local-command-stdout>"
    resp = await client.request(builders.set_permission_mode("acceptEdits"), timeout=5)
    assert resp.payload == {"mode": "acceptEdits"}
    status = (await until(client, is_type("system", "status")))[-1]
    assert status.raw["permissionMode"] == "acceptEdits"
    with pytest.raises(ControlError, match="Invalid permission mode"):
        await client.request(builders.set_permission_mode("yolo"), timeout=5)
    await client.send(builders.user_message("kw:edit the file"))
    items = await until(client, is_result)
    assert not any(is_permission(i) for i in items)  # acceptEdits: no prompt, like modes.stdout
    init = items[0].raw
    assert init["model"] == "claude-sonnet-5-5" and init["permissionMode"] == "acceptEdits"
    assert tool_results(items)[0]["content"].endswith("has been updated successfully.")
    await client.close()


async def test_unknown_control_request_gets_an_error() -> None:
    client = fake()
    await started(client)
    with pytest.raises(ControlError, match="Unsupported control request subtype: frobnicate"):
        await client.request(builders.control_request("frobnicate"), timeout=5)
    assert (await client.request(builders.stop_task("t1"), timeout=5)).payload == {}
    await client.close()


async def test_subagent_output_keeps_the_recorded_ordering() -> None:
    client = fake()
    await started(client)
    await client.send(builders.user_message("kw:agent go"))
    items = await until(client, is_result)
    recorded = [json.loads(x) for x in (FIXTURES / "subagent.stdout.ndjson").read_text().splitlines()][1:]
    assert keys(items) == [key(r) for r in recorded]
    seq = keys(items)
    sub = next(n for n, i in enumerate(items) if is_type("assistant")(i) and i.raw.get("parent_tool_use_id"))
    last_stop = max(n for n, k in enumerate(seq) if k == ("stream_event", "message_stop"))
    assert last_stop < sub < len(items) - 1  # after the parent's stream, before the result
    await client.close()


async def test_session_ids_costs_and_fresh_tool_ids() -> None:
    client = fake(resume="11111111-2222-3333-4444-555555555555")
    await started(client)
    costs, tool_ids = [], []
    for _ in range(2):
        await client.send(builders.user_message("kw:bash please"))
        req = (await until(client, is_permission))[-1]
        tool_ids.append(req.raw["request"]["tool_use_id"])
        await client.answer_permission(builders.allow(req.request_id, req.raw["request"]["input"]))
        items = await until(client, is_result)
        costs.append(items[-1].raw["total_cost_usd"])
        assert items[-1].raw["session_id"] == "11111111-2222-3333-4444-555555555555"
    assert costs[1] == pytest.approx(2 * costs[0]) and costs[0] > 0
    assert tool_ids[0] != tool_ids[1]
    await client.close()

    forked = fake(resume="11111111-2222-3333-4444-555555555555", fork_session=True)
    await started(forked)
    await forked.send(builders.user_message("kw:plain"))
    await until(forked, is_result)
    assert forked.session_id not in (None, "11111111-2222-3333-4444-555555555555")
    await forked.close()


async def test_messages_sent_during_a_turn_are_queued() -> None:
    client = fake()
    await started(client)
    await client.send(builders.user_message("kw:bash please"))
    req = (await until(client, is_permission))[-1]
    await client.send(builders.user_message("kw:plain"))  # while waiting
    await client.answer_permission(builders.allow(req.request_id, {}))
    first = await until(client, is_result)
    second = await until(client, is_result)
    assert tool_results(first)[0]["content"] == "hello-from-bash"
    assert "Hello! You said" in second[-1].raw["result"]
    await client.close()


async def test_stdin_eof_ends_the_fake_cleanly() -> None:
    client = fake()
    await started(client)
    exited = await client.close()
    assert exited is not None and exited.returncode == 0


# -- replaying the recorded stdin ----------------------------------------------

EXACT = ["text", "thinking", "bash-allow", "bash-deny", "edit-allow", "write-create", "write-overwrite",
         "ask-single", "ask-multi", "plan-exit", "subagent", "tasks", "long-stream", "untrusted-text",
         "max-turns", "slash-cost", "slash-context"]


@pytest.mark.parametrize("name", EXACT + ["resume"])
async def test_recorded_stdin_replays_to_the_recorded_sequence(name: str) -> None:
    stdin = [json.loads(x) for x in (FIXTURES / f"{name}.stdin.ndjson").read_text().splitlines()]
    recorded = [json.loads(x) for x in (FIXTURES / f"{name}.stdout.ndjson").read_text().splitlines()]
    client = fake(max_turns=1) if name == "max-turns" else fake()
    await client.start()
    got: list[Any] = []
    for line in stdin:
        if line["type"] == "control_response":
            if not any(is_permission(i) for i in got):
                got += await until(client, is_permission)
            rid = [i for i in got if is_permission(i)][-1].request_id
            line["response"]["request_id"] = rid
            assert await client.answer_permission(line)
        else:
            await client.send(line)
    got += await until(client, is_result)
    if name == "resume":  # no keyword: the welcome answer, same shape, other length
        assert collapse(keys(got)) == collapse([key(r) for r in recorded])
    else:
        assert keys(got) == [key(r) for r in recorded]
    await client.close()


async def test_interrupt_recordings_replay_to_the_same_shape() -> None:
    for name, wait_for in (("interrupt-stream", is_type("stream_event", "content_block_delta")),
                           ("interrupt-permission", is_permission)):
        recorded = [json.loads(x) for x in (FIXTURES / f"{name}.stdout.ndjson").read_text().splitlines()]
        stdin = [json.loads(x) for x in (FIXTURES / f"{name}.stdin.ndjson").read_text().splitlines()]
        client = fake()
        await client.start()
        await client.send(stdin[0])
        await client.send(stdin[1])
        got = await until(client, wait_for)
        await client.send(stdin[2])
        got += await until(client, is_result)
        want = [key(r) for r in recorded]
        if name == "interrupt-stream":
            # the recording's aborted assistant/interrupt lines come before the stream closes
            assert collapse(keys(got)) == collapse(want)
        else:
            assert keys(got) == want
        await client.close()


# -- faults --------------------------------------------------------------------


async def test_fault_exit1_at_start() -> None:
    client = fake("exit1-at-start")
    await client.start()
    items = await until(client, lambda i: isinstance(i, ProcessExited))
    assert items[-1].returncode == 1
    assert "Invalid API key · Please run /login" in items[-1].stderr_tail
    await client.close()


async def test_fault_kill_mid_stream() -> None:
    client = fake("kill-mid-stream", env={"FAKE_CLAUDE_FAULT_AFTER": "6"})
    await started(client)
    await client.send(builders.user_message("kw:plain"))
    items = await until(client, lambda i: isinstance(i, ProcessExited))
    assert items[-1].returncode == -signal.SIGKILL
    assert len([i for i in items if hasattr(i, "raw")]) == 5  # 6 lines minus the initialize response
    await client.close()


async def test_fault_garbage_lines_are_survivable() -> None:
    client = fake("garbage")
    await started(client)
    await client.send(builders.user_message("kw:plain"))
    items = await until(client, is_result)
    invalid = [i for i in items if i.type == "invalid"]
    assert len(invalid) >= 10
    assert items[-1].raw["subtype"] == "success"
    await client.close()


async def test_fault_huge_line_decodes() -> None:
    client = fake("huge-line")
    await started(client)
    await client.send(builders.user_message("kw:plain"))
    items = await until(client, is_result, limit=120)
    huge = [i for i in items if is_type("assistant")(i)][0]
    assert len(huge.raw["message"]["content"][0]["text"]) == 64 * 1024 * 1024
    assert items[-1].raw["subtype"] == "success"
    await client.close()


async def test_fault_stderr_flood_does_not_block() -> None:
    client = fake("stderr-flood")
    init = await started(client)  # the fake writes 10 MiB of stderr before answering
    assert init.payload["commands"]
    exited = await client.close()
    assert exited is not None and exited.returncode == 0
    assert "stderr flood done" in exited.stderr_tail
    assert len(exited.stderr_tail.encode()) <= 64 * 1024


async def test_fault_silent_permission() -> None:
    client = fake("silent-permission")
    await started(client)
    await client.send(builders.user_message("hello"))
    req = (await until(client, is_permission))[-1]
    assert client.pending_permissions == (req.request_id,)
    with pytest.raises(ControlTimeout):
        await client.interrupt(timeout=0.5)
    client.interrupt_timeout = 0.2
    client.close_grace = 0.3
    exited = await client.close()  # ignores stdin EOF: needs SIGTERM
    assert exited is not None and exited.returncode == -signal.SIGTERM


async def test_fault_close_stdout() -> None:
    client = fake("close-stdout")
    await started(client)
    await client.send(builders.user_message("kw:plain"))
    items = await until(client, lambda i: isinstance(i, ProcessExited))
    assert items[-1].stdout_closed_early
    assert items[-1].returncode == 0  # stdin EOF let it exit on its own
    await client.close()


def test_keyword_table() -> None:
    assert scenarios.pick("kw:overwrite a.txt") == "overwrite"
    assert scenarios.pick("please write a file") == "write"
    assert scenarios.pick("kw:multiq please") == "multiq"
    assert scenarios.pick("/cost") == "cost"
    assert scenarios.pick("/context") == "context"
    assert scenarios.pick("what's up") == "welcome"
    assert scenarios.pick("tell me a story") == "slow"
    assert set(scenarios.names()) >= {"plain", "bash", "edit", "ask", "plan", "agent", "tasks", "slow", "welcome"}


# -- prompt echoes and file rewinds (--replay-user-messages) -----------------------------


async def test_prompts_are_echoed_at_turn_start_and_edits_can_be_rewound() -> None:
    client = fake(file_checkpoints=True)
    await started(client)
    try:
        await client.send(builders.user_message("kw:edit the file"))
        items = await until(client, is_permission)
        # Like the real CLI: the echo follows the turn's system lines.
        assert keys(items)[:3] == [("system", "init"), ("system", "status"), ("user", None)]
        echo = items[2].raw
        assert echo["isReplay"] is True and echo["message"]["content"][0]["text"] == "kw:edit the file"
        request = next(i for i in items if is_permission(i))
        await client.answer_permission(builders.allow(request.raw["request_id"], {}))
        await until(client, is_result)
        dry = await client.request(builders.rewind_files(echo["uuid"], dry_run=True), timeout=10)
        # The path as printed: the recording's cwd is rewritten to the fake's own (here, ours).
        assert dry.payload == {"canRewind": True, "filesChanged": [os.path.join(os.getcwd(), "a.txt")],
                               "insertions": 1, "deletions": 1}
        done = await client.request(builders.rewind_files(echo["uuid"]), timeout=10)
        assert done.payload["canRewind"] is True
        again = await client.request(builders.rewind_files(echo["uuid"], dry_run=True), timeout=10)
        assert again.payload["filesChanged"] == []
        unknown = await client.request(builders.rewind_files("nope", dry_run=True), timeout=10)
        assert unknown.payload == {"canRewind": False, "error": "No file checkpoint found for this message."}
    finally:
        await client.close()


def test_the_demo_leaves_out_calls_to_tools_its_cli_has_off() -> None:
    """The tasks recording has a TodoWrite call the recording CLI refused; the demo does not replay it."""
    from claude_tui.fakecli import recordings as rec

    turn = rec.turn("tasks")
    assert any(rec.UNAVAILABLE in json.dumps(line) for line in turn)
    kept = rec.without_unavailable_tools(turn)
    assert not any(rec.UNAVAILABLE in json.dumps(line) or "TodoWrite" in json.dumps(line.get("message"))
                   for line in kept)
    assert kept[-1]["type"] == "result" and "Tasks handled." in json.dumps(kept)
    assert sum("TaskUpdate" in json.dumps(line) for line in kept) == sum("TaskUpdate" in json.dumps(line) for line in turn)


def test_resume_session_at_without_resume_is_refused_as_the_real_cli_does(capsys) -> None:  # type: ignore[no-untyped-def]
    from claude_tui.fakecli.server import main, parse_args

    assert main(["--resume-session-at", "some-uuid"]) == 1
    assert "Error: --resume-session-at requires --resume" in capsys.readouterr().err
    args = parse_args(["--resume", "S", "--resume-session-at", "U"])
    assert (args.resume, args.resume_session_at) == ("S", "U")
