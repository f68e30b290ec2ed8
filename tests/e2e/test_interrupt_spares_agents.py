"""Esc stops the turn, not the background agents: claude-tui declares `perTaskStopAffordance` at
initialize (each agent has its own stop, the sidebar's `x`). Without it the CLI (2.1.290+) kills every
running background agent on an interrupt (`task_updated` status killed)."""

from __future__ import annotations

from collections.abc import Callable

from claude_tui.transport.options import CliOptions
from claude_tui.ui.panels.sidebar import TaskSidebar
from tests.e2e.app_driver import drive

Options = Callable[..., CliOptions]


async def test_escape_ends_the_turn_and_spares_a_running_agent(app_options: Options) -> None:
    async with drive(app_options()) as d:
        status = d.conversation.status
        await d.send("kw:slowagent go")  # a background agent streaming for ~15 s
        await d.wait(lambda: d.conversation.tasks.agents, "the agent to start")
        await d.wait_turns(1)
        [agent] = d.conversation.tasks.agents.values()
        assert agent.status == "running"
        await d.send("kw:slow tell me a story")
        await d.wait(lambda: d.chat.session.busy and status.activity.name == "RESPONDING", "the story to stream")
        await d.press("escape")
        await d.wait_turns(2)
        await d.pilot.pause(1.0)  # the kill, when it happens, lands right after the interrupt
        assert agent.status == "running", agent
        # Its own stop still works: what the sidebar's x posts.
        d.chat.query_one(TaskSidebar).post_message(TaskSidebar.StopRequested(agent.task_id))
        await d.wait(lambda: agent.status in ("stopped", "killed"), "the agent to stop on its own stop", 15)
