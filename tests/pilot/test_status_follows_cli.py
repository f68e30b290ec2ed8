"""The status bar and the respawn options follow what the CLI reports: mode, model; rewind and "what changed"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_tui.config import Config
from claude_tui.fakecli import command
from claude_tui.protocol import decode_obj
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat.connection import CliConnection
from claude_tui.ui.chat.rewind_files import rewind_last_prompt
from claude_tui.ui.dialogs.rewind import RewindScreen
from claude_tui.ui.manage.model import current_model_value
from claude_tui.ui.panels.status_bar import StatusBar
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


def status_text(app: ClaudeTuiApp) -> str:
    screen = chat(app)
    return str(screen.query_one(StatusBar).render_status(screen.session.conversation.status))


def ready(app: ClaudeTuiApp) -> bool:
    screen = app.chat
    return screen is not None and screen.session.connection.alive and bool(screen.session.conversation.commands)


def from_cli(app: ClaudeTuiApp, *lines: dict[str, Any]) -> None:
    """Lines as if the running CLI printed them (the path every CLI message takes)."""
    screen = chat(app)
    screen.post_message(CliConnection.Events([decode_obj(line) for line in lines], screen.session.connection))


async def test_the_mode_started_in_is_shown_before_the_first_prompt(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    options = CliOptions(cwd=str(tmp_path), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0"},
                         permission_mode="acceptEdits")
    app = ClaudeTuiApp(options, Config(typeahead_guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0)
        assert "acceptEdits" in status_text(app)  # before the CLI has answered anything
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        assert chat(app).session.conversation.reported_mode == "acceptEdits"  # the CLI's own word
        assert "acceptEdits" in status_text(app)


async def test_a_mode_the_cli_switches_to_survives_a_restart(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        screen = chat(app)
        assert screen.session.options.permission_mode is None
        # A plan approved with "accept edits" (or the suggestion "accept edits for this session").
        from_cli(app, {"type": "system", "subtype": "status", "status": None, "permissionMode": "acceptEdits",
                       "session_id": screen.session.conversation.status.session_id})
        await wait_for(pilot, lambda: "acceptEdits" in status_text(app), what="the mode shown")
        assert screen.session.options.permission_mode == "acceptEdits"
        old = screen.session.connection
        await pilot.press("f5")
        await wait_for(pilot, lambda: screen.session.connection is not old and ready(app), what="the restarted CLI")
        assert screen.session.conversation.reported_mode == "acceptEdits"  # the new process runs in it
        assert "acceptEdits" in status_text(app)


async def test_model_typed_as_a_slash_command_moves_the_status_and_the_palettes_mark(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        screen = chat(app)
        screen.session.options.model = "sonnet"  # picked earlier in the palette
        models = screen.session.conversation.models
        haiku = next(m for m in models if m.get("value") == "haiku")
        from_cli(app, {"type": "user", "session_id": screen.session.conversation.status.session_id,
                       "parent_tool_use_id": None, "uuid": "u-9", "message": {"role": "user", "content": (
                           f"<local-command-stdout>Set model to `haiku ({haiku['resolvedModel']})` for this "
                           "session only</local-command-stdout>")}})
        await wait_for(pilot, lambda: haiku["resolvedModel"] in status_text(app), what="the new model shown")
        assert screen.session.options.model == "haiku"  # Ctrl+R and a new session keep it
        status = screen.session.conversation.status
        assert current_model_value(models, status.model, screen.session.options.model) == "haiku"


async def test_rewound_files_leave_what_changed(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:edit the file")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="permission dialog")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        screen = chat(app)
        assert [f.path for f in screen.session.conversation.changes.session] == [str(tmp_path / "a.txt")]
        rewind_last_prompt(screen)
        await wait_for(pilot, lambda: isinstance(app.screen, RewindScreen), what="rewind dialog")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: not screen.session.conversation.changes.session, what="the change set emptied")
        assert screen.session.conversation.changes.turn == []


async def test_the_model_is_named_before_the_first_turn_in_every_new_tab(tmp_path: Path) -> None:
    # Defect 7: 2.1.330 names its model only in `system/init`, sent with the first prompt; the bar
    # showed "…" until then. The model list's default (no flag, env or settings) names it at once.
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        bar = chat(app).query_one(StatusBar)
        await wait_for(pilot, lambda: "claude-opus-5-5" in str(bar.render()), what="the model at once")
        assert chat(app).session.conversation.status.turns == 0
        await pilot.press("ctrl+n")  # a new tab, its own CLI
        await wait_for(pilot, lambda: len(app.sessions) == 2 and ready(app), what="the second tab ready")
        second = chat(app).query_one(StatusBar)
        await wait_for(pilot, lambda: "claude-opus-5-5" in str(second.render()), what="named in the new tab")
        assert "…" not in str(second.render()).split("·")[0]
