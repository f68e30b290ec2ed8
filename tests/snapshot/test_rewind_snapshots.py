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


# -- the conversation rewind: the list of prompts, then what to restore (Esc Esc) -------------------

_PROMPTS = [("kw:plain hello", "text", None), ("kw:edit the file", "edit-allow", None),
            ("kw:plain hello again, with a prompt long enough to be cut at the edge of the list's row", "text", None)]


async def _open_list(pilot) -> None:  # type: ignore[no-untyped-def]
    from claude_tui.session.items import UserItem
    from claude_tui.ui.dialogs.rewind_conversation import RewindListScreen

    await _dismiss_dialogs_and_feed(pilot)
    prompts = [i for i in pilot.app.chat.session.conversation.items if isinstance(i, UserItem)]
    pilot.app.push_screen(RewindListScreen(prompts, prompts[-1], {prompts[1].id: 1}))
    await settle(pilot)


async def _open_choice(pilot) -> None:  # type: ignore[no-untyped-def]
    from claude_tui.ui.dialogs.rewind_conversation import FilesToRestore, RewindChoiceScreen

    await _dismiss_dialogs_and_feed(pilot)
    files = FilesToRestore(["/home/user/project/a.txt", "/home/user/project/src/config.py"], 12, 3)
    pilot.app.push_screen(RewindChoiceScreen("kw:edit the file", files, "/home/user/project", guard_ms=0))
    await settle(pilot)


def test_rewind_conversation_list(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(StateApp(_PROMPTS), terminal_size=(80, 24), run_before=_open_list)


def test_rewind_conversation_choice(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(StateApp(_PROMPTS), terminal_size=(80, 24), run_before=_open_choice)
