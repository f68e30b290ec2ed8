"""The "tell Claude what to do instead" mode, driven by keys in BOTH dialogs that share it.

The permission dialog (``t``: deny with a message) and the plan dialog (``t``: keep
planning with a message) hold the box of ``claude_tui/ui/dialogs/tell.py`` (`TellBox`);
each case runs against both, so a dialog that drifts from the shared behaviour fails.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.widgets import Input

from claude_tui.session.permissions import PermissionDecision, PermissionRequest
from claude_tui.ui.dialogs import base as dialog_base
from claude_tui.ui.dialogs.permission import DENY_MESSAGE, PermissionScreen
from claude_tui.ui.dialogs.plan import KEEP_PLANNING_MESSAGE, PlanScreen
from tests.pilot.test_dialogs import (
    PLAN,
    DialogHost,
    FakeClock,
    bash_request,
    request_from,
    settle,
    type_text,
)

Telling = PermissionScreen | PlanScreen
"""The dialogs that hold a `TellBox`."""


def permission_dialog(guard_ms: int) -> tuple[Telling, PermissionRequest]:
    request = bash_request()
    return PermissionScreen(request, guard_ms=guard_ms), request


def plan_dialog(guard_ms: int) -> tuple[Telling, PermissionRequest]:
    request = request_from("plan-exit", "ExitPlanMode", plan=PLAN)
    return PlanScreen(request, guard_ms=guard_ms), request


# (make the dialog, what the transcript says before a told message, the plain refusal: message and words)
DIALOGS = pytest.mark.parametrize(
    ("make", "words", "refusal"),
    [
        pytest.param(permission_dialog, "Denied", (DENY_MESSAGE, "Denied"), id="permission"),
        pytest.param(plan_dialog, "Kept planning", (KEEP_PLANNING_MESSAGE, "Kept planning"), id="plan"),
    ],
)

Make = Callable[[int], tuple[Telling, PermissionRequest]]


def in_main_mode(dialog: Telling) -> bool:
    """The choices are back: main mode, key bar shown, message box hidden, focus on the body."""
    return (
        dialog.mode == "main"
        and dialog.query_one("#keys").display
        and not dialog.query_one("#tell").display
        and dialog.focused is dialog.query_one("#body")
    )


@DIALOGS
async def test_t_type_enter_refuses_with_the_message(make: Make, words: str, refusal: tuple[str, str]) -> None:
    dialog, request = make(0)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        box = dialog.query_one("#tell")
        assert dialog.mode == "tell" and box.display and not dialog.query_one("#keys").display
        assert isinstance(app.focused, Input) and app.focused.parent is box
        await pilot.press("enter")  # an empty message is not a decision
        await type_text(pilot, "   ")
        await pilot.press("enter")  # nor is one of only spaces
        await settle(pilot)
        assert app.results == [] and dialog.mode == "tell"
        await type_text(pilot, "yes, stay and use rg")  # y/a/n/s/t/e are keys elsewhere; here they just type
        await pilot.press("enter")
        await settle(pilot)
    text = "yes, stay and use rg"
    assert app.results == [PermissionDecision(request.request_id, False, message=text, words=f"{words}: {text}")]


@DIALOGS
async def test_t_then_escape_goes_back_without_answering(make: Make, words: str, refusal: tuple[str, str]) -> None:
    dialog, request = make(0)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t", "x", "escape")
        await settle(pilot)
        assert app.results == [] and in_main_mode(dialog)
        await pilot.press("t")  # the box opens empty again
        await settle(pilot)
        assert isinstance(app.focused, Input) and app.focused.value == ""
        await pilot.press("escape")
        await settle(pilot)
        assert app.results == [] and in_main_mode(dialog)
        await pilot.press("escape")  # Esc among the choices is the dialog's plain refusal
        await settle(pilot)
    message, refused = refusal
    assert app.results == [PermissionDecision(request.request_id, False, message=message, words=refused)]


@DIALOGS
async def test_the_tell_box_obeys_the_typeahead_guard(
    make: Make, words: str, refusal: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    monkeypatch.setattr(dialog_base, "time", clock)
    dialog, request = make(300)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")  # typeahead: swallowed by the guard, does not open the box
        await settle(pilot)
        assert dialog.mode == "main" and not dialog.waiting
        clock.now += 0.301
        await pilot.press("t", "o", "k")
        await settle(pilot)
        assert dialog.mode == "tell"
        dialog.arm()  # as when the dialog is covered and uncovered again
        await pilot.press("enter", "escape")
        await settle(pilot)
        assert app.results == [] and dialog.mode == "tell"  # neither sent nor went back
        clock.now += 0.301
        await pilot.press("enter")
        await settle(pilot)
    assert app.results == [PermissionDecision(request.request_id, False, message="ok", words=f"{words}: ok")]
