"""Rewind files (select mode `r`, the palette) through the fake CLI's checkpoint bookkeeping."""

from __future__ import annotations

from pathlib import Path

from claude_tui.session.items import NoteItem, UserItem
from claude_tui.ui.chat.rewind_files import rewind_last_prompt
from claude_tui.ui.chat.transcript_tools import item_by_id
from claude_tui.ui.dialogs.rewind import RewindScreen
from claude_tui.ui.dialogs.rewind_conversation import RewindChoiceScreen
from claude_tui.ui.log.chat_log import ChatLog
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


async def _edited(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await send(pilot, "kw:edit the file")
    await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="permission dialog")
    await pilot.press("tab", "y")
    await wait_for(pilot, lambda: idle(app), what="turn end")


def _record_requests(screen) -> list[dict]:  # type: ignore[no-untyped-def]
    """The control requests the screen sends from now on (the real ones still go out)."""
    sent: list[dict] = []
    original = screen.session.connection.request

    async def request(payload, timeout=30):  # type: ignore[no-untyped-def]
        sent.append(payload["request"])
        return await original(payload, timeout=timeout)

    screen.session.connection.request = request
    return sent


async def _select_prompt(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    screen = chat(pilot.app)
    await pilot.press("ctrl+up")
    # The bar opens after a refresh: poll for its rows (a fixed pause was too short under load).
    await wait_for(pilot, lambda: any(bar.item_ids for bar in screen.query("SelectBar")),  # type: ignore[attr-defined]
                   what="select mode")
    bar = screen.query_one("SelectBar")
    for _ in range(len(bar.item_ids)):  # type: ignore[attr-defined]
        item = item_by_id(screen.session.conversation, bar.current)  # type: ignore[arg-type]
        if isinstance(item, UserItem) and item.text == text:
            return
        await pilot.press("up")
    raise AssertionError(f"no prompt {text!r} to select")


async def test_rewind_from_select_mode_shows_the_files_then_3_restores_the_code(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _edited(pilot)
        screen = chat(app)
        sent = _record_requests(screen)
        [prompt] = [i for i in screen.session.conversation.items if isinstance(i, UserItem)]
        assert prompt.uuid  # learnt from the CLI's echo
        old = screen.session.connection
        await _select_prompt(pilot, "kw:edit the file")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindChoiceScreen), what="rewind choice")
        files = app.screen.files  # type: ignore[attr-defined]
        assert files.files == [str(tmp_path / "a.txt")] and (files.insertions, files.deletions) == (1, 1)
        await pilot.press("3")
        await wait_for(pilot, lambda: any(isinstance(i, NoteItem) and i.text.startswith("Restored 1 file")
                                          for i in screen.session.conversation.items), what="restored note")
        assert [(r["subtype"], r["dry_run"], r["user_message_id"]) for r in sent] == \
            [("rewind_files", True, prompt.uuid), ("rewind_files", False, prompt.uuid)]
        assert screen.session.connection is old and prompt in screen.session.conversation.items  # the code only
        # Selection closes: the prompt has focus again and nothing stays highlighted.
        await wait_for(pilot, lambda: not screen.query_one("#select-bar").display
                       and screen.query_one("#prompt").has_focus and not screen.query(".-selected"),
                       what="selection closed after the rewind")
        log = screen.query_one(ChatLog)
        await wait_for(pilot, lambda: log.is_anchored_to_end, what="the log follows the end again")


async def test_n_keeps_the_files_and_sends_nothing_more(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _edited(pilot)
        screen = chat(app)
        sent = _record_requests(screen)
        rewind_last_prompt(screen)
        await wait_for(pilot, lambda: isinstance(app.screen, RewindScreen), what="rewind dialog")
        await pilot.press("tab", "n")
        await pilot.pause(0.3)
        assert not isinstance(app.screen, RewindScreen)
        assert not any(isinstance(i, NoteItem) and i.text.startswith("Rewound") for i in screen.session.conversation.items)
        assert [(r["subtype"], r["dry_run"]) for r in sent] == [("rewind_files", True)]


async def test_a_prompt_that_changed_nothing_says_so(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:plain hello")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        screen = chat(app)
        notes: list[str] = []
        screen.notify = lambda message, **_: notes.append(str(message))  # type: ignore[method-assign]
        rewind_last_prompt(screen)
        await wait_for(pilot, lambda: notes, what="a notification")
        assert notes == ["No files changed since this prompt: nothing to rewind."]
        assert not isinstance(app.screen, RewindScreen)
