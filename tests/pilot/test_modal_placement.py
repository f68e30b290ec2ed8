"""Every guarded modal that opens waiting sits where the eye is, just above the prompt, by one rule
(`ui/dialogs/base.tcss`, `-waits`), and Tab (moving to it) does not move its bottom edge: the quit question, the
rewind-files and worktree dialogs as the permission dialog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.containers import Vertical

from claude_tui.git.worktree import Worktree, WorktreeState
from claude_tui.ui.dialogs.base import GuardedModal
from claude_tui.ui.dialogs.confirm import ConfirmScreen
from claude_tui.ui.dialogs.permission import PermissionScreen
from claude_tui.ui.dialogs.rewind import RewindScreen
from claude_tui.ui.dialogs.worktree_close import WorktreeCloseScreen
from tests.pilot.test_dialogs import bash_request

SIZE = (100, 40)
ABOVE_THE_PROMPT = 5
"""Rows under a waiting modal: the prompt (3), the status bar and the key footer."""


def modals() -> dict[str, GuardedModal[Any]]:
    worktree = Worktree(path=Path("/tmp/wt"), branch="claude/x", base="main", base_commit="0" * 40,
                        repo=Path("/tmp/repo"), session_dir=Path("/tmp/wt"))
    return {
        "confirm": ConfirmScreen("A turn is still running. Quit and stop it?", guard_ms=0),
        "rewind": RewindScreen("kw:edit the file", ["/p/a.txt"], 3, 1, "/p", guard_ms=0),
        "worktree": WorktreeCloseScreen(worktree, WorktreeState(), guard_ms=0),
        "permission": PermissionScreen(bash_request(), guard_ms=0),
    }


class Host(App[None]):
    def __init__(self, modal: GuardedModal[Any]) -> None:
        super().__init__()
        self.modal = modal

    def on_mount(self) -> None:
        self.push_screen(self.modal)


@pytest.mark.parametrize("kind", ["confirm", "rewind", "worktree", "permission"])
async def test_a_waiting_modal_sits_above_the_prompt_and_tab_does_not_move_it(kind: str) -> None:
    modal = modals()[kind]
    async with Host(modal).run_test(size=SIZE) as pilot:
        await pilot.pause()
        box = modal.query_children(Vertical).first()
        assert modal.waiting
        waiting = box.region
        assert waiting.bottom == SIZE[1] - ABOVE_THE_PROMPT, (kind, waiting)
        await pilot.press("tab")
        await pilot.pause()
        assert not modal.waiting
        assert box.region.bottom == waiting.bottom, kind  # its notice may take a line less: it grows upwards
