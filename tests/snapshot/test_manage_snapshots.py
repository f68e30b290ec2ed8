"""Snapshots of the manage screens and the elicitation form, on the real CLI's recorded answers."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from claude_tui.ui.manage.context import ContextScreen
from claude_tui.ui.manage.elicitation import ElicitationScreen
from claude_tui.ui.manage.hooks import HooksScreen
from claude_tui.ui.manage.mcp import McpScreen
from claude_tui.ui.manage.permissions import PermissionsScreen
from tests.manage_answers import FakeAsker, ScreenHost, recorded
from tests.pilot.test_dialogs import DialogHost
from tests.pilot.test_manage_elicitation import form_request
from tests.snapshot.settle import settle

SIZE = (110, 40)
NEEDS_AUTH = {"name": "cloud", "status": "needs-auth", "config": {"type": "http", "url": "https://mcp.example/mcp"}}


def _screens() -> dict[str, Any]:
    status = recorded("mcp_status", -1)["response"]
    return {
        "mcp": (McpScreen, {"mcp_status": {"mcpServers": [*status["mcpServers"], NEEDS_AUTH,
                                                           {"name": "off", "status": "disabled"}]}}),
        "context": (ContextScreen, {"get_context_usage": recorded("get_context_usage", -1)["response"]}),
        "permissions": (PermissionsScreen, {"list_permission_rules": recorded("list_permission_rules", 1)["response"]}),
        "hooks": (HooksScreen, {"get_hooks_listing": recorded("get_hooks_listing")["response"]}),
    }


async def _loaded(pilot: Pilot[Any]) -> None:
    screen = pilot.app.manage_screen  # type: ignore[attr-defined]
    for _ in range(200):
        await pilot.pause()
        if screen.loads:
            break
    await settle(pilot)


@pytest.mark.parametrize("name", ["mcp", "context", "permissions", "hooks"])
def test_manage_screen(snap_compare, name: str) -> None:  # type: ignore[no-untyped-def]
    cls, answers = _screens()[name]
    assert snap_compare(ScreenHost(cls(FakeAsker(answers))), terminal_size=SIZE, run_before=_loaded)


def test_an_older_cli_says_what_it_lacks(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    app = ScreenHost(PermissionsScreen(FakeAsker({}, version="2.0.77")))
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_elicitation_form(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("ctrl+s")  # nothing entered: the required fields say so
        await settle(pilot)

    app = DialogHost(ElicitationScreen(form_request(), guard_ms=0, bell=False, desktop=False))
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("kind", ["refusal_fallback_prompt", "auto_mode_outside_reads"])
def test_claude_codes_own_dialogs(snap_compare, kind: str) -> None:  # type: ignore[no-untyped-def]
    from claude_tui.ui.dialogs.user_dialog import UserDialogScreen
    from tests.pilot.test_user_dialog import OUTSIDE, REFUSAL, dialog_request

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    request = dialog_request(kind, REFUSAL if kind == "refusal_fallback_prompt" else OUTSIDE)
    app = DialogHost(UserDialogScreen(request, guard_ms=0, bell=False, desktop=False))
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
