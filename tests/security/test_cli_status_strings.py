"""Short CLI strings that used to reach the screen unsanitized — a Bash result's
`returnCodeInterpretation`, a task's status and id (sidebar row, its notification, the agent
transcript), a control request's error (`chat.py` notifies it) — are inert: no OSC, CSI or C1 of
theirs reaches the terminal, and they are shown with visible stand-ins instead."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import OptionList

from claude_tui.config import Config
from claude_tui.session.tasks import AGENT_STATUSES, agent_status
from claude_tui.ui.chat.agent_transcript import AgentTranscriptScreen
from claude_tui.ui.log.tool_card import ToolCard
from claude_tui.ui.panels.sidebar import TaskSidebar
from tests.reliability.harness import chat, fake_options, make_app, wait_for, wait_ready
from tests.security.test_untrusted_text import assert_inert, feed, screen_rows

EVIL = "\x1b]0;x\x07\x1b[2J\x9bZ"
"""An OSC title write, a clear screen, a C1 CSI: what the brief names, in one string."""
SHOWN = "␛]0;x␇␛[2J"
"""How `printable` shows its start: the control pictures, on screen and harmless."""


def _tool_lines() -> list[dict[str, Any]]:
    return [
        {"type": "assistant", "parent_tool_use_id": None, "message": {"id": "msg_b", "model": "claude-x", "content": [
            {"type": "tool_use", "id": "toolu_rc", "name": "Bash", "input": {"command": "grep x y"}}]}},
        {"type": "user", "parent_tool_use_id": None,
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_rc",
                                                  "content": "", "is_error": False}]},
         "tool_use_result": {"stdout": "out", "stderr": "", "interrupted": False,
                             "returnCodeInterpretation": EVIL}},
    ]


def _task_lines() -> list[dict[str, Any]]:
    system = {"type": "system", "session_id": "s", "uuid": "u"}
    return [
        # A background shell with a hostile id and status, and an agent whose status turns hostile.
        {**system, "subtype": "task_started", "task_id": f"bash{EVIL}", "task_type": "local_bash",
         "description": "", "uuid": "u1"},
        {**system, "subtype": "task_notification", "task_id": f"bash{EVIL}", "status": EVIL, "summary": "",
         "output_file": "", "uuid": "u2"},
        {"type": "assistant", "parent_tool_use_id": None, "message": {"id": "msg_a", "model": "claude-x", "content": [
            {"type": "tool_use", "id": "toolu_agent", "name": "Task",
             "input": {"description": "look around", "subagent_type": "Explore", "prompt": "go"}}]}},
        {**system, "subtype": "task_started", "task_id": "agent1", "tool_use_id": "toolu_agent",
         "description": "look around", "task_type": "local_agent", "uuid": "u3"},
        {**system, "subtype": "task_updated", "task_id": "agent1", "patch": {"status": EVIL}, "uuid": "u4"},
    ]


def test_agent_statuses_are_known_words_or_inert() -> None:
    assert {agent_status(s) for s in ("running", "Completed", "killed", "stopped", " failed ")} \
        <= AGENT_STATUSES
    assert agent_status("killed") == "stopped"
    unknown = agent_status(EVIL + "x" * 100)
    assert unknown.startswith(SHOWN) and len(unknown) <= 40
    assert "\x1b" not in unknown and "\x9b" not in unknown and "\x07" not in unknown
    assert agent_status(None) == "unknown" and agent_status("\x1b") == "␛"


async def test_return_code_interpretation_is_inert(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path), Config(typeahead_guard_ms=0))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_ready(pilot, app)
        await feed(pilot, app, _tool_lines())
        card = chat(app).query_one(ToolCard)
        if not card.expanded:
            card.toggle()
        await wait_for(pilot, lambda: any(SHOWN in row for row in screen_rows(app)), 5, "the exit line")
        assert_inert(app, "Bash exit line")


async def test_task_status_and_id_are_inert_in_the_sidebar_its_toast_and_the_transcript(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path), Config(typeahead_guard_ms=0, sidebar="show"))
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await wait_ready(pilot, app)
        await feed(pilot, app, _task_lines())
        board = chat(app).session.conversation.tasks
        assert board.agents["agent1"].status.startswith(SHOWN)  # normalized in the session
        await wait_for(pilot, lambda: any(SHOWN in row for row in screen_rows(app)), 5, "the sidebar rows")
        assert_inert(app, "sidebar")
        # Selecting the background shell notifies "<id>: <status>".
        sidebar = chat(app).query_one(TaskSidebar)
        options = sidebar.query_one("#sidebar-agents", OptionList)
        options.focus()
        options.highlighted = options.get_option_index(f"bash{EVIL}")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app._notifications and any("bash␛" in r for r in screen_rows(app)), 5,
                       "the task's notification")
        assert_inert(app, "the task's notification")
        # The agent's transcript header shows its status.
        sidebar.open_transcript("toolu_agent")
        await wait_for(pilot, lambda: isinstance(app.screen, AgentTranscriptScreen), 5, "the transcript")
        await wait_for(pilot, lambda: any(SHOWN in row for row in screen_rows(app)), 5, "the header status")
        assert_inert(app, "agent transcript")


async def test_control_request_errors_and_titles_are_inert_in_notifications(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path), Config(typeahead_guard_ms=0))
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        await wait_ready(pilot, app)
        screen = chat(app)

        async def failing(payload: Any, timeout: float = 10) -> None:
            raise RuntimeError(f"the CLI said {EVIL}")

        screen.session.connection.request = failing  # type: ignore[method-assign]
        screen.controls.set_model("x")
        await wait_for(pilot, lambda: any("the CLI said ␛" in r for r in screen_rows(app)), 5, "the error toast")
        assert_inert(app, "control request error toast")
        app.clear_notifications()
        app.notify("plain", title=f"title {EVIL}")
        await wait_for(pilot, lambda: any("title ␛" in r for r in screen_rows(app)), 5, "the titled toast")
        assert_inert(app, "toast title")
