"""The permission queue never shows an input other than the one that will be approved (issue 14)."""

from __future__ import annotations

from pathlib import Path

from claude_tui.session.permissions import PermissionRequest
from claude_tui.ui.dialogs.permission import PermissionScreen
from tests.pilot.helpers import chat, make_app, wait_for


async def test_a_re_asked_request_id_replaces_the_open_dialog(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive, what="CLI up")
        first = PermissionRequest("dup", "Bash", {"command": "ls"})
        again = PermissionRequest("dup", "Bash", {"command": "rm -rf build"})
        screen.dialogs.asked(first)
        await wait_for(pilot, lambda: isinstance(app.screen, PermissionScreen), what="the first dialog")
        old = app.screen
        screen.dialogs.asked(again)
        await wait_for(pilot, lambda: isinstance(app.screen, PermissionScreen) and app.screen is not old,
                       what="the dialog for the new input")
        assert old.settled and app.screen.request is again  # type: ignore[attr-defined]
        assert list(screen.session.permissions.queue) == []  # one dialog for the id, not a second one queued
