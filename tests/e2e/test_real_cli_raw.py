"""The real Claude Code CLI, driven over raw stream-json against the local API stand-in.

Every wait is bounded (RawCli.wait_for raises CliTimeout); every CLI is ended
by the ``start_cli`` fixture, which also checks that nothing it started lives on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.e2e.conftest import A_TXT
from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import ESCAPE_TEXT, PLAN_TEXT, longstream_text
from tests.e2e.raw_cli import Message, RawCli, is_control, is_type

Start = Callable[..., RawCli]


def deltas(cli: RawCli, kind: str, start: int = 0, parent: Any = None) -> list[dict[str, Any]]:
    """The stream_event deltas of one kind (text_delta, thinking_delta, ...)."""
    return [
        m["event"]["delta"]
        for m in cli.find(is_type("stream_event"), start)
        if m["event"]["type"] == "content_block_delta"
        and m["event"]["delta"]["type"] == kind
        and m.get("parent_tool_use_id") == parent
    ]


def tool_result_for(tool_use_id: str) -> Callable[[Message], bool]:
    def pred(m: Message) -> bool:
        content = m.get("message", {}).get("content") if m.get("type") == "user" else None
        return isinstance(content, list) and any(
            b.get("type") == "tool_result" and b.get("tool_use_id") == tool_use_id
            for b in content)

    return pred


def block_of(m: Message) -> dict[str, Any]:
    return m["message"]["content"][0]


def run_prompt(start_cli: Start, prompt: str, *args: str) -> tuple[RawCli, int]:
    cli = start_cli(*args)
    cli.initialize()
    return cli, cli.send_user(prompt)


def ask_permission(cli: RawCli, tool: str, mark: int) -> Message:
    req = cli.wait_for(is_control("can_use_tool"), start=mark)
    assert req["request"]["tool_name"] == tool, req
    return req


# -- session start ------------------------------------------------------------------


def test_initialize_lists_commands_and_models(start_cli: Start, mock_api: MockApi) -> None:
    cli = start_cli()
    resp = cli.initialize()
    assert resp["subtype"] == "success"
    body = resp["response"]
    names = {c["name"] for c in body["commands"]}
    assert {"context", "compact", "model"} <= names
    assert all({"name", "description", "argumentHint"} <= set(c) for c in body["commands"])
    assert body["models"] and all("value" in m and "displayName" in m for m in body["models"])
    assert body["account"]["apiKeySource"] == "ANTHROPIC_API_KEY"
    assert body["claude_code_version"] == "2.1.330"
    assert mock_api.requests == []  # initialize alone does not reach the API


# -- plain, thinking, untrusted text, long stream ---------------------------------------


def test_plain_text_streams_and_ends_with_cost(start_cli: Start, mock_api: MockApi) -> None:
    cli, mark = run_prompt(start_cli, "kw:plain hi")
    result = cli.result(mark)
    init = cli.wait_for(is_type("system", "init"), start=mark)
    streamed = "".join(d["text"] for d in deltas(cli, "text_delta", mark))
    assert streamed == "Hello! You said: kw:plain hi "
    assert len(deltas(cli, "text_delta", mark)) > 1
    assert result["subtype"] == "success" and result["is_error"] is False
    assert result["result"] == streamed
    assert result["session_id"] == init["session_id"]
    assert result["total_cost_usd"] > 0
    assert result["usage"]["input_tokens"] == 1200
    assert result["usage"]["cache_read_input_tokens"] == 30000
    model_usage = result["modelUsage"][init["model"]]
    assert model_usage["contextWindow"] > 0 and model_usage["outputTokens"] == 42
    assert [r.keyword for r in mock_api.messages_requests()] == ["plain"]


def test_thinking_streams_thinking_deltas(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:think what is the answer?")
    result = cli.result(mark)
    thought = "".join(d["thinking"] for d in deltas(cli, "thinking_delta", mark))
    assert thought.startswith("Let me think about this carefully.")
    assert deltas(cli, "signature_delta", mark)
    blocks = [block_of(m) for m in cli.find(is_type("assistant"), mark)]
    assert [b["type"] for b in blocks] == ["thinking", "text"]
    assert result["result"] == "Thought about it: **42**. "


def test_untrusted_text_arrives_verbatim(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:escape show me")
    result = cli.result(mark)
    assert result["result"] == ESCAPE_TEXT  # ESC, OSC 52, markup and bidi reach the app raw


def test_long_stream_delivers_every_delta(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:longstream go")
    result = cli.result(mark)
    expected = longstream_text()
    got = deltas(cli, "text_delta", mark)
    assert len(got) == len(expected) == 2000
    assert "".join(d["text"] for d in got) == "".join(expected) == result["result"]


# -- tools and permissions ------------------------------------------------------------


def test_bash_allow_runs_the_command(start_cli: Start, project_dir: Path) -> None:
    cli, mark = run_prompt(start_cli, "kw:bash please")
    req = ask_permission(cli, "Bash", mark)
    assert str(project_dir) in req["request"]["input"]["command"]
    assert req["request"]["permission_suggestions"]
    cli.allow(req)
    res = cli.wait_for(tool_result_for(req["request"]["tool_use_id"]), start=mark)
    assert res["tool_use_result"]["stdout"] == "hello-from-bash"
    assert res["tool_use_result"]["interrupted"] is False
    assert (project_dir / "touched").exists()
    result = cli.result(mark)
    assert result["subtype"] == "success" and result["result"] == "All done. The tool ran. "


def test_bash_deny_returns_our_message(start_cli: Start, project_dir: Path) -> None:
    cli, mark = run_prompt(start_cli, "kw:bash please")
    req = ask_permission(cli, "Bash", mark)
    cli.deny(req, "The user said no: do not touch files.")
    res = cli.wait_for(tool_result_for(req["request"]["tool_use_id"]), start=mark)
    block = res["message"]["content"][0]
    assert block["is_error"] is True
    assert block["content"] == "The user said no: do not touch files."
    assert not (project_dir / "touched").exists()
    result = cli.result(mark)
    assert [d["tool_name"] for d in result["permission_denials"]] == ["Bash"]


def test_edit_allow_patches_the_file(start_cli: Start, project_dir: Path) -> None:
    cli, mark = run_prompt(start_cli, "kw:edit the file")
    req = ask_permission(cli, "Edit", mark)
    assert req["request"]["input"]["file_path"] == str(project_dir / "a.txt")
    cli.allow(req)
    res = cli.wait_for(tool_result_for(req["request"]["tool_use_id"]), start=mark)
    tur = res["tool_use_result"]
    assert tur["originalFile"] == A_TXT
    assert tur["structuredPatch"][0]["lines"] == [" alpha", "-beta", "+BETA", " gamma"]
    assert (project_dir / "a.txt").read_text() == "alpha\nBETA\ngamma\n"
    assert cli.result(mark)["subtype"] == "success"


def test_write_creates_a_file(start_cli: Start, project_dir: Path) -> None:
    cli, mark = run_prompt(start_cli, "kw:write a new file")
    req = ask_permission(cli, "Write", mark)
    cli.allow(req)
    res = cli.wait_for(tool_result_for(req["request"]["tool_use_id"]), start=mark)
    assert res["tool_use_result"]["type"] == "create"
    assert res["tool_use_result"]["originalFile"] is None
    assert (project_dir / "new.txt").read_text() == "line1\nline2\n"


def test_write_overwrites_a_file(start_cli: Start, project_dir: Path) -> None:
    cli, mark = run_prompt(start_cli, "kw:overwrite a.txt")
    req = ask_permission(cli, "Write", mark)
    cli.allow(req)
    res = cli.wait_for(tool_result_for(req["request"]["tool_use_id"]), start=mark)
    tur = res["tool_use_result"]
    assert tur["type"] == "update" and tur["originalFile"] == A_TXT
    assert tur["structuredPatch"][0]["lines"][-1] == "+delta"
    assert (project_dir / "a.txt").read_text() == "alpha\nBETA\ngamma\ndelta\n"


def test_ask_single_question(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:ask me")
    req = ask_permission(cli, "AskUserQuestion", mark)
    assert req["request"].get("requires_user_interaction") is True
    questions = req["request"]["input"]["questions"]
    assert [q["question"] for q in questions] == ["Which color?"]
    cli.allow(req, {"questions": questions, "answers": {"Which color?": "Blue"}})
    res = cli.wait_for(tool_result_for(req["request"]["tool_use_id"]), start=mark)
    assert res["tool_use_result"]["answers"] == {"Which color?": "Blue"}
    assert '"Which color?"="Blue"' in res["message"]["content"][0]["content"]
    assert cli.result(mark)["subtype"] == "success"


def test_ask_two_questions_one_multiselect(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:multiq please")
    req = ask_permission(cli, "AskUserQuestion", mark)
    questions = req["request"]["input"]["questions"]
    assert [q["multiSelect"] for q in questions] == [False, True]
    answers = {"Which color?": "Red", "Which toppings?": "Cheese, Olives"}
    cli.allow(req, {"questions": questions, "answers": answers})
    res = cli.wait_for(tool_result_for(req["request"]["tool_use_id"]), start=mark)
    assert res["tool_use_result"]["answers"] == answers


def test_plan_mode_exit_plan(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:plan it", "--permission-mode", "plan")
    assert cli.wait_for(is_type("system", "init"), start=mark)["permissionMode"] == "plan"
    req = ask_permission(cli, "ExitPlanMode", mark)
    assert req["request"]["input"] == {}  # the plan is in the assistant's tool_use block
    tool_use = next(block_of(m) for m in cli.find(is_type("assistant"), mark)
                    if block_of(m).get("id") == req["request"]["tool_use_id"])
    assert tool_use["input"]["plan"] == PLAN_TEXT
    cli.allow(req, {})
    status = cli.wait_for(lambda m: m.get("subtype") == "status" and "permissionMode" in m,
                          start=mark)
    assert status["permissionMode"] == "default"
    assert cli.result(mark)["subtype"] == "success"


def test_modes_and_model_switch(start_cli: Start, project_dir: Path) -> None:
    cli, mark = run_prompt(start_cli, "kw:plain first")
    cli.result(mark)
    mark = len(cli.messages)
    assert cli.control("set_permission_mode", mode="acceptEdits")["response"]["subtype"] == "success"
    assert cli.control("set_model", model="sonnet")["response"]["subtype"] == "success"
    replay = cli.wait_for(lambda m: m.get("type") == "user" and m.get("isReplay"), start=mark)
    assert "<local-command-stdout>Set model to" in replay["message"]["content"]
    mark = cli.send_user("kw:edit the file")
    result = cli.result(mark)
    assert not cli.find(is_control("can_use_tool"), mark)  # acceptEdits: no prompt
    assert (project_dir / "a.txt").read_text() == "alpha\nBETA\ngamma\n"
    assert any("sonnet" in model for model in result["modelUsage"])


# -- interrupts -------------------------------------------------------------------------


def test_interrupt_while_streaming(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:slow story")
    cli.wait_for(lambda m: len(deltas(cli, "text_delta", mark)) >= 5, start=mark)
    assert cli.control("interrupt")["response"]["subtype"] == "success"
    cli.wait_for(lambda m: m.get("type") == "user" and m["message"]["content"]
                 == [{"type": "text", "text": "[Request interrupted by user]"}], start=mark)
    result = cli.result(mark)
    assert result["subtype"] == "error_during_execution" and result["is_error"] is True
    assert len(deltas(cli, "text_delta", mark)) < 300  # the stream really stopped


def test_interrupt_cancels_pending_permission(start_cli: Start, project_dir: Path) -> None:
    cli, mark = run_prompt(start_cli, "kw:edit the file")
    req = ask_permission(cli, "Edit", mark)
    cli.control("interrupt")
    cancel = cli.wait_for(is_type("control_cancel_request"), start=mark)
    assert cancel["request_id"] == req["request_id"]
    result = cli.result(mark)
    assert result["subtype"] == "error_during_execution"
    assert (project_dir / "a.txt").read_text() == A_TXT


# -- subagents and tasks ------------------------------------------------------------------


def test_background_subagent(start_cli: Start, mock_api: MockApi) -> None:
    cli, mark = run_prompt(start_cli, "kw:agent go")
    started = cli.wait_for(is_type("system", "task_started"), start=mark)
    tool_use_id = started["tool_use_id"]
    note = cli.wait_for(is_type("system", "task_notification"), start=mark)
    assert note["status"] == "completed" and note["tool_use_id"] == tool_use_id
    sub = cli.find(lambda m: m.get("parent_tool_use_id") == tool_use_id, mark)
    assert any(m["type"] == "assistant" for m in sub)
    assert any(r.subagent for r in mock_api.messages_requests())
    first = cli.result(mark)
    # the finished subagent makes the CLI start a main-thread turn of its own: a second
    # system/init + result with no user message from us
    later = cli.index(first) + 1
    cli.wait_for(is_type("system", "init"), start=later)
    assert cli.result(later)["session_id"] == first["session_id"]


def test_task_tools(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:tasks do the work")
    result = cli.result(mark)
    uses = [block_of(m) for m in cli.find(is_type("assistant"), mark)
            if block_of(m)["type"] == "tool_use"]
    assert [u["name"] for u in uses] == ["TaskCreate", "TaskCreate", "TaskUpdate",
                                         "TaskUpdate", "TaskUpdate"]
    results = [m["tool_use_result"] for m in cli.find(is_type("user"), mark)
               if "tool_use_result" in m]
    assert [r["task"]["id"] for r in results if "task" in r] == ["1", "2"]
    assert {"from": "in_progress", "to": "completed"} in [r.get("statusChange") for r in results]
    assert result["result"] == "Tasks handled. "


# -- local commands -------------------------------------------------------------------------


def test_slash_cost_is_synthetic(start_cli: Start, mock_api: MockApi) -> None:
    cli, mark = run_prompt(start_cli, "/cost")
    msg = cli.wait_for(is_type("assistant"), start=mark)
    assert msg["message"]["model"] == "<synthetic>"
    assert "Estimated cost" in block_of(msg)["text"]
    assert cli.result(mark)["subtype"] == "success"
    assert mock_api.messages_requests() == []


def test_slash_context_is_synthetic(start_cli: Start, mock_api: MockApi) -> None:
    cli, mark = run_prompt(start_cli, "/context")
    msg = cli.wait_for(is_type("assistant"), start=mark)
    assert msg["message"]["model"] == "<synthetic>"
    assert "Context Usage" in block_of(msg)["text"]
    assert cli.result(mark)["subtype"] == "success"
    assert {r.path.split("?")[0] for r in mock_api.side_requests()} == {
        "/v1/messages/count_tokens"}


# -- API errors -------------------------------------------------------------------------------


def test_overloaded_is_retried(start_cli: Start, mock_api: MockApi) -> None:
    cli, mark = run_prompt(start_cli, "kw:retry now")
    result = cli.result(mark, timeout=30)
    retries = cli.find(is_type("system", "api_retry"), mark)
    assert [(r["attempt"], r["error_status"]) for r in retries] == [(1, 529), (2, 529)]
    assert all(r["retry_delay_ms"] > 0 and r["max_retries"] >= 2 for r in retries)
    assert result["subtype"] == "success" and result["result"] == "Recovered after retries. "
    assert [r.status for r in mock_api.messages_requests()] == [529, 529, 200]


def test_authentication_error(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:autherr now")
    result = cli.result(mark)
    msg = cli.wait_for(is_type("assistant"), start=mark)
    assert msg["message"]["model"] == "<synthetic>"
    assert msg.get("error") == "authentication_failed"
    assert "Invalid API key" in block_of(msg)["text"]
    assert result["is_error"] is True and result["terminal_reason"] == "api_error"


def test_max_turns(start_cli: Start) -> None:
    cli, mark = run_prompt(start_cli, "kw:maxturns loop", "--max-turns", "1")
    result = cli.result(mark)
    assert result["subtype"] == "error_max_turns" and result["is_error"] is True
    assert result["errors"] == ["Reached maximum number of turns (1)"]


# -- resume -------------------------------------------------------------------------------------


def test_resume_keeps_session_id(start_cli: Start, mock_api: MockApi, project_dir: Path,
                                 config_dir: Path) -> None:
    first, mark = run_prompt(start_cli, "kw:plain first run")
    session_id = first.result(mark)["session_id"]
    first.close()
    encoded = re.sub(r"[^A-Za-z0-9]", "-", str(project_dir))
    transcript = config_dir / "projects" / encoded / f"{session_id}.jsonl"
    assert transcript.is_file()
    assert '"entrypoint":"sdk-cli"' in transcript.read_text()

    second, mark = run_prompt(start_cli, "follow-up after resume", "--resume", session_id)
    result = second.result(mark)
    assert second.wait_for(is_type("system", "init"), start=mark)["session_id"] == session_id
    assert result["session_id"] == session_id
    assert result["result"] == "Hello! You said: follow-up after resume "
    assert not second.find(lambda m: m.get("type") == "assistant" and "first run" in str(m))
    last = mock_api.messages_requests()[-1].body
    assert "kw:plain first run" in str(last["messages"])  # the history reached the API
