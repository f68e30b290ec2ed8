"""The fault matrix: the app against a misbehaving (fake) Claude Code.

In every case the app stays up, the transcript typed before and the draft in
the prompt survive, a note says what happened, and F5 restarts the CLI
with ``--resume <the same session id>`` so a new turn works.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

import claude_tui.fakecli
from claude_tui.session.items import TextItem
from claude_tui.session.status import Activity
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from tests.conftest import recording
from tests.reliability.harness import (
    SIZE,
    activity,
    assistant_texts,
    chat,
    client_argv,
    client_pid,
    fake_options,
    items,
    make_app,
    note_text,
    pid_alive,
    prompt_text,
    submit,
    type_prompt,
    user_texts,
    wait_for,
    wait_gone,
    wait_guard_down,
    wait_ready,
    wait_turn_end,
)

RESUME_ID = "5f0c2b1e-9d4a-4c3b-8e7f-0a1b2c3d4e5f"
DRAFT = "my unsent draft, kw:plain — keep me"
PLAIN_ANSWER = "Hello! You said: Hello there, kw:plain "


def _clear_fault(app: ClaudeTuiApp) -> None:
    """The next CLI the app starts behaves (the options object is the one Ctrl+R reuses)."""
    options = chat(app).session.options
    options.env.pop("FAKE_CLAUDE_FAULT", None)
    options.claude_path = None
    options.command = claude_tui.fakecli.command()


async def _assert_recovers(pilot: Pilot[Any], app: ClaudeTuiApp, *, note: str | list[str], users: list[str],
                           session_id: str, draft: str = DRAFT) -> None:
    """The common tail of every fault: still up, nothing lost, told why, one key to resume."""
    screen = chat(app)
    assert app.is_running
    assert app.screen is app.chat_screen, f"unexpected screen on top: {app.screen!r}"
    for text in users:
        assert text in user_texts(app), f"the prompt {text!r} vanished from the transcript"
    assert prompt_text(app) == draft
    await wait_for(pilot, lambda: screen.session.drafts.load() == draft, 5, "the draft to be saved")
    for words in [note] if isinstance(note, str) else note:
        assert words in note_text(app), f"no note saying {words!r}; notes:\n{note_text(app)}"

    _clear_fault(app)
    old_pid = client_pid(app)
    old_connection = screen.session.connection
    busy = screen.session.busy and screen.session.connection.alive  # a silent CLI's turn never ended: Ctrl+R asks first
    await pilot.press("f5")
    if busy:
        from claude_tui.ui.dialogs.confirm import ConfirmScreen

        await wait_guard_down(pilot, app, ConfirmScreen, "the restart question")
        await pilot.press("y")
    # The restart runs in a worker: wait for the new process and its handshake, not for the old
    # one (still "ready" until the worker gets to close it).
    await wait_for(pilot, lambda: screen.session.connection is not old_connection, 30, "the new process")
    await wait_ready(pilot, app, timeout=20)
    await wait_for(pilot, lambda: activity(app) is Activity.IDLE, 20, "the restarted session idle")
    assert client_pid(app) != old_pid
    argv = client_argv(app)
    assert argv[argv.index("--resume") + 1] == session_id, argv
    assert screen.session.connection.options.resume == session_id
    assert prompt_text(app) == draft, "restarting lost the draft"

    # A new turn works: send the kept draft.
    turns = screen.session.conversation.status.turns
    answers = len(assistant_texts(app))
    await pilot.press("enter")
    await wait_turn_end(pilot, app, turns + 1, timeout=60)
    assert screen.session.conversation.status.session_id == session_id
    assert len(assistant_texts(app)) == answers + 1 and assistant_texts(app)[-1] == PLAIN_ANSWER
    assert prompt_text(app) == ""
    for text in users:
        assert text in user_texts(app)


async def _first_turn_then_fault(pilot: Pilot[Any], app: ClaudeTuiApp, prompt: str) -> str:
    """Send ``prompt`` (whose turn hits the fault), type the draft at once; returns the session id."""
    await wait_ready(pilot, app)
    await submit(pilot, app, prompt)
    await type_prompt(pilot, app, DRAFT)
    await wait_for(pilot, lambda: chat(app).session.conversation.status.session_id, 10, "system/init")
    return chat(app).session.conversation.status.session_id


async def _wait_exited(pilot: Pilot[Any], app: ClaudeTuiApp, timeout: float = 15) -> None:
    await wait_for(pilot, lambda: activity(app) is Activity.EXITED and "Claude Code stopped" in note_text(app),
                   timeout, "the exit note")


# -- the matrix -----------------------------------------------------------------------------------------------

async def test_binary_missing(tmp_path: Path) -> None:
    options = CliOptions(cwd=str(tmp_path), claude_path="/nonexistent/claude", resume=RESUME_ID,
                         env={"FAKE_CLAUDE_DELAY_MS": "0"})
    app = make_app(options)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Cannot start Claude Code" in note_text(app), 10, "the start failure note")
        assert "/nonexistent/claude" in note_text(app)
        await type_prompt(pilot, app, DRAFT)
        await pilot.press("enter")  # not running: refused, the draft stays
        await pilot.pause()
        assert prompt_text(app) == DRAFT
        await _assert_recovers(pilot, app, note="Cannot start Claude Code", users=[], session_id=RESUME_ID)


async def test_exit_1_at_start_shows_stderr(tmp_path: Path) -> None:
    options = fake_options(tmp_path, "exit1-at-start")
    options.resume = RESUME_ID
    app = make_app(options)
    async with app.run_test(size=SIZE) as pilot:
        await type_prompt(pilot, app, DRAFT)
        await _wait_exited(pilot, app)
        await _assert_recovers(pilot, app, note=["Invalid API key · Please run /login", "status 1"], users=[],
                               session_id=RESUME_ID)


async def test_sigkill_mid_stream(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path, "kill-mid-stream", FAKE_CLAUDE_FAULT_AFTER="40"))
    async with app.run_test(size=SIZE) as pilot:
        sid = await _first_turn_then_fault(pilot, app, "first kw:longstream")
        await _wait_exited(pilot, app)
        assert "killed by signal 9" in note_text(app)
        partial = [i for i in items(app) if isinstance(i, TextItem)]
        assert partial and partial[0].text and not partial[0].streaming  # what arrived is kept, and settled
        kept = partial[0].text
        await _assert_recovers(pilot, app, note="killed by signal 9", users=["first kw:longstream"], session_id=sid)
        assert assistant_texts(app)[0] == kept


async def test_non_json_lines_on_stdout(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path, "garbage"))
    async with app.run_test(size=SIZE) as pilot:
        sid = await _first_turn_then_fault(pilot, app, "first kw:plain")
        await wait_turn_end(pilot, app, 1)
        assert assistant_texts(app) == [PLAIN_ANSWER]  # the real lines all got through
        await _assert_recovers(pilot, app, note="not stream-json", users=["first kw:plain"], session_id=sid)
        assert note_text(app).count("not stream-json") == 1, "one note, not one per bad line"
        assert "\x1b" not in note_text(app)


async def _huge_line(tmp_path: Path, size: int) -> None:
    app = make_app(fake_options(tmp_path, "huge-line", FAKE_CLAUDE_HUGE_BYTES=str(size)))
    async with app.run_test(size=SIZE) as pilot:
        sid = await _first_turn_then_fault(pilot, app, "first kw:plain")
        await wait_turn_end(pilot, app, 1, timeout=60)
        texts = assistant_texts(app)
        assert len(texts[0]) == size and texts[0].startswith("All work and no play")
        assert texts[-1] == PLAIN_ANSWER
        # Still responsive: a key is handled promptly.
        started = time.monotonic()
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert time.monotonic() - started < 2, "a key took seconds with a huge answer on screen"
        await pilot.press("ctrl+t")
        await _assert_recovers(pilot, app, note=[], users=["first kw:plain"], session_id=sid)


async def test_huge_line_8mib(tmp_path: Path) -> None:
    await _huge_line(tmp_path, 8 * 1024 * 1024)


@pytest.mark.slow
async def test_huge_line_64mib(tmp_path: Path) -> None:
    await _huge_line(tmp_path, 64 * 1024 * 1024)


async def _huge_line_through_transport(tmp_path: Path, size: int) -> None:
    """Our part of the huge line: read, decoded and applied intact (no UI), and the turn goes on."""
    from claude_tui.protocol import builders
    from claude_tui.session.conversation import Conversation
    from claude_tui.transport.client import ClaudeClient
    from claude_tui.transport.events import ProcessExited

    conversation = Conversation()
    client = ClaudeClient(fake_options(tmp_path, "huge-line", FAKE_CLAUDE_HUGE_BYTES=str(size)))
    await client.start()
    try:
        await client.request(builders.initialize(), timeout=30)
        await client.send(builders.user_message("first kw:plain"))
        async for item in client.events():
            conversation.apply(item)
            if getattr(item, "type", None) == "result" or isinstance(item, ProcessExited):
                break
    finally:
        await client.close()
    texts = [i.text for i in conversation.items if isinstance(i, TextItem)]
    assert len(texts[0]) == size and texts[0].startswith("All work and no play")
    assert texts[-1] == PLAIN_ANSWER


async def test_huge_line_8mib_reaches_the_session_intact(tmp_path: Path) -> None:
    await _huge_line_through_transport(tmp_path, 8 * 1024 * 1024)


@pytest.mark.slow
async def test_huge_line_64mib_reaches_the_session_intact(tmp_path: Path) -> None:
    await _huge_line_through_transport(tmp_path, 64 * 1024 * 1024)


async def test_stderr_flood(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path, "stderr-flood", FAKE_CLAUDE_STDERR_BYTES=str(10 * 1024 * 1024)))
    async with app.run_test(size=SIZE) as pilot:
        sid = await _first_turn_then_fault(pilot, app, "first kw:plain")
        await wait_turn_end(pilot, app, 1)
        assert assistant_texts(app) == [PLAIN_ANSWER]
        client = chat(app).session.connection.client
        assert client is not None and "stderr flood done" in client.stderr_tail
        assert len(client.stderr_tail) <= 64 * 1024 + 16  # bounded tail, not 10 MB in memory
        await _assert_recovers(pilot, app, note=[], users=["first kw:plain"], session_id=sid)


async def _silent_permission_dialog(pilot: Pilot[Any], app: ClaudeTuiApp) -> tuple[str, int]:
    from claude_tui.ui.dialogs.permission import PermissionScreen

    sid = await _first_turn_then_fault(pilot, app, "first kw:plain")
    await wait_for(pilot, lambda: isinstance(app.screen, PermissionScreen), 10, "the permission dialog")
    pid = client_pid(app)
    assert pid is not None
    # Silence: the dialog stays up, the app keeps handling input and timers.
    await pilot.pause(0.5)
    assert isinstance(app.screen, PermissionScreen)
    assert chat(app).session.connection.alive
    ticks = chat(app).session.conversation.status.activity, time.monotonic()
    started = time.monotonic()
    # Handled at once; none answers. They go on to the prompt below the waiting dialog: Up walks its
    # history back and Down returns to the draft, x and Backspace cancel out.
    await pilot.press("up", "down", "x", "backspace")
    await pilot.pause()
    assert time.monotonic() - started < 2
    assert isinstance(app.screen, PermissionScreen) and ticks[0] is Activity.WAITING
    return sid, pid


async def test_silence_with_permission_pending_quit_kills_child(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path, "silent-permission"))
    async with app.run_test(size=SIZE) as pilot:
        _, pid = await _silent_permission_dialog(pilot, app)
        await pilot.press("ctrl+q")
        # A turn is running: the app asks first.
        from claude_tui.ui.dialogs.confirm import ConfirmScreen

        await wait_guard_down(pilot, app, ConfirmScreen, "the quit confirmation")  # quitting stops a turn: guarded
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running, 20, "the app to exit")
    assert await wait_gone([pid]) == [], "the silent CLI survived quitting"


async def test_silence_with_permission_pending_restart(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path, "silent-permission"))
    async with app.run_test(size=SIZE) as pilot:
        sid, pid = await _silent_permission_dialog(pilot, app)
        dialog = app.screen
        await wait_guard_down(pilot, app, type(dialog), "the permission dialog")
        await pilot.press("escape")  # Esc denies; the silent CLI never reacts
        await wait_for(pilot, lambda: app.screen is not dialog, 5, "the dialog to close")
        await _assert_recovers(pilot, app, note=[], users=["first kw:plain"], session_id=sid)
        assert not pid_alive(pid)


async def test_keys_typed_during_a_slow_restart_reach_the_prompt_at_once(tmp_path: Path) -> None:
    # The silent CLI ignores EOF, so closing it takes seconds (SIGTERM after a wait): the
    # restart must not hold the keyboard for that long.
    app = make_app(fake_options(tmp_path, "silent-permission"))
    async with app.run_test(size=SIZE) as pilot:
        await _silent_permission_dialog(pilot, app)
        dialog = app.screen
        await wait_guard_down(pilot, app, type(dialog), "the permission dialog")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not dialog, 5, "the dialog to close")
        screen = chat(app)
        old = screen.session.connection
        prompt = screen.query_one("#prompt")
        prompt.focus()
        draft = prompt.text  # type: ignore[attr-defined]
        from claude_tui.ui.dialogs.confirm import ConfirmScreen

        await pilot.press("f5")  # the silent turn never ended: restarting stops it, so it asks
        await wait_guard_down(pilot, app, ConfirmScreen, "the restart question")
        await pilot.press("y", *"abc")
        await wait_for(pilot, lambda: prompt.text == draft + "abc", 5, "the keys in the prompt")  # type: ignore[attr-defined]
        assert screen.session.connection is old, "the keys were handled while the old CLI was still closing"
        await wait_for(pilot, lambda: screen.session.connection is not old and screen.session.connection.alive, 30, "the restart")


async def test_stdout_closed_while_process_lives(tmp_path: Path) -> None:
    # The fake closes stdout at the first user message, before any system/init:
    # the session id is the one the app was started to resume.
    options = fake_options(tmp_path, "close-stdout")
    options.resume = RESUME_ID
    app = make_app(options)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await submit(pilot, app, "first kw:plain")
        await type_prompt(pilot, app, DRAFT)
        sid = RESUME_ID
        pid = client_pid(app)
        await _wait_exited(pilot, app, timeout=20)
        assert "after closing its output" in note_text(app)
        assert pid is not None and await wait_gone([pid]) == []
        await _assert_recovers(pilot, app, note="after closing its output", users=["first kw:plain"],
                               session_id=sid)


def _recorded_result(name: str) -> str:
    return next(json.loads(line)["result"] for line in recording(name) if json.loads(line).get("type") == "result")


async def test_slow_consumer_loses_nothing(tmp_path: Path) -> None:
    """A flood of deltas while the UI thread is busy: every delta arrives, in order."""
    app = make_app(fake_options(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        screen = chat(app)
        appended: list[str] = []
        show = screen.show_changes

        async def slow_show(changes: list[Any]) -> None:
            from claude_tui.session import changes as ch

            # What the widgets get: an answer added in a batch holds its text so far, then the deltas.
            from claude_tui.session.items import TextItem

            for c in changes:
                if isinstance(c, ch.ItemAdded) and isinstance(c.item, TextItem) and c.scope is None:
                    appended.append(c.item.text)
                elif isinstance(c, ch.TextAppended) and c.scope is None:
                    appended.append(c.text)
            time.sleep(0.002)  # a busy UI: every batch blocks the loop
            await show(changes)

        screen.show_changes = slow_show  # type: ignore[method-assign]
        busy = screen.set_interval(0.02, lambda: time.sleep(0.005))
        await submit(pilot, app, "first kw:longstream")
        await type_prompt(pilot, app, DRAFT)
        await wait_turn_end(pilot, app, 1, timeout=60)
        busy.stop()
        expected = _recorded_result("long-stream")
        assert assistant_texts(app) == [expected]
        assert "".join(appended) == expected, "streamed deltas were lost or reordered"
        sid = screen.session.conversation.status.session_id
        screen.show_changes = show  # type: ignore[method-assign]
        await _assert_recovers(pilot, app, note=[], users=["first kw:longstream"], session_id=sid)
