"""No sequence of typing can answer a dialog (issue 14, finding 1), and nothing typed is lost.

A typing fuzzer against the app and the fake CLI: generated prose holding every dialog key
(y a n t s e, digits, Space, "?") typed with random per-key delays and pauses of up to 3 s, while
a dialog of each kind (permission, question, plan, the always-allow picker, rewind, quit) arrives
at a random moment once the typing has begun. Every run must end with the dialog still open and
unanswered, and the prompt holding exactly what was typed, in order.

Time is virtual where it matters: the dialogs' guard reads ``GuardedModal.clock``, which the test
drives, so a 3 s pause costs nothing. Keys are posted the way a terminal delivers them: a burst is
posted at once (queued behind each other, and behind the dialog's arrival), a pause lets the app
catch up.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual import events

from claude_tui.session.permissions import PermissionRequest
from claude_tui.ui.dialogs.base import GuardedModal
from claude_tui.ui.dialogs.confirm import ConfirmScreen
from claude_tui.ui.dialogs.permission import PermissionScreen
from claude_tui.ui.dialogs.rewind import RewindScreen
from tests.pilot.helpers import chat, make_app, wait_for
from tests.pilot.test_dialogs import request_from

SEED = 14
KINDS = ("permission", "question", "plan", "always", "rewind", "quit")
WORDS = ("yes", "yaml", "also", "please", "check", "the", "files", "too", "next", "step", "and", "then",
         "edit", "tests", "say", "no", "not", "now", "any", "a", "1", "2", "3", "42", "9", "y", "n", "e", "t",
         "s", "Yes", "ok?", "stay", "enter", "type")
PUNCTUATION = {" ": "space", "?": "question_mark", ",": "comma", ".": "full_stop"}


class VirtualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def prose(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(3, 9))]
    text = " ".join(words)
    if rng.random() < 0.3:
        text += rng.choice([",", ".", "?"])
    return text


def key_for(character: str) -> events.Key:
    return events.Key(PUNCTUATION.get(character, character), character)


def delays(rng: random.Random, count: int) -> list[float]:
    """Per-key delays: mostly typing speed, some bursts (0), some pauses of up to 3 s."""
    out = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.25:
            out.append(0.0)
        elif roll < 0.85:
            out.append(rng.uniform(0.03, 0.25))
        else:
            out.append(rng.uniform(0.3, 3.0))
    return out


def plan_request(request_id: str) -> PermissionRequest:
    return request_from("plan-exit", "ExitPlanMode", request_id=request_id, plan="## Plan\n\n1. Fix it")


async def show(kind: str, app: Any, pilot: Any, run: int) -> GuardedModal[Any]:
    """Make a dialog of ``kind`` arrive now; returns it (it may not be mounted yet)."""
    screen = chat(app)
    rid = f"fuzz-{run}"
    if kind in ("permission", "question", "plan"):
        request = {"permission": lambda: request_from("bash-allow", "Bash", request_id=rid),
                   "question": lambda: request_from("ask-single", "AskUserQuestion", request_id=rid),
                   "plan": lambda: plan_request(rid)}[kind]()
        screen.dialogs.asked(request)  # as when the CLI's can_use_tool arrives
        return screen.dialogs.dialog  # type: ignore[no-any-return]
    if kind == "always":
        dialog: GuardedModal[Any] = PermissionScreen(request_from("bash-allow", "Bash", request_id=rid))
        await app.push_screen(dialog, lambda result: None)
        await pilot.pause()
        dialog.mode = "always"  # type: ignore[attr-defined]  # the picker: digits and Enter would pick
        return dialog
    elif kind == "rewind":
        dialog = RewindScreen("kw:edit the file", ["/tmp/a.txt"], 1, 1, "/tmp")
    else:
        dialog = ConfirmScreen("A turn is still running. Quit and stop it?", yes="Quit", no="Keep working")
    app.push_screen(dialog, lambda result: None)
    return dialog


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> VirtualClock:
    fake = VirtualClock()
    monkeypatch.setattr(GuardedModal, "clock", fake)
    return fake


@pytest.mark.parametrize("runs", [24, pytest.param(200, marks=pytest.mark.slow)])
async def test_no_typing_answers_any_dialog_and_no_key_is_lost(runs: int, tmp_path: Path, clock: VirtualClock,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """24 runs in the default tiers; the 200-run proof with ``-m slow`` (about 4 minutes on a busy machine)."""
    rng = random.Random(SEED)
    answers: list[object] = []
    real_finish = GuardedModal.finish

    def finish(self: GuardedModal[Any], result: Any) -> None:
        answers.append(result)
        real_finish(self, result)

    monkeypatch.setattr(GuardedModal, "finish", finish)
    app = make_app(tmp_path, guard_ms=400)
    kinds: Counter[str] = Counter()
    typed_keys = lost = reordered = paused = 0
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="CLI ready")
        sent: list[dict[str, Any]] = []

        async def answer_permission(payload: dict[str, Any]) -> bool:
            sent.append(payload)
            return False

        screen.session.connection.answer_permission = answer_permission  # type: ignore[method-assign]
        prompt = screen.query_one("#prompt")
        for run in range(runs):
            text = prose(rng)
            kind = KINDS[run % len(KINDS)]
            kinds[kind] += 1
            # After the first key .. after the last: the user is typing. (A dialog that appears on an idle
            # keyboard over an empty prompt is the one case where one key answers, by design:
            # tests/pilot/test_one_key_answers.py.)
            arrives = rng.randint(1, len(text))
            dialog = None
            for index, (character, delay) in enumerate(zip(text, delays(rng, len(text)), strict=True)):
                if index == arrives:
                    dialog = await show(kind, app, pilot, run)
                app.post_message(key_for(character))
                typed_keys += 1
                clock.now += delay
                if delay >= 0.3 or (delay > 0 and rng.random() < 0.2):
                    await pilot.pause()  # the app catches up while the typist pauses
                    paused += delay >= 0.3
            if dialog is None:
                dialog = await show(kind, app, pilot, run)
            await wait_for(pilot, lambda: len(prompt.text) >= len(text) and app.screen is dialog,  # type: ignore[attr-defined]
                           what=f"run {run}: the keys and the {kind} dialog")
            clock.now += rng.uniform(0, 3)  # a last pause, with the dialog up: still nothing
            await pilot.pause()
            draft = prompt.text  # type: ignore[attr-defined]
            if draft != text:
                if sorted(draft) == sorted(text):
                    reordered += 1
                else:
                    lost += 1
                print(f"run {run} ({kind}, dialog at {arrives}): typed {text!r}, prompt has {draft!r}")
            assert app.screen is dialog and not dialog.settled and dialog.waiting, f"run {run}: {kind} answered"
            # Close it the way the app would (the CLI withdraws a request; a modal is dismissed).
            if kind in ("permission", "question", "plan"):
                screen.dialogs.closed(f"fuzz-{run}", "cancelled")
            else:
                app.pop_screen()
            await wait_for(pilot, lambda: app.screen is app.chat_screen, what=f"run {run}: the dialog closed")
            prompt.text = ""  # type: ignore[attr-defined]
        print(f"\n{runs} runs ({dict(kinds)}), {typed_keys} keys typed, {paused} pauses of 0.3-3 s: "
              f"{len(answers)} answers, {len(sent)} sent to the CLI, {lost} runs lost characters, "
              f"{reordered} reordered")
    assert answers == [] and sent == []
    assert lost == 0 and reordered == 0
