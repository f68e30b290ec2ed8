"""The rewind-files dialog over a chat that edited a file (recorded edit, fixed dry-run answer)."""

from __future__ import annotations

import pytest

from claude_tui.ui.dialogs.rewind import RewindScreen
from tests.snapshot.chat_states import StateApp
from tests.snapshot.settle import settle
from tests.snapshot.test_chat_snapshots import _dismiss_dialogs_and_feed


async def _open_dialog(pilot) -> None:  # type: ignore[no-untyped-def]
    await _dismiss_dialogs_and_feed(pilot)  # the recorded permission request is answered first
    files = ["/home/user/project/a.txt", "/home/user/project/src/config.py", "/etc/outside-the-project.conf"]
    pilot.app.push_screen(RewindScreen("kw:edit the file", files, 12, 3, "/home/user/project"))
    await settle(pilot)


@pytest.mark.parametrize("size", [(120, 36), (80, 24)])
def test_rewind_dialog(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = StateApp([("kw:edit the file", "edit-allow", None)])
    assert snap_compare(app, terminal_size=size, run_before=_open_dialog)
