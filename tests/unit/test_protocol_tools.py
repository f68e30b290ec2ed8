"""Tool input/result views against the recorded tool calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_tui.protocol import AssistantMessage, ControlRequest, UserMessage, decode_line
from claude_tui.protocol import tool_results as tr
from claude_tui.protocol import tools as t

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "claude-code-2.1.330"


def _recorded():
    """(tool name, input, tool_use_result) for every recorded tool call."""
    names, inputs, out = {}, {}, []
    for path in sorted(FIX.glob("*.stdout.ndjson")):
        for line in path.read_bytes().splitlines():
            m = decode_line(line)
            if isinstance(m, AssistantMessage):
                for u in m.tool_uses:
                    names[u.id], inputs[u.id] = u.name, u.input
            elif isinstance(m, UserMessage):
                for r in m.tool_results:
                    out.append((names[r.tool_use_id], inputs[r.tool_use_id], m.tool_use_result))
    return out


RECORDED = _recorded()

INPUT_CLASSES = {
    "Edit": t.EditInput, "Write": t.WriteInput, "Bash": t.BashInput, "Task": t.TaskInput,
    "TaskCreate": t.TaskCreateInput, "TaskUpdate": t.TaskUpdateInput, "TodoWrite": t.TodoWriteInput,
    "AskUserQuestion": t.AskUserQuestionInput, "ExitPlanMode": t.ExitPlanModeInput,
}


def test_recordings_cover_tools() -> None:
    assert {n for n, _, _ in RECORDED} >= set(INPUT_CLASSES)


@pytest.mark.parametrize("name, inp, result", RECORDED, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(RECORDED)])
def test_recorded_inputs_and_results(name: str, inp: dict, result) -> None:
    view = t.tool_input(name, inp)
    # An MCP server's tools (the manage recording's notes server) all read as MCP input.
    assert type(view) is (t.McpInput if name.startswith("mcp__") else INPUT_CLASSES[name])
    assert t.tool_summary(name, inp) or name.startswith("mcp__")  # an MCP tool's card shows its JSON input
    rv = tr.tool_result_view(name, result)
    if isinstance(result, str):
        assert isinstance(rv, tr.ErrorResult) and rv.message == result
    else:
        assert type(rv) is tr.TOOL_RESULTS.get(name, tr.GenericResult), name


def test_edit_and_write_results() -> None:
    edit = next(r for n, _, r in RECORDED if n == "Edit" and isinstance(r, dict))
    v = tr.tool_result_view("Edit", edit)
    assert v.file_path == "/home/user/project/a.txt" and v.old_string == "beta" and v.new_string == "BETA"
    assert v.original_file == "alpha\nbeta\ngamma\n" and not v.user_modified and not v.replace_all
    assert v.structured_patch[0].lines == [" alpha", "-beta", "+BETA", " gamma"]
    assert (v.structured_patch[0].old_start, v.structured_patch[0].new_lines) == (1, 3)
    writes = [tr.tool_result_view("Write", r) for n, _, r in RECORDED if n == "Write"]
    assert {w.type for w in writes} == {"create", "update"}
    create = next(w for w in writes if w.type == "create")
    assert create.original_file is None and create.structured_patch == [] and create.content == "line1\nline2\n"


def test_bash_ask_task_plan_results() -> None:
    bash = tr.tool_result_view("Bash", next(r for n, _, r in RECORDED if n == "Bash" and isinstance(r, dict)))
    assert bash.stdout == "hello-from-bash" and bash.stderr == "" and not bash.interrupted and not bash.is_image
    ask = tr.tool_result_view("AskUserQuestion", next(r for n, _, r in RECORDED if n == "AskUserQuestion"))
    assert ask.answers["Which color?"] == "Blue"
    created = tr.tool_result_view("TaskCreate", next(r for n, _, r in RECORDED if n == "TaskCreate"))
    assert created.task.id == "1" and created.task.subject == "Read the code"
    upd = tr.tool_result_view("TaskUpdate", next(r for n, _, r in RECORDED if n == "TaskUpdate"))
    assert upd.task_id == "1" and upd.status_change == {"from": "pending", "to": "in_progress"}
    plan = tr.tool_result_view("ExitPlanMode", next(r for n, _, r in RECORDED if n == "ExitPlanMode"))
    assert plan.file_path.endswith(".md") and plan.plan is None


def test_ask_user_question_input() -> None:
    inp = next(i for n, i, _ in RECORDED if n == "AskUserQuestion" and len(i["questions"]) == 2)
    v = t.tool_input("AskUserQuestion", inp)
    assert [q.multi_select for q in v.questions] == [False, True]
    assert [o.label for o in v.questions[1].options] == ["Cheese", "Olives", "Basil"]


def test_exit_plan_mode_can_use_tool_input_is_empty() -> None:
    for line in (FIX / "plan-exit.stdout.ndjson").read_bytes().splitlines():
        m = decode_line(line)
        if isinstance(m, ControlRequest):
            assert m.request.input == {}
            assert isinstance(t.tool_input("ExitPlanMode", m.request.input), t.ExitPlanModeInput)


@pytest.mark.parametrize(
    "name, inp, expected",
    [
        ("Bash", {"command": "ls -la\necho hi"}, "$ ls -la …"),
        ("Read", {"file_path": "/a.py", "offset": 10, "limit": 20}, "/a.py:10-29"),
        ("Read", {"file_path": "/a.py"}, "/a.py"),
        ("Grep", {"pattern": "def main", "path": "src"}, "'def main' in src"),
        ("Glob", {"pattern": "**/*.py"}, "**/*.py"),
        ("Edit", {"file_path": "/x", "old_string": "a", "new_string": "b"}, "/x"),
        ("MultiEdit", {"file_path": "/x", "edits": [{"old_string": "a", "new_string": "b"}] * 2}, "/x (2 edits)"),
        ("Write", {"file_path": "/x", "content": "a\nb\n"}, "/x (2 lines)"),
        ("WebFetch", {"url": "https://example.com", "prompt": "p"}, "https://example.com"),
        ("WebSearch", {"query": "textual docs"}, "textual docs"),
        ("Task", {"description": "Explore", "prompt": "p", "subagent_type": "Explore"}, "Explore [Explore]"),
        ("Agent", {"description": "Explore", "prompt": "p"}, "Explore"),
        ("TaskUpdate", {"taskId": "3", "status": "completed"}, "#3 → completed"),
        ("TaskGet", {"taskId": "3"}, "#3"),
        ("TaskList", {}, "list tasks"),
        ("TodoWrite", {"todos": [{"content": "a", "status": "completed"}, {"content": "b"}]}, "1/2 done"),
        ("NotebookEdit", {"notebook_path": "/n.ipynb", "new_source": "x", "cell_id": "c1"}, "/n.ipynb [c1]"),
        ("mcp__github__search", {"query": "bug"}, "bug"),
        ("Unknown", {"path": "/p"}, "/p"),
    ],
)
def test_tool_summary(name: str, inp: dict, expected: str) -> None:
    assert t.tool_summary(name, inp) == expected


@pytest.mark.parametrize("inp", [None, 5, "x", [], {"file_path": 3}, {"command": None}, {"edits": "x"}])
@pytest.mark.parametrize("name", sorted(t.TOOL_INPUTS) + ["mcp__a__b", "Nope", ""])
def test_tool_input_never_raises(name: str, inp) -> None:
    view = t.tool_input(name, inp)
    assert isinstance(view, t.ToolInput)
    assert isinstance(t.tool_summary(name, inp), str)


@pytest.mark.parametrize("value", [None, "Error: x", 3, [1], {"filePath": 5}, {}])
def test_tool_result_view_never_raises(value) -> None:
    for name in list(tr.TOOL_RESULTS) + ["Other"]:
        v = tr.tool_result_view(name, value)
        assert v is None or isinstance(v, tr.ToolResultView)


def test_mcp_names() -> None:
    assert t.split_mcp_name("mcp__github__list_prs") == ("github", "list_prs")
    assert t.split_mcp_name("mcp__claude_ai_Gmail__send__mail") == ("claude_ai_Gmail", "send__mail")
    assert t.split_mcp_name("Bash") is None and t.split_mcp_name("mcp__x") is None
    assert t.display_tool_name("mcp__github__list_prs") == "github › list_prs"
    assert t.display_tool_name("Read") == "Read"
    assert isinstance(t.tool_input("mcp__github__x", {"a": 1}), t.McpInput)
    assert json.dumps(t.tool_input("mcp__github__x", {"a": 1}).raw) == '{"a": 1}'
