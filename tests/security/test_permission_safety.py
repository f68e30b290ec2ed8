"""Permission safety, end to end: the real app, the fake CLI's recorded Bash permission (kw:bash).

A tool runs only after an explicit key on a visible dialog. Keys within the
typeahead guard, keys typed before the dialog appeared, and Enter never
approve; Esc denies; a request the CLI cancels, or that dies with the CLI,
is never answered, and late answers are dropped by the transport.

What leaves for the CLI is read from the transport's debug log (every line
written to stdin is logged as ``>>``), what the CLI printed as ``<<``.
Dialog-level unit tests of the same rules live in tests/pilot/test_dialogs.py.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from claude_tui.config import Config
from claude_tui.protocol import builders
from claude_tui.session.items import ToolState
from claude_tui.transport.client import ClaudeClient
from claude_tui.ui.dialogs.permission import PermissionScreen
from tests.reliability.harness import (
    SIZE,
    chat,
    client_pid,
    fake_options,
    make_app,
    prompt_text,
    submit,
    tools,
    type_prompt,
    wait_for,
    wait_ready,
    wait_turn_end,
)

GUARD_MS = 400


def _log(path: Path, direction: str) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        _, sep, rest = line.partition(f" {direction} ")
        if sep:
            try:
                out.append(json.loads(rest))
            except ValueError:
                pass
    return out


def permission_answers(path: Path) -> list[dict[str, Any]]:
    """Every control_response we wrote that answers a CLI request (permission answers)."""
    return [m for m in _log(path, ">>") if m.get("type") == "control_response"]


def tool_results(path: Path) -> list[dict[str, Any]]:
    """Results of tools that actually ran (the CLI's own rejection notices are errors, not runs)."""
    return [m for m in _log(path, "<<") if m.get("type") == "user" and isinstance(m.get("message"), dict)
            and any(isinstance(b, dict) and b.get("type") == "tool_result" and not b.get("is_error")
                    for b in m["message"].get("content") or [])]


class Harness:
    def __init__(self, tmp_path: Path, guard_ms: int = GUARD_MS, **env: str) -> None:
        self.log = tmp_path / "debug.log"
        self.app = make_app(fake_options(tmp_path, **env), Config(typeahead_guard_ms=guard_ms), debug_log=self.log)

    async def ask(self, pilot: Pilot[Any], draft: str = "") -> PermissionScreen:
        """Send the prompt that asks for Bash; ``draft``: keys typed right after its Enter (the user
        goes on typing, so the dialog appears over a draft and waits for Tab)."""
        await wait_ready(pilot, self.app)
        if draft:
            await type_prompt(pilot, self.app, "run it kw:bash")
            await pilot.press("enter", *draft)
        else:
            await submit(pilot, self.app, "run it kw:bash")
        await wait_for(pilot, lambda: isinstance(self.app.screen, PermissionScreen), 10, "the permission dialog")
        return self.app.screen  # type: ignore[return-value]

    def request_id(self) -> str:
        dialog = chat(self.app).session.permissions.current
        assert dialog is not None
        return dialog.request_id


async def _past_guard(pilot: Pilot[Any]) -> None:
    await pilot.pause(GUARD_MS / 1000 + 0.25)


def _assert_nothing_ran(h: Harness) -> None:
    assert permission_answers(h.log) == []
    assert tool_results(h.log) == []
    assert all(t.state is not ToolState.DONE for t in tools(h.app))


async def test_tool_runs_only_after_an_explicit_key_on_the_visible_dialog(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    async with h.app.run_test(size=SIZE) as pilot:
        dialog = await h.ask(pilot, draft="x")
        await pilot.pause(1.0)  # the CLI waits; nothing runs on its own
        assert h.app.screen is dialog
        _assert_nothing_ran(h)
        await pilot.press("y")  # waiting: typing, not an answer
        await pilot.pause(0.3)
        assert h.app.screen is dialog
        _assert_nothing_ran(h)
        await pilot.press("tab")
        await _past_guard(pilot)
        await pilot.press("y")
        await wait_turn_end(pilot, h.app, 1)
        answers = permission_answers(h.log)
        assert len(answers) == 1 and answers[0]["response"]["response"]["behavior"] == "allow"
        assert answers[0]["response"]["request_id"] == dialog.request.request_id
        assert len(tool_results(h.log)) == 1
        assert [t.state for t in tools(h.app)] == [ToolState.DONE]


async def test_typeahead_within_the_guard_is_ignored(tmp_path: Path) -> None:
    guard = 3000  # Pilot needs ~0.15 s a key: a long guard keeps every key inside it
    h = Harness(tmp_path, guard_ms=guard)
    async with h.app.run_test(size=SIZE) as pilot:
        dialog = await h.ask(pilot, draft="x")
        await pilot.press("y", "a", "1", "y")  # waiting: all typing
        await pilot.press("tab")
        shown = time.monotonic()
        await pilot.press("y", "a", "1", "y")  # on the heels of Tab: swallowed, neither answers nor stray letters
        last = time.monotonic()
        assert last - shown < guard / 1000, "the keys were not typed within the guard"
        await pilot.pause(0.1)
        assert h.app.screen is dialog and not dialog.waiting and dialog.has_class("-armed")
        _assert_nothing_ran(h)
        assert prompt_text(h.app).endswith("xya1y")
        await pilot.pause(guard / 1000 + 0.25)
        assert h.app.screen is dialog  # nothing typed earlier fires late either
        _assert_nothing_ran(h)
        await pilot.press("n")
        await wait_turn_end(pilot, h.app, 1)
        assert [a["response"]["response"]["behavior"] for a in permission_answers(h.log)] == ["deny"]


async def test_a_sentence_typed_as_the_dialog_appears_goes_on_in_the_prompt(tmp_path: Path) -> None:
    """Someone typing a follow-up when the dialog pops up: nothing is approved, no word is lost."""
    guard = 3000
    h = Harness(tmp_path, guard_ms=guard)
    async with h.app.run_test(size=SIZE) as pilot:
        dialog = await h.ask(pilot, draft="x")
        await pilot.press(*"now yes", "space", *"again")  # y, a and n are dialog keys: all swallowed
        assert h.app.screen is dialog
        _assert_nothing_ran(h)
        # The draft's x first: in the prompt already, or held (it came too soon after a dialog that
        # appeared on the heels of the Enter, and the next key made it typing). A key still held when
        # the presses end (a loaded machine) reaches the prompt when its hold ends, never the dialog.
        await wait_for(pilot, lambda: prompt_text(h.app) == "xnow yes again",
                       what="the sentence in the prompt")
        assert h.app.screen is dialog
        _assert_nothing_ran(h)


async def test_keys_typed_before_the_dialog_appears_never_approve(tmp_path: Path) -> None:
    """The user is typing "y…" in the prompt when the request arrives: none of it answers."""
    guard = 3000  # Pilot needs ~0.15 s a key: a long guard keeps the racing keys inside it
    h = Harness(tmp_path, guard_ms=guard)
    async with h.app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, h.app)
        await submit(pilot, h.app, "run it kw:bash")
        presses = 0
        while not isinstance(h.app.screen, PermissionScreen):
            await pilot.press("y")
            presses += 1
            assert presses < 2000, "the dialog never came"
        dialog = h.app.screen
        shown = time.monotonic()
        await pilot.press("y", "y")  # keys already on their way when it appeared
        assert time.monotonic() - shown < guard / 1000
        await pilot.pause(guard / 1000 + 0.25 - (time.monotonic() - shown))
        assert h.app.screen is dialog, (permission_answers(h.log), presses, h.app.screen_stack)
        _assert_nothing_ran(h)
        assert set(prompt_text(h.app)) <= {"y"}  # the early keys went to the prompt, where they belong
        assert len(prompt_text(h.app)) == presses + 2  # every one of them
        # Esc on the waiting dialog is the chat's Esc: it interrupts the turn. It never approves:
        # the request is withdrawn, the tool does not run.
        await pilot.press("escape")
        await wait_turn_end(pilot, h.app, 1)
        assert h.app.screen is not dialog
        assert all(a["response"]["response"]["behavior"] == "deny" for a in permission_answers(h.log))
        assert [t.state for t in tools(h.app)] == [ToolState.DENIED]
        _assert_nothing_ran(h)


async def test_enter_never_approves_while_typing_or_inside_the_guard(tmp_path: Path) -> None:
    """Enter is Claude Code's highlighted choice (allow once) under exactly the rules of ``y``: over a
    draft the dialog waits, and an Enter on the heels of Tab is swallowed (each re-arms the guard)."""
    h = Harness(tmp_path)
    async with h.app.run_test(size=SIZE) as pilot:
        dialog = await h.ask(pilot, draft="x")
        await pilot.pause(1.0)
        await pilot.press("space", "tab", "enter", "down", "enter", "enter")
        await pilot.pause(0.3)
        assert h.app.screen is dialog
        _assert_nothing_ran(h)
        await _past_guard(pilot)
        await pilot.press("enter")  # now an explicit key on the visible dialog
        await wait_turn_end(pilot, h.app, 1)
        answers = permission_answers(h.log)
        assert len(answers) == 1 and answers[0]["response"]["response"]["behavior"] == "allow"


async def test_escape_denies(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    async with h.app.run_test(size=SIZE) as pilot:
        dialog = await h.ask(pilot)
        await pilot.press("tab")
        await _past_guard(pilot)
        await pilot.press("escape")
        await wait_turn_end(pilot, h.app, 1)
        answers = permission_answers(h.log)
        assert len(answers) == 1 and answers[0]["response"]["response"]["behavior"] == "deny"
        assert answers[0]["response"]["request_id"] == dialog.request.request_id
        assert tool_results(h.log) == [] or "denied" in json.dumps(tool_results(h.log)).lower() \
            or "doesn't want" in json.dumps(tool_results(h.log))
        assert [t.state for t in tools(h.app)] == [ToolState.DENIED]


async def test_cancel_request_closes_the_dialog_and_nothing_is_sent(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    async with h.app.run_test(size=SIZE) as pilot:
        dialog = await h.ask(pilot)
        rid = h.request_id()
        connection = chat(h.app).session.connection
        # An interrupt (from anywhere) makes the CLI withdraw the request with control_cancel_request.
        await connection.request(builders.interrupt(), timeout=10)
        await wait_for(pilot, lambda: h.app.screen is not dialog, 5, "the dialog to close")
        assert any(m.get("type") == "control_cancel_request" and m.get("request_id") == rid
                   for m in _log(h.log, "<<"))
        await wait_for(pilot, lambda: any(m.get("type") == "result" for m in _log(h.log, "<<")), 10, "the result")
        await _past_guard(pilot)
        await pilot.press("y")  # whatever is on screen now, it answers nothing
        await pilot.pause(0.2)
        _assert_nothing_ran(h)
        # A late answer for the cancelled request is dropped by the transport.
        assert await connection.answer_permission(builders.allow(rid, {"command": "ls"})) is False
        assert permission_answers(h.log) == []


async def test_late_answer_after_the_cli_exits_is_not_sent(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    async with h.app.run_test(size=SIZE) as pilot:
        dialog = await h.ask(pilot)
        rid = h.request_id()
        connection = chat(h.app).session.connection
        client = connection.client
        assert isinstance(client, ClaudeClient)
        pid = client_pid(h.app)
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        await wait_for(pilot, lambda: h.app.screen is not dialog, 10, "the dialog to close when the CLI died")
        assert client.exited is not None
        assert await client.answer_permission(builders.allow(rid, {"command": "ls"})) is False
        assert await connection.answer_permission(builders.allow(rid, {})) is False
        await _past_guard(pilot)
        await pilot.press("y")
        _assert_nothing_ran(h)


# claude_tui/ui/dialogs/base.py: `cancel()` dismisses the dialog, and a ScreenResume
# the dialog receives afterwards makes `on_screen_resume` (settled + cancel_reason) call
# `dismiss(None)` AGAIN, which pops the ChatScreen: the app is left on a blank screen.
# Seen in ~1 of 5 attempts when the CLI dies with a dialog open. Reported; fix: remember that
# cancel() already dismissed (or check `self.app.screen is self`) before dismissing on resume.
@pytest.mark.parametrize("how", ["cli-killed", "request-cancelled"])
async def test_closing_a_dialog_from_the_cli_side_keeps_the_chat_screen(tmp_path: Path, how: str) -> None:
    h = Harness(tmp_path)
    async with h.app.run_test(size=SIZE) as pilot:
        for attempt in range(3):
            if attempt:
                await pilot.press("f5")
                await wait_ready(pilot, h.app)
            turns = chat(h.app).session.conversation.status.turns
            await submit(pilot, h.app, f"run it {attempt} kw:bash")
            await wait_for(pilot, lambda: isinstance(h.app.screen, PermissionScreen), 10, "the dialog")
            dialog = h.app.screen
            if how == "cli-killed":
                os.kill(client_pid(h.app) or 0, signal.SIGKILL)
            else:
                await chat(h.app).session.connection.request(builders.interrupt(), timeout=10)
            await wait_for(pilot, lambda: h.app.screen is not dialog, 10, "the dialog to close")
            await pilot.pause(0.2)
            assert h.app.chat is not None and h.app.screen is h.app.chat_screen, f"attempt {attempt}: {h.app.screen_stack}"
            if how == "request-cancelled":
                await wait_turn_end(pilot, h.app, turns + 1)
        _assert_nothing_ran(h)


async def test_answer_to_an_unknown_or_already_answered_request_is_dropped(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    async with h.app.run_test(size=SIZE) as pilot:
        await h.ask(pilot)
        rid = h.request_id()
        connection = chat(h.app).session.connection
        assert await connection.answer_permission(builders.allow("not-a-request", {})) is False
        await pilot.press("tab")
        await _past_guard(pilot)
        await pilot.press("y")
        await wait_turn_end(pilot, h.app, 1)
        assert await connection.answer_permission(builders.allow(rid, {"command": "rm -rf /"})) is False
        assert len(permission_answers(h.log)) == 1


