from __future__ import annotations

import json
from pathlib import Path

from claude_tui.history.synth import write_jsonl
from claude_tui.history.transcript import load_session, load_transcript

FIXTURES = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "sessions" / "-home-user-project"
SID = "11111111-2222-3333-4444-555555555555"


def u(uuid: str, parent: str | None, text: str, **kw) -> dict:
    return {"type": "user", "uuid": uuid, "parentUuid": parent, "isSidechain": False,
            "message": {"role": "user", "content": text}, **kw}


def a(uuid: str, parent: str | None, content: list | str, msg_id: str | None = None, **kw) -> dict:
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    return {"type": "assistant", "uuid": uuid, "parentUuid": parent, "isSidechain": False,
            "message": {"id": msg_id or f"m-{uuid}", "role": "assistant", "model": "m", "content": content}, **kw}


def tool_use(tid: str, name: str = "Task", **inp) -> dict:
    return {"type": "tool_use", "id": tid, "name": name, "input": inp}


def tool_result(uuid: str, parent: str, tid: str, **kw) -> dict:
    return {"type": "user", "uuid": uuid, "parentUuid": parent, "isSidechain": False,
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tid, "content": "ok"}]}, **kw}


def uuids(t) -> list[str]:
    return [r["uuid"] for r in t.records]


def test_real_fixture_chain_and_cost() -> None:
    t = load_transcript(FIXTURES / "1371d147-61d8-4b34-beff-86ba0e32e82d.jsonl")
    msgs = t.messages()
    assert [m["type"] for m in msgs] == ["user", "assistant", "user", "assistant", "user", "assistant"]
    assert msgs[0]["message"]["content"][0]["text"] == "kw:edit the file"
    assert msgs[2]["toolUseResult"]["structuredPatch"][0]["lines"] == [" alpha", "-beta", "+BETA", " gamma"]
    assert t.cost_state is not None and t.cost_state["totalCostUSD"] == 0.04242
    assert t.leaf_uuid == msgs[-1]["uuid"] and t.boundaries == [] and t.skipped_lines == 0
    assert msgs[0]["entrypoint"] == "sdk-cli"


def test_newest_leaf_wins_abandoned_branch_dropped(tmp_path: Path) -> None:
    recs = [u("1", None, "hi"), a("2", "1", "hello"), u("3", "2", "old question"), a("4", "3", "old answer"),
            u("5", "2", "edited question"), a("6", "5", "new answer")]
    t = load_transcript(write_jsonl(tmp_path / f"{SID}.jsonl", recs))
    assert uuids(t) == ["1", "2", "5", "6"]


def test_corrupt_lines_skipped(tmp_path: Path) -> None:
    p = tmp_path / f"{SID}.jsonl"
    p.write_text("\n".join([json.dumps(u("1", None, "hi")), "{broken", "[]", json.dumps({"type": "novel"}),
                            json.dumps(a("2", "1", "ok")), '{"type":"user","uuid":"3","par']))
    t = load_transcript(p)
    assert uuids(t) == ["1", "2"] and t.skipped_lines == 3


def test_compaction_boundary_marked_history_kept(tmp_path: Path) -> None:
    recs = [u("1", None, "before"), a("2", "1", "earlier answer"),
            {"type": "system", "subtype": "compact_boundary", "uuid": "b", "parentUuid": None,
             "logicalParentUuid": "2", "content": "Conversation compacted", "compactMetadata": {"trigger": "auto"}},
            u("s", "b", "This session is being continued...", isCompactSummary=True, isVisibleInTranscriptOnly=True),
            u("3", "s", "after"), a("4", "3", "later answer")]
    t = load_transcript(write_jsonl(tmp_path / f"{SID}.jsonl", recs))
    assert uuids(t) == ["1", "2", "b", "s", "3", "4"]
    assert t.boundaries == [2]
    assert t.before_compaction(0) and t.before_compaction(1) and not t.before_compaction(3)


