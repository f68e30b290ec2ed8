"""Part of an Edit, against the real CLI: the rebuilt input is applied as sent, and a prompt sent
right after the answer reaches the API in the same turn (how Claude learns what was left out)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from claude_tui.diff.compute import diff_texts
from claude_tui.diff.partial import apply_hunks, rebuilt_input
from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import TWO_HUNK_AFTER, TWO_HUNK_BEFORE
from tests.e2e.raw_cli import RawCli, is_control, is_type, user_text

Start = Callable[..., RawCli]
LEFT_OUT = "I left out hunk 1 of your edit (lines 1-5): keep line 2 as it is."


def test_one_hunk_of_two_is_applied_and_claude_is_told(start_cli: Start, project_dir: Path,
                                                      mock_api: MockApi) -> None:
    (project_dir / "two.txt").write_text(TWO_HUNK_BEFORE)
    cli = start_cli("--permission-mode", "default")
    cli.initialize()
    mark = cli.send_user("kw:twohunk change two lines")
    req = cli.wait_for(is_control("can_use_tool"), start=mark)
    assert req["request"]["tool_name"] == "Edit", req
    hunks = diff_texts(TWO_HUNK_BEFORE, TWO_HUNK_AFTER)
    assert len(hunks) == 2
    partial = apply_hunks(TWO_HUNK_BEFORE, hunks, {1})
    cli.allow(req, rebuilt_input("Edit", req["request"]["input"], TWO_HUNK_BEFORE, partial))
    cli.send(user_text(LEFT_OUT))
    results = []
    result = cli.result(mark, timeout=40)
    results.append(result)
    assert (project_dir / "two.txt").read_text() == TWO_HUNK_BEFORE.replace("line 18\n", "LINE 18\n")
    # The next request after the tool result carries the note, before the turn's result.
    bodies = [json.dumps(r.body) for r in mock_api.messages_requests() if not r.subagent]
    told = [n for n, body in enumerate(bodies) if LEFT_OUT in body]
    assert told, bodies[-1][-3000:]
    print("requests", len(bodies), "told at", told, "results", len(cli.find(is_type("result"), mark)))
    last = mock_api.messages_requests()[-1].body["messages"][-1]
    print(json.dumps(last)[:1500])
