"""While a dialog waits, the prompt's editing keys reach the prompt too (issue 14's leftover).

Arrows, Home/End, Delete and the editor's Ctrl keys fix the draft below a waiting dialog, in
order with the letters; Tab, Esc and keys the dialog binds itself never go there, and no key
answers the dialog.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_tui.ui.dialogs.base import GuardedModal
from tests.pilot.helpers import chat, make_app, wait_for
from tests.pilot.test_dialogs import request_from


async def _waiting_dialog(pilot: Any, kind: str = "permission") -> tuple[Any, Any, list[Any]]:
    """The chat's prompt, a dialog of ``kind`` waiting on top, and the answers sent to the CLI."""
    app = pilot.app
    screen = chat(app)
    await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands,
                   what="CLI ready")
    sent: list[Any] = []

    async def answer_permission(payload: Any) -> bool:
        sent.append(payload)
        return False

    screen.session.connection.answer_permission = answer_permission
    prompt = screen.query_one("#prompt")
    prompt.focus()
    request = request_from("bash-allow", "Bash", request_id="r1") if kind == "permission" \
        else request_from("ask-single", "AskUserQuestion", request_id="r1")
    screen.dialogs.asked(request)
    dialog = screen.dialogs.dialog
    await wait_for(pilot, lambda: app.screen is dialog, what="the dialog on top")
    assert isinstance(dialog, GuardedModal) and dialog.waiting
    return prompt, dialog, sent


def _unanswered(dialog: Any, sent: list[Any]) -> bool:
    return dialog.app.screen is dialog and dialog.waiting and not dialog.settled and sent == []


async def test_arrows_and_end_edit_the_draft_below_a_waiting_permission_dialog(tmp_path: Path) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt, dialog, sent = await _waiting_dialog(pilot)
        await pilot.press("h", "e", "l", "o", "left", "l", "end", "!")
        await wait_for(pilot, lambda: prompt.text == "hello!", what=f"'hello!' in the prompt, not {prompt.text!r}")
        assert prompt.cursor_location == (0, 6)
        assert _unanswered(dialog, sent)


async def test_home_delete_and_the_ctrl_editing_keys_reach_the_prompt(tmp_path: Path) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt, dialog, sent = await _waiting_dialog(pilot)
        await pilot.press(*"say yes now", "ctrl+w")  # the last word
        await wait_for(pilot, lambda: prompt.text == "say yes ", what=f"Ctrl+W, not {prompt.text!r}")
        await pilot.press("home", "delete", "delete", "delete", "delete", "end", "backspace")
        await wait_for(pilot, lambda: prompt.text == "yes", what=f"Home, Delete, End, Backspace: {prompt.text!r}")
        await pilot.press("ctrl+a", "n", "o", " ", "ctrl+e", "?")
        await wait_for(pilot, lambda: prompt.text == "no yes?", what=f"Ctrl+A / Ctrl+E: {prompt.text!r}")
        await pilot.press("ctrl+u")
        await wait_for(pilot, lambda: prompt.text == "", what=f"Ctrl+U: {prompt.text!r}")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: prompt.text == "no yes?", what=f"Ctrl+Z: {prompt.text!r}")
        assert _unanswered(dialog, sent)


async def test_escape_stays_out_of_the_prompt_and_answers_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt, dialog, sent = await _waiting_dialog(pilot)
        await pilot.press("a", "b", "escape", "left", "c")
        await wait_for(pilot, lambda: prompt.text == "acb", what=f"'acb', not {prompt.text!r}")
        assert _unanswered(dialog, sent)
        await pilot.press("tab")  # Tab still moves to the dialog, and is not typed
        await wait_for(pilot, lambda: not dialog.waiting, what="Tab moves to the dialog")
        assert prompt.text == "acb" and sent == []


async def test_a_key_the_dialog_binds_itself_is_not_passed_on(tmp_path: Path) -> None:
    """The question dialog's Left means "back": while it waits, Left does nothing at all."""
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt, dialog, sent = await _waiting_dialog(pilot, "question")
        await pilot.press("a", "b", "left", "c", "home", "x")
        await wait_for(pilot, lambda: prompt.text == "xabc", what=f"'xabc', not {prompt.text!r}")
        assert _unanswered(dialog, sent)