def test_in_file_sidechain_attached_to_task(tmp_path: Path) -> None:
    recs = [u("1", None, "go"), a("2", "1", [tool_use("toolu_T", prompt="Find the bug")]),
            {**u("s1", None, "Find the bug"), "isSidechain": True, "agentId": "ag1"},
            {**a("s2", "s1", "found it"), "isSidechain": True, "agentId": "ag1"},
            tool_result("3", "2", "toolu_T", toolUseResult={"agentId": "ag1", "status": "completed"}),
            a("4", "3", "done")]
    t = load_transcript(write_jsonl(tmp_path / f"{SID}.jsonl", recs))
    assert uuids(t) == ["1", "2", "3", "4"]  # sidechain not in the main chain
    assert [r["uuid"] for r in t.subagents["toolu_T"]] == ["s1", "s2"]
    assert t.records[2]["toolUseResult"]["agentId"] == "ag1"


def test_subagent_files_attached(tmp_path: Path) -> None:
    main = write_jsonl(tmp_path / f"{SID}.jsonl", [
        u("1", None, "go"), a("2", "1", [tool_use("toolu_A", prompt="Explore it"), tool_use("toolu_B", name="Agent", prompt="Plan it")], msg_id="m"),
        tool_result("3", "2", "toolu_A"), tool_result("4", "2", "toolu_B"), a("5", "4", "done")])
    sub = tmp_path / SID / "subagents"
    write_jsonl(sub / "agent-aaa.jsonl", [{**u("x1", None, "Explore it"), "isSidechain": True}, {**a("x2", "x1", "explored"), "isSidechain": True}])
    write_jsonl(sub / "workflows" / "run1" / "agent-bbb.jsonl", [{**u("y1", None, "whatever"), "isSidechain": True}])
    (sub / "workflows" / "run1" / "agent-bbb.meta.json").write_text(json.dumps({"toolUseId": "toolu_B"}))
    t = load_transcript(main)
    assert [r["uuid"] for r in t.subagents["toolu_A"]] == ["x1", "x2"]  # matched by prompt
    assert [r["uuid"] for r in t.subagents["toolu_B"]] == ["y1"]  # matched by sidecar


def test_parallel_tool_results_recovered(tmp_path: Path) -> None:
    recs = [u("1", None, "read both"),
            a("2", "1", [tool_use("t1", name="Read", file_path="/a")], msg_id="M"),
            a("3", "2", [tool_use("t2", name="Read", file_path="/b")], msg_id="M"),
            tool_result("4", "2", "t1"), tool_result("5", "3", "t2"), a("6", "5", "both read")]
    t = load_transcript(write_jsonl(tmp_path / f"{SID}.jsonl", recs))
    got = uuids(t)
    assert set(got) == {"1", "2", "3", "4", "5", "6"}
    assert got.index("4") > got.index("2") and got[-1] == "6" and got[0] == "1"


def test_load_session_by_id(tmp_path: Path) -> None:
    pdir = tmp_path / "projects" / "-p"
    write_jsonl(pdir / f"{SID}.jsonl", [u("1", None, "hi")])
    t = load_session(SID, root=tmp_path)
    assert t is not None and uuids(t) == ["1"]
    assert load_session("22222222-2222-3333-4444-555555555555", root=tmp_path) is None


def test_markdown_export_folds_thinking_and_marks_compaction(tmp_path: Path) -> None:
    from claude_tui.history.export import to_markdown

    recs = [u("1", None, "why?"),
            {"type": "system", "subtype": "compact_boundary", "uuid": "b", "parentUuid": None, "logicalParentUuid": "1"},
            a("2", "b", [{"type": "thinking", "thinking": "secret ```plan```"}, {"type": "text", "text": "because"},
                         tool_use("t", name="Bash", command="ls -la")])]
    md = to_markdown(load_transcript(write_jsonl(tmp_path / f"{SID}.jsonl", recs)), title="T")
    assert "<details><summary>Thinking</summary>" in md and "````\nsecret ```plan```\n````" in md
    assert "> Conversation compacted" in md and "#### Bash (interrupted)\n\n```bash\nls -la\n```" in md
    assert md.index("why?") < md.index("Conversation compacted") < md.index("because")
    assert "secret" not in to_markdown(load_transcript(tmp_path / f"{SID}.jsonl"), include_thinking=False)


def test_count_messages_full_scan() -> None:
    from claude_tui.history.scan import count_messages

    assert count_messages(FIXTURES / "1371d147-61d8-4b34-beff-86ba0e32e82d.jsonl") == 6
    assert count_messages(FIXTURES / "f122259a-3b96-4c04-9b7c-9b19a6582dba.jsonl") == 2
