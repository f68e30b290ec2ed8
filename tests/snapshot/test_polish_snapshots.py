"""Snapshots of the polish layer: help screen, palette with model hits, find bar with a match (dark + light)."""

from __future__ import annotations

import json

import pytest

from tests.snapshot.chat_states import StateApp, recorded
from tests.snapshot.settle import settle

SIZE = (110, 34)
THEMES = ["textual-dark", "textual-light"]


def _init_response() -> dict:
    for line in recorded("text"):
        data = json.loads(line)
        if data.get("type") == "control_response":
            return data["response"]["response"]
    raise AssertionError("no initialize response in the recording")


async def _ready(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause()
    app = pilot.app
    await app.feed()
    screen = app.chat
    response = _init_response()
    screen.session.conversation.apply_initialize(response)
    screen.session.initialize_response = response
    await settle(pilot)


FEEDS = [("Hello there, kw:plain", "text", None), ("kw:bash please", "bash-allow", None)]


def _dismiss_dialogs(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    while type(app.screen).__name__ != "ChatScreen":
        app.pop_screen()


@pytest.mark.parametrize("theme", THEMES)
def test_help_screen(snap_compare, theme: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _ready(pilot)
        _dismiss_dialogs(pilot)
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)

    assert snap_compare(StateApp(FEEDS, theme=theme), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_palette_with_model_hits(snap_compare, theme: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _ready(pilot)
        _dismiss_dialogs(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"model")
        await settle(pilot)

    assert snap_compare(StateApp(FEEDS, theme=theme), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_find_bar_with_highlighted_match(snap_compare, theme: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _ready(pilot)
        _dismiss_dialogs(pilot)
        await settle(pilot)
        await pilot.press("ctrl+f")
        await settle(pilot)
        await pilot.press(*"hello")
        await settle(pilot)

    assert snap_compare(StateApp(FEEDS, theme=theme), terminal_size=SIZE, run_before=run_before)
