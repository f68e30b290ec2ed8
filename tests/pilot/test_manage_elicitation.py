"""The elicitation dialog: the form the real CLI sent (manage.stdout.ndjson), filled in by keys."""

from __future__ import annotations

import json
from typing import Any

from textual.widgets import Checkbox, RadioSet

from claude_tui import protocol as p
from claude_tui.session.changes import PermissionAsked
from claude_tui.session.conversation import Conversation
from claude_tui.session.permissions import PermissionRequest
from claude_tui.ui.chat.permission_dialogs import dialog_for
from claude_tui.ui.chat.permission_queue import build_answer
from claude_tui.ui.kit.safe_input import SafeInput
from claude_tui.ui.manage.elicitation import ElicitationScreen
from tests.conftest import recording
from tests.pilot.test_dialogs import UNSAFE, DialogHost, screen_text


def form_request(**changes: Any) -> PermissionRequest:
    """The recorded elicitation, through the session as the app receives it."""
    line = next(line for line in recording("manage") if '"subtype": "elicitation"' in line)
    obj = json.loads(line)
    obj["request"].update(changes)
    asked = [c for c in Conversation().apply(p.decode_line(json.dumps(obj).encode())) if isinstance(c, PermissionAsked)]
    return asked[0].request


async def shown(pilot: Any, app: Any, words: str) -> str:
    """The screen's text once `words` are on it (the modal lays out over a few frames)."""
    for _ in range(50):
        await pilot.pause()
        if words in (text := screen_text(app)):
            return text
    raise AssertionError(f"{words!r} never shown:\n{screen_text(app)}")


def test_the_session_makes_a_form_request_and_the_app_an_elicitation_dialog() -> None:
    request = form_request()
    assert request.elicitation is not None and request.elicitation.mcp_server_name == "notes"
    assert isinstance(dialog_for(request, 1, 1, 0, False, False), ElicitationScreen)


async def test_submit_checks_the_fields_then_sends_the_values() -> None:
    request = form_request()
    app = DialogHost(ElicitationScreen(request, guard_ms=0, bell=False, desktop=False))
    async with app.run_test(size=(100, 40)) as pilot:
        text = await shown(pilot, app, "Name *")
        assert "Tell me about yourself" in text and "Name *" in text and "notes" in text
        await pilot.press("ctrl+s")  # nothing entered: the required fields say so, nothing is sent
        await pilot.pause()
        assert app.results == []
        assert "Name: needed" in screen_text(app) and "Age: needed" in screen_text(app)
        dialog = app.dialog
        dialog.query_one("#field-0", SafeInput).value = "A"
        dialog.query_one("#field-1", SafeInput).value = "two hundred"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.results == []
        assert "at least 2 characters" in screen_text(app) and "a whole number" in screen_text(app)
        dialog.query_one("#field-0", SafeInput).value = "Ada"
        dialog.query_one("#field-1", SafeInput).value = "36"
        dialog.query_one("#field-2", Checkbox).value = True
        radio = dialog.query_one("#field-3", RadioSet)
        radio.focus()
        await pilot.pause()
        await pilot.press("down", "down", "space")  # from the first choice down to blue
        await pilot.pause()
        assert app.focused is radio, app.focused
        assert radio.pressed_index == 2
        await pilot.press("ctrl+s")
        await pilot.pause()
    (decision,) = app.results
    assert build_answer(request, decision)["response"]["response"] == {
        "action": "accept", "content": {"name": "Ada", "age": 36, "subscribe": True, "colour": "blue"}}


async def test_decline_and_cancel() -> None:
    for key, action in (("ctrl+d", "decline"), ("escape", "cancel")):
        request = form_request()
        app = DialogHost(ElicitationScreen(request, guard_ms=0, bell=False, desktop=False))
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            app.dialog.query_one("#field-0", SafeInput).blur()
            await pilot.press(key)
            await pilot.pause()
        (decision,) = app.results
        assert decision.response == {"action": action}


async def test_a_waiting_form_answers_nothing() -> None:
    request = form_request()
    app = DialogHost(ElicitationScreen(request, guard_ms=0, bell=False, desktop=False), waiting=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s", "ctrl+d")
        await pilot.pause()
        assert app.results == []


async def test_the_servers_words_are_inert() -> None:
    request = form_request(mcp_server_name=UNSAFE, message=UNSAFE, requested_schema={
        "type": "object", "properties": {"x": {"type": "string", "title": UNSAFE, "description": UNSAFE}}})
    app = DialogHost(ElicitationScreen(request, guard_ms=0, bell=False, desktop=False))
    async with app.run_test(size=(100, 40)) as pilot:
        text = await shown(pilot, app, "From the MCP server")
        assert "[@click=app.quit]x[/]" in text and "\x1b" not in text and "\x07" not in text
        await pilot.click("#dialog")
        assert not app.quit_requested


async def test_a_url_form_shows_the_address() -> None:
    request = form_request(mode="url", url="https://auth.example/login?x=1", requested_schema=None)
    app = DialogHost(ElicitationScreen(request, guard_ms=0, bell=False, desktop=False))
    async with app.run_test(size=(100, 40)) as pilot:
        await shown(pilot, app, "https://auth.example/login?x=1")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.results[0].response == {"action": "accept", "content": {}}


async def test_ctrl_down_moves_between_fields_and_typing_fills_them() -> None:
    request = form_request()
    app = DialogHost(ElicitationScreen(request, guard_ms=0, bell=False, desktop=False), waiting=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await shown(pilot, app, "Name *")
        await pilot.press("tab")  # move to the dialog: its first field takes the keys
        await pilot.press(*"Ada", "ctrl+down", *"36")
        await pilot.pause()
        dialog = app.dialog
        assert dialog.query_one("#field-0", SafeInput).value == "Ada"
        assert dialog.query_one("#field-1", SafeInput).value == "36"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.results[0].response == {"action": "accept", "content": {"name": "Ada", "age": 36,
                                                                       "subscribe": False, "colour": "green"}}


async def test_several_choices_and_titled_choices() -> None:
    from textual.widgets import SelectionList

    schema = {"type": "object", "required": ["tags"], "properties": {
        "tags": {"type": "array", "title": "Tags", "items": {"type": "string", "enum": ["a", "b", "c"]}},
        "size": {"type": "string", "title": "Size", "oneOf": [{"const": "s", "title": "Small"},
                                                              {"const": "l", "title": "Large"}]}}}
    request = form_request(requested_schema=schema, property_order=["tags", "size"])
    app = DialogHost(ElicitationScreen(request, guard_ms=0, bell=False, desktop=False))
    async with app.run_test(size=(100, 40)) as pilot:
        text = await shown(pilot, app, "Tags *")
        assert "Small" in text and "Large" in text
        tags = app.dialog.query_one("#field-0", SelectionList)
        tags.focus()
        await pilot.pause()
        await pilot.press("down", "space")  # the second choice
        await pilot.pause()
        radio = app.dialog.query_one("#field-1", RadioSet)
        radio.focus()
        await pilot.pause()
        await pilot.press("down", "space")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.results[0].response == {"action": "accept", "content": {"tags": ["b"], "size": "l"}}
