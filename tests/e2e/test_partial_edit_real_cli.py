"""Part of an Edit, against the real CLI: the rebuilt input is applied as sent, and a prompt sent
right after the answer reaches the API in the same turn (how Claude learns what was left out)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from claude_tui.diff.compute import diff_texts
from claude_tui.diff.partial import apply_hunks, rebuilt_input
from claude_tui.history.export import to_markdown
from claude_tui.history.transcript import load_session
from claude_tui.session.items import ToolItem
from claude_tui.session.replay import replay
from claude_tui.transport.options import CliOptions
from claude_tui.ui.dialogs.permission import PermissionScreen
from tests.e2e.app_driver import drive
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
    cli.result(mark, timeout=40)
    assert (project_dir / "two.txt").read_text() == TWO_HUNK_BEFORE.replace("line 18\n", "LINE 18\n")
    # The next request after the tool result carries the note, before the turn's result.
    bodies = [json.dumps(r.body) for r in mock_api.messages_requests() if not r.subagent]
    told = [n for n, body in enumerate(bodies) if LEFT_OUT in body]
    assert told, bodies[-1][-3000:]
    assert len(cli.find(is_type("result"), mark)) == 1  # one turn: the note came within it


async def test_the_app_applies_one_hunk_and_claude_hears_which_was_left_out(
        app_options: Callable[..., CliOptions], project_dir: Path, mock_api: MockApi, config_dir: Path) -> None:
    (project_dir / "two.txt").write_text(TWO_HUNK_BEFORE)
    async with drive(app_options()) as d:
        await d.send("kw:twohunk change two lines")
        dialog = await d.wait_screen(PermissionScreen)
        assert isinstance(dialog, PermissionScreen)
        await d.wait(lambda: dialog.review is not None, "the preview's two hunks under review")
        await d.press("space", "y")  # hunk 1 left out, hunk 2 taken
        await d.wait(lambda: d.conversation.status.turn_running is False and d.tool("Edit").structured,
                     "the Edit's result and the turn's end")
        await d.wait_turns(1)
        assert (project_dir / "two.txt").read_text() == TWO_HUNK_BEFORE.replace("line 18\n", "LINE 18\n")
        tool = d.tool("Edit")
        changed = [line for h in tool.structured["structuredPatch"] for line in h["lines"] if line[:1] in "+-"]
        assert changed == ["-line 18", "+LINE 18"]  # the card draws the CLI's patch: what was applied
        assert tool.input["new_string"] == "LINE 18\n" and "Allowed 1 of 2 hunks" in tool.decision
        session_id = d.conversation.status.session_id
    requests = [r for r in mock_api.messages_requests() if not r.subagent]
    told = [json.dumps(r.body) for r in requests if "left out 1 of 2 hunks" in json.dumps(r.body)]
    assert told, "the stand-in never heard which hunk was left out"
    assert "hunk 1 (lines 1-5)" in told[0] and "-line 2\\n+LINE 2" in told[0]
    # A resumed transcript shows what was applied (the CLI's own record of the result).
    transcript = load_session(session_id, root=config_dir, cwd=project_dir)
    assert transcript is not None
    conversation = replay(transcript.records, transcript.subagents, session_id=session_id)
    [edit] = [i for i in conversation.items if isinstance(i, ToolItem) and i.name == "Edit"]
    patch = edit.structured["structuredPatch"] if edit.structured else []
    assert [line for h in patch for line in h["lines"] if line[:1] in "+-"] == ["-line 18", "+LINE 18"]
    assert edit.input["new_string"] == "LINE 18\n"  # what ran, not the two-hunk input Claude asked for
    exported = to_markdown(transcript)
    card = exported[exported.index("#### Edit"):]
    card = card[:card.index("\n### ")]  # the Edit's own section (the note after it quotes the hunk left out)
    assert "+LINE 18" in card and "LINE 2" not in card
