"""The small yes/no modals whose `y` cannot be undone (rewind files, quit while a turn runs) open
waiting like the permission dialogs: keys typed as they appear do nothing (they go to the prompt),
and only Tab, a pause as long as the guard, and a key act."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import TextArea

from claude_tui.session.items import NoteItem
from claude_tui.ui.chat.rewind_files import rewind_last_prompt
from claude_tui.ui.dialogs.base import GuardedModal
from claude_tui.ui.dialogs.confirm import ConfirmScreen
from claude_tui.ui.dialogs.rewind import RewindScreen
from tests.pilot.helpers import chat, idle, make_app, send, wait_for
from tests.pilot.test_rewind import _record_requests

GUARD_MS = 400
PAST_GUARD = 0.6


def _screen_text(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


class GuardClock:
    """The dialogs' guard clock (`GuardedModal.clock`), moved only by the test: "right after Tab"
    is 0 ms and "a pause" is `PAST_GUARD` however long the loaded machine takes between two keys."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_y_typed_right_after_r_never_rewinds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = GuardClock()
    monkeypatch.setattr(GuardedModal, "clock", clock)
    app = make_app(tmp_path, guard_ms=GUARD_MS)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:edit the file")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="permission dialog")
        permission = app.screen
        assert isinstance(permission, GuardedModal)
        await pilot.press("tab")
        await wait_for(pilot, lambda: not permission.waiting, what="Tab to move to the permission dialog")
        clock.now += PAST_GUARD
        await pilot.press("y")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        screen = chat(app)
        prompt = screen.query_one("#prompt", TextArea)
        sent = _record_requests(screen)
        # The files-only rewind (the palette's "Rewind files to before the last prompt…"; select mode's
        # `r` opens the conversation rewind's choice now), then a y typed fast as the dialog shows.
        rewind_last_prompt(screen)
        await wait_for(pilot, lambda: isinstance(app.screen, RewindScreen), what="rewind dialog")
        dialog = app.screen
        assert isinstance(dialog, RewindScreen)
        typed = prompt.text
        await pilot.press("y")
        await wait_for(pilot, lambda: prompt.text == typed + "y", what="the y typed into the prompt")
        clock.now += PAST_GUARD  # any pause: a waiting dialog takes no answer
        await wait_for(pilot, lambda: "Tab to answer" in _screen_text(app), what="the waiting notice")
        assert app.screen is dialog and not dialog.settled, "a y answered the waiting rewind dialog"
        assert dialog.waiting
        assert [(r["subtype"], r["dry_run"]) for r in sent] == [("rewind_files", True)]
        # Tab moves to it; y right then (inside the guard) is swallowed: no rewind, and no stray y in the prompt.
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: dialog.has_class("-paused"), what="the y after Tab swallowed")
        assert not dialog.waiting and not dialog.settled and prompt.text == typed + "y"
        # A pause as long as the guard, then y rewinds.
        clock.now += PAST_GUARD
        await pilot.press("y")
        await wait_for(pilot, lambda: any(isinstance(i, NoteItem) and i.text.startswith("Rewound 1 file")
                                          for i in screen.session.conversation.items), what="rewound note")
        assert [(r["subtype"], r["dry_run"]) for r in sent] == [("rewind_files", True), ("rewind_files", False)]


async def test_escape_typed_as_the_rewind_dialog_appears_is_ignored_too(tmp_path: Path) -> None:
    app = make_app(tmp_path, guard_ms=GUARD_MS)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:edit the file")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="permission dialog")
        await pilot.press("tab")
        await pilot.pause(PAST_GUARD)
        await pilot.press("y")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        rewind_last_prompt(chat(app))
        await wait_for(pilot, lambda: isinstance(app.screen, RewindScreen), what="rewind dialog")
        dialog = app.screen
        await pilot.press("n", "escape")
        await pilot.pause(PAST_GUARD)
        assert app.screen is dialog
        await pilot.press("tab")
        await pilot.pause(PAST_GUARD)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is not dialog, what="the dialog to close")
        assert not any(isinstance(i, NoteItem) and i.text.startswith("Rewound") for i in chat(app).session.conversation.items)


async def test_quit_confirmation_ignores_an_instant_y(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A turn streams meanwhile. The guard's clock moves only when the test says so: on a loaded
    # machine the event loop can stall longer than any guard between two keys, and "a key right
    # after Tab" must still be one.
    clock = GuardClock()
    monkeypatch.setattr(GuardedModal, "clock", clock)
    app = make_app(tmp_path, guard_ms=GUARD_MS, env={"FAKE_CLAUDE_DELAY_MS": "30"})
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:slow story")
        await wait_for(pilot, lambda: chat(app).session.busy, what="a running turn")
        await pilot.press("ctrl+q", "y")  # "y" typed before the question appears
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the quit question")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        await pilot.press("y")  # and one the moment it appears
        await pilot.pause(0.1)
        assert app.is_running and not app.is_quitting and app.screen is dialog
        await wait_for(pilot, lambda: "Tab to answer" in _screen_text(app), what="the notice")
        await pilot.press("tab", "y")  # y right after Tab, inside the guard: swallowed
        await wait_for(pilot, lambda: dialog.has_class("-paused"), what="the y after Tab swallowed")
        assert app.is_running and not app.is_quitting and app.screen is dialog
        clock.now += PAST_GUARD
        await pilot.press("y")
        await wait_for(pilot, lambda: app.is_quitting, what="quit after a deliberate y")


async def test_confirm_guard_comes_from_the_config_and_zero_disables_it(tmp_path: Path) -> None:
    app = make_app(tmp_path, guard_ms=0)
    async with app.run_test(size=(120, 40)) as pilot:
        answers: list[bool | None] = []
        app.push_screen(ConfirmScreen("Sure?"), answers.append)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        assert app.screen.guard_length_ms() == 0  # type: ignore[attr-defined]
        await pilot.press("y")
        await pilot.pause(0.1)
        assert answers == []  # waiting: y is typing
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: answers == [True], what="the answer")
