"""Snapshots of the main screen's notable states (fake data, fixed size, no animation)."""

from __future__ import annotations

import pytest

from tests.snapshot.chat_states import StateApp, line_index
from tests.snapshot.settle import settle

SIZE = (120, 36)


async def _feed(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause()
    await pilot.app.feed()
    await settle(pilot)


def test_idle_welcome(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(StateApp([]), terminal_size=SIZE, run_before=_feed)


def test_streaming_answer(snap_compare) -> None:  # type: ignore[no-untyped-def]
    cut = line_index("long-stream", "text_delta", 40)
    assert snap_compare(StateApp([("kw:longstream go", "long-stream", cut)]), terminal_size=SIZE, run_before=_feed)


def test_thinking_closed_then_answer(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(StateApp([("kw:think what is the answer?", "thinking", None)]), terminal_size=SIZE,
                        run_before=_feed)


def test_thinking_open(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _feed(pilot)
        await pilot.press("f9")
        await settle(pilot)

    assert snap_compare(StateApp([("kw:think what is the answer?", "thinking", None)]), terminal_size=SIZE,
                        run_before=run_before)


@pytest.mark.parametrize("scenario,prompt", [
    ("bash-allow", "kw:bash please"),
    ("bash-deny", "kw:bash please"),
    ("edit-allow", "kw:edit the file"),
    ("write-create", "kw:write a new file"),
    ("tasks", "kw:tasks do the work"),
    ("ask-single", "kw:ask me"),
])
def test_tool_cards(snap_compare, scenario: str, prompt: str) -> None:  # type: ignore[no-untyped-def]
    # Control requests are fed too, which would open dialogs: cut them out by feeding
    # only the finished turn's lines (dialogs have their own snapshots).
    app = StateApp([(prompt, scenario, None)])
    assert snap_compare(app, terminal_size=SIZE, run_before=_dismiss_dialogs_and_feed)


async def _dismiss_dialogs_and_feed(pilot) -> None:  # type: ignore[no-untyped-def]
    await _feed(pilot)
    app = pilot.app
    while type(app.screen).__name__ != "ChatScreen":
        app.pop_screen()
        await settle(pilot)
    await settle(pilot)


def test_error_notice_max_turns(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(StateApp([("kw:bash please", "max-turns", None)]), terminal_size=SIZE,
                        run_before=_dismiss_dialogs_and_feed)


def test_interrupted_and_slash_cost(snap_compare) -> None:  # type: ignore[no-untyped-def]
    feeds = [("kw:slow story", "interrupt-stream", None), ("/cost", "slash-cost", None)]
    assert snap_compare(StateApp(feeds, after="a draft that survives"), terminal_size=SIZE, run_before=_feed)


def test_retrying_status(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _feed(pilot)
        from claude_tui.protocol import decode_obj

        screen = pilot.app.chat
        retry = {"type": "system", "subtype": "api_retry", "attempt": 2, "max_retries": 10,
                 "retry_delay_ms": 1200, "error_status": 529, "session_id": "s"}
        await screen.show_changes(screen.session.conversation.apply(decode_obj(retry)))
        await settle(pilot)

    assert snap_compare(StateApp([("Hello there, kw:plain", "text", None)]), terminal_size=SIZE,
                        run_before=run_before)


def test_small_terminal_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = StateApp([("kw:edit the file", "edit-allow", None)])
    assert snap_compare(app, terminal_size=(80, 24), run_before=_dismiss_dialogs_and_feed)


def test_large_terminal_160x48_light(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = StateApp([("kw:bash please", "bash-allow", None), ("kw:edit the file", "edit-allow", None)],
                   theme="textual-light")
    assert snap_compare(app, terminal_size=(160, 48), run_before=_dismiss_dialogs_and_feed)
