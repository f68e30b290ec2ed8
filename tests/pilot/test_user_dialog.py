"""Claude Code's own dialogs (`request_user_dialog`): declared at initialize, shown as a guarded dialog,
answered through the control response.

No flow of 2.1.330 sends one offline (the refusal fallback needs the API's refusal and a server-side
gate), so the requests are written as the CLI's own schema in its binary shapes them
(`request_user_dialog` {dialog_kind, payload, tool_use_id?}; the payloads of `refusal_fallback_prompt`
and `auto_mode_outside_reads`) and go through the same decoding and session code the CLI's would."""

from __future__ import annotations

import json
from typing import Any

from claude_tui import protocol as p
from claude_tui.protocol import builders
from claude_tui.protocol.user_dialogs import KINDS
from claude_tui.session.changes import PermissionAsked
from claude_tui.session.conversation import Conversation
from claude_tui.session.permissions import PermissionRequest
from claude_tui.ui.chat.permission_dialogs import dialog_for
from claude_tui.ui.chat.permission_queue import build_answer
from claude_tui.ui.dialogs.user_dialog import UserDialogScreen
from tests.pilot.test_dialogs import UNSAFE, DialogHost, screen_text

REFUSAL = {"originalModel": "claude-opus-5-5", "fallbackModel": "claude-sonnet-5", "apiRefusalCategory": "cyber",
           "retractedMessageUuids": ["u1"]}
OUTSIDE = {"toolName": "Read", "path": "/etc/hosts", "title": "Reads outside the project",
           "question": "Keep allowing reads outside the working directories?",
           "explainer": "Auto mode allows reads inside the working directories only.",
           "options": [{"value": "allow_session", "label": "Yes, for this session"},
                       {"value": "ask_again", "label": "No, ask me each time"}]}


def dialog_request(kind: str, payload: dict[str, Any]) -> PermissionRequest:
    line = {"type": "control_request", "request_id": "dlg-1",
            "request": {"subtype": "request_user_dialog", "dialog_kind": kind, "payload": payload}}
    asked = [c for c in Conversation().apply(p.decode_line(json.dumps(line).encode()))
             if isinstance(c, PermissionAsked)]
    return asked[0].request


async def shown(pilot: Any, app: Any, words: str) -> str:
    for _ in range(50):
        await pilot.pause()
        if words in (text := screen_text(app)):
            return text
    raise AssertionError(f"{words!r} never shown:\n{screen_text(app)}")


def test_initialize_declares_exactly_the_kinds_rendered() -> None:
    assert KINDS == ("refusal_fallback_prompt", "auto_mode_outside_reads")
    sent = builders.initialize(supportedDialogKinds=list(KINDS))
    assert sent["request"]["supportedDialogKinds"] == list(KINDS)
    for kind, payload in (("refusal_fallback_prompt", REFUSAL), ("auto_mode_outside_reads", OUTSIDE)):
        assert isinstance(dialog_for(dialog_request(kind, payload), 1, 1, 0, False, False), UserDialogScreen)


async def test_the_refusal_dialog_answers_with_the_chosen_result() -> None:
    request = dialog_request("refusal_fallback_prompt", REFUSAL)
    app = DialogHost(UserDialogScreen(request, guard_ms=0, bell=False, desktop=False))
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown(pilot, app, "1. Retry on claude-sonnet-5")
        assert "claude-opus-5-5 declined" in text and "2. Edit the prompt instead" in text
        await pilot.press("1")
        await pilot.pause()
    (decision,) = app.results
    assert build_answer(request, decision) == builders.control_success(
        "dlg-1", {"behavior": "completed", "result": "retry_fallback"})


async def test_the_outside_reads_dialog_offers_the_payloads_options_and_esc_cancels() -> None:
    request = dialog_request("auto_mode_outside_reads", OUTSIDE)
    app = DialogHost(UserDialogScreen(request, guard_ms=0, bell=False, desktop=False))
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown(pilot, app, "2. No, ask me each time")
        assert "Keep allowing reads outside" in text and "Read reads /etc/hosts" in text
        await pilot.press("escape")
        await pilot.pause()
    (decision,) = app.results
    assert build_answer(request, decision)["response"]["response"] == {"behavior": "cancelled"}


async def test_keys_inside_the_guard_never_answer() -> None:
    request = dialog_request("refusal_fallback_prompt", REFUSAL)
    app = DialogHost(UserDialogScreen(request, guard_ms=60_000, bell=False, desktop=False))
    async with app.run_test(size=(100, 30)) as pilot:
        await shown(pilot, app, "1. Retry")
        await pilot.press("1", "2", "escape")
        await pilot.pause()
        assert app.results == []


async def test_a_payload_we_cannot_read_is_no_dialog_and_its_texts_are_inert() -> None:
    assert not [c for c in Conversation().apply(p.decode_line(json.dumps(
        {"type": "control_request", "request_id": "d", "request": {
            "subtype": "request_user_dialog", "dialog_kind": "refusal_fallback_prompt", "payload": {}}}).encode()))
        if isinstance(c, PermissionAsked)]
    request = dialog_request("auto_mode_outside_reads", {**OUTSIDE, "question": UNSAFE,
                                                         "options": [{"value": "v", "label": UNSAFE}]})
    app = DialogHost(UserDialogScreen(request, guard_ms=0, bell=False, desktop=False))
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown(pilot, app, "1. ")
        assert "\x1b" not in text
