"""Resume, fork and background turns against the real Claude Code CLI 2.1.330.

What the live session showed must survive a resume (denials), a fork must keep the
parent's cost the CLI keeps counting, a resumed CLI's model is the one it reports, and
the turn the CLI starts by itself after a background agent is marked as on resume.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from claude_tui.resume import load_conversation
from claude_tui.session.export import to_markdown
from claude_tui.session.items import NoteItem, NoteKind, TextItem, ToolItem, ToolState
from claude_tui.transport.options import CliOptions
from claude_tui.ui.browser.screen import BrowserChoice, conversation_for
from claude_tui.ui.dialogs.permission import PermissionScreen
from claude_tui.ui.dialogs.plan import PlanScreen
from claude_tui.ui.panels.status_bar import StatusBar
from tests.e2e.app_driver import AppDriver, drive
from tests.e2e.mock_api_scripts import DONE_TEXT

Options = Callable[..., CliOptions]
PLAIN_TURN_COST = 0.01414  # one kw:plain request at the stand-in's usage numbers (opus prices)


def transcript_path(config_dir: Path, project_dir: Path, session_id: str) -> Path:
    encoded = re.sub(r"[^A-Za-z0-9]", "-", str(project_dir))
    path = config_dir / "projects" / encoded / f"{session_id}.jsonl"
    assert path.is_file(), list(config_dir.rglob("*.jsonl"))
    return path


def status_line(d: AppDriver) -> str:
    return str(d.chat.query_one(StatusBar).render_status(d.conversation.status))


async def quit_app(d: AppDriver) -> None:
    await d.press("ctrl+q")
    await d.wait(lambda: d.app._exit, "the app to quit", 15)


async def refuse(d: AppDriver, prompt: str, *keys: str) -> None:
    before = d.conversation.status.turns
    await d.send(prompt)
    await d.wait_screen(PermissionScreen)
    for key in keys:
        await d.press(key)
    await d.wait_turns(before + 1)


# -- 1. denials after resume ------------------------------------------------------------------------


async def test_denied_calls_stay_denied_after_resume(app_options: Options, config_dir: Path,
                                                     project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await refuse(d, "kw:bash please", "n")
        await refuse(d, "kw:bash again", "t", *"use ls instead", "enter")
        live = [t.state for t in d.of_type(ToolItem)]
        session_id = d.conversation.status.session_id
        await quit_app(d)
    assert live == [ToolState.DENIED, ToolState.DENIED]

    # What --continue and the session browser's Enter load.
    conversation = load_conversation(session_id, path=transcript_path(config_dir, project_dir, session_id))
    assert conversation is not None
    assert [(t.name, t.state) for t in conversation.items if isinstance(t, ToolItem)] == [
        ("Bash", ToolState.DENIED), ("Bash", ToolState.DENIED)]
    exported = to_markdown(conversation.items, conversation.status)
    assert len(re.findall(r"^#### Bash .*\(denied\)$", exported, re.M)) == 2 and "(error)" not in exported
    browsed = conversation_for(BrowserChoice(session_id, transcript_path(config_dir, project_dir, session_id),
                                             project_dir))
    assert [t.state for t in browsed.items if isinstance(t, ToolItem)] == [ToolState.DENIED, ToolState.DENIED]

    async with drive(app_options(resume=session_id), conversation=conversation) as d:
        screen = await d.wait_on_screen("⊘ denied")
        assert "✗ error" not in screen
        for tool in d.of_type(ToolItem):
            card = d.widget_for(tool)
            assert card is not None and card.has_class("-denied") and not card.expanded


async def test_keep_planning_stays_denied_after_resume(app_options: Options, config_dir: Path,
                                                       project_dir: Path) -> None:
    async with drive(app_options(permission_mode="plan")) as d:
        await d.send("kw:plan it")
        await d.wait_screen(PlanScreen)
        await d.press("n")
        await d.wait_turns(1)
        assert d.tool("ExitPlanMode").state is ToolState.DENIED
        session_id = d.conversation.status.session_id
        await quit_app(d)
    conversation = load_conversation(session_id, path=transcript_path(config_dir, project_dir, session_id))
    assert conversation is not None
    [plan] = [t for t in conversation.items if isinstance(t, ToolItem)]
    assert plan.state is ToolState.DENIED


# -- 2. a fork keeps the parent's cost ------------------------------------------------------------------


async def test_a_fork_from_the_session_browser_keeps_the_parents_cost(app_options: Options, config_dir: Path,
                                                                       project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:plain one")
        await d.turn("kw:plain two")
        parent = d.conversation.status.session_id
        parent_cost = d.conversation.status.cost_total
        await quit_app(d)
    assert parent_cost == pytest.approx(2 * PLAIN_TURN_COST)

    async with drive(app_options()) as d:
        first = d.chat
        choice = BrowserChoice(parent, transcript_path(config_dir, project_dir, parent), project_dir, fork=True)
        await d.app._switch_session(choice, conversation_for(choice))  # what `f` in the browser does
        await d.wait(lambda: d.app.chat is not first, "the forked session's screen")
        await d.wait_ready()
        assert d.conversation.status.cost_total == pytest.approx(parent_cost)  # the CLI's running total
        # The bar shows what the fork itself cost: nothing yet (issue 27: it showed the parent's).
        assert "$0.0000" in status_line(d) and f"${parent_cost:.4f}" not in status_line(d)
        await d.turn("kw:plain in the fork")
        status = d.conversation.status
        assert status.session_id and status.session_id != parent
        assert status.cost_total == pytest.approx(parent_cost + PLAIN_TURN_COST)
        assert status.cost_last_turn == pytest.approx(PLAIN_TURN_COST)
        assert f"(+${PLAIN_TURN_COST:.4f})" in status_line(d)


async def test_a_fork_from_the_palette_keeps_the_parents_cost(app_options: Options) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:plain one")
        parent = d.conversation.status.session_id
        parent_cost = d.conversation.status.cost_total
        first = d.chat
        await first.controls.fork_session()
        await d.wait(lambda: d.app.chat is not first, "the forked session's screen")
        await d.wait_ready()
        assert d.conversation.status.cost_total == pytest.approx(parent_cost)
        await d.turn("kw:plain in the fork")
        status = d.conversation.status
        assert status.session_id != parent
        assert status.cost_total == pytest.approx(parent_cost + PLAIN_TURN_COST)
        assert status.cost_last_turn == pytest.approx(PLAIN_TURN_COST)


# -- 4. the model a resumed CLI runs ----------------------------------------------------------------


async def test_a_resumed_session_shows_the_model_the_cli_runs(app_options: Options, config_dir: Path,
                                                              project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:plain first")
        assert d.conversation.status.model == "claude-opus-5-5"
        session_id = d.conversation.status.session_id
        await quit_app(d)
    conversation = load_conversation(session_id, path=transcript_path(config_dir, project_dir, session_id))
    assert conversation is not None
    async with drive(app_options(resume=session_id, model="sonnet"), conversation=conversation) as d:
        assert "claude-opus-5-5" not in status_line(d)  # the transcript's model is not the running one
        await d.turn("kw:plain second")
        assert d.conversation.status.model == "claude-sonnet-5-5"
        assert status_line(d).startswith("claude-sonnet-5-5")


# -- 5. the turn the CLI starts after a background agent ---------------------------------------------


async def test_a_background_agents_turn_is_marked_live_as_on_resume(app_options: Options, config_dir: Path,
                                                                    project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await d.send("kw:agent go")
        await d.wait_turns(2, timeout=60)  # the CLI starts the second turn itself
        live = [(type(i).__name__, getattr(i, "text", "")) for i in d.items
                if isinstance(i, (TextItem, NoteItem))]
        session_id = d.conversation.status.session_id
        marker_line = 'ℹ Agent "Explore tree" finished'

        def in_order() -> bool:
            lines = [line.strip(" ▏") for line in d.screen_text().splitlines()]
            shown = [line for line in lines if line in (DONE_TEXT.strip(), marker_line)]
            return shown[-3:] == [DONE_TEXT.strip(), marker_line, DONE_TEXT.strip()]

        await d.wait(in_order, "the marker between the two answers on screen")
        await quit_app(d)
    marker = ("NoteItem", 'Agent "Explore tree" finished')
    assert live[-3:] == [("TextItem", DONE_TEXT), marker, ("TextItem", DONE_TEXT)]
    assert [n for n in live if n[0] == "NoteItem"] == [marker]

    resumed = load_conversation(session_id, path=transcript_path(config_dir, project_dir, session_id))
    assert resumed is not None
    shown = [(type(i).__name__, getattr(i, "text", "")) for i in resumed.items
             if isinstance(i, (TextItem, NoteItem)) and not (isinstance(i, NoteItem) and "Resumed" in i.text)]
    assert shown[-3:] == live[-3:]  # the same marker in the same place
    assert all(n.kind is NoteKind.INFO for n in resumed.items if isinstance(n, NoteItem))
