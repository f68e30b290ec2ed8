"""The typing fuzzer of tests/pilot/test_typing_never_answers.py against the real CLI (issue 14).

Fewer runs than the pilot tier (12: each is a real turn of the real CLI, in real time): a prompt
that makes the CLI ask (a Bash permission, an AskUserQuestion, a plan; and the quit question on
top of a waiting permission), then generated prose holding every dialog key typed with random
per-key delays and pauses of up to 3 s, begun on the heels of the prompt's Enter, during which the
request arrives when the CLI sends it.
Each run: the request is still unanswered on the wire, the prompt holds exactly what was typed;
then Tab and n answer it deliberately, so the turn ends and the next run starts clean.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from claude_tui.session.items import ToolState
from claude_tui.transport.options import CliOptions
from claude_tui.ui.dialogs.base import GuardedModal
from claude_tui.ui.dialogs.confirm import ConfirmScreen
from tests.e2e.app_driver import drive
from tests.pilot.test_typing_never_answers import KINDS, key_for, prose

RUNS = 12
SEED = 1414
PROMPTS = {"permission": ("kw:bash please", "Bash"), "question": ("kw:ask please", "AskUserQuestion"),
           "plan": ("kw:plan it", "ExitPlanMode"), "quit": ("kw:bash again", "Bash")}

Options = Callable[..., CliOptions]


def can_use_tool_answers(log: Path) -> int:
    """control_responses the app wrote for the CLI's permission requests (the debug log's ">>" lines)."""
    return sum(1 for line in log.read_text(encoding="utf-8").splitlines()
               if line.split(" ", 2)[1:2] == [">>"] and '"behavior"' in line)


async def test_typing_through_real_cli_dialogs_answers_nothing(app_options: Options, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    log = tmp_path / "debug.log"
    kinds: Counter[str] = Counter()
    typed = lost = paused = 0
    async with drive(app_options(), debug_log=log) as d:
        for run in range(RUNS):
            kind = [k for k in KINDS if k in PROMPTS][run % len(PROMPTS)]
            kinds[kind] += 1
            prompt_text, tool_name = PROMPTS[kind]
            answered_before = can_use_tool_answers(log)
            mode = "plan" if kind == "plan" else "default"  # the CLI asks about a plan only in plan mode
            if d.conversation.status.permission_mode != mode:
                d.chat.controls.set_mode(mode)
                await d.wait(lambda mode=mode: d.conversation.status.permission_mode == mode, mode)
            text = prose(rng)
            # The user goes straight on typing after the Enter, so the request arrives while they
            # type (a request that arrives on an idle keyboard over an empty prompt is the one-key
            # case, by design: tests/pilot/test_one_key_answers.py).
            first = () if kind == "quit" else (key_for(text[0]),)
            await d.send(prompt_text, then=first)
            if kind == "quit":  # the quit question arrives on top of the waiting permission
                await d.wait_screen(GuardedModal, move_to=False)
                await d.pilot.press("ctrl+q")
                await d.wait_screen(ConfirmScreen, move_to=False)
            for index, character in enumerate(text):
                if index >= len(first):
                    await d.pilot.press(key_for(character).key)
                typed += 1
                roll = rng.random()
                delay = rng.uniform(0.6, 3.0) if roll < 0.06 else (0 if roll < 0.3 else rng.uniform(0.02, 0.2))
                paused += delay >= 0.6
                await asyncio.sleep(delay)
            dialog = await d.wait_screen(GuardedModal, move_to=False)
            await asyncio.sleep(rng.uniform(0, 1))
            assert dialog.waiting and not dialog.settled, f"run {run} ({kind}): the dialog was answered"
            assert can_use_tool_answers(log) == answered_before, f"run {run} ({kind}): an answer was sent"
            assert d.tools(tool_name)[-1].state is ToolState.WAITING
            if d.prompt.text != text:
                lost += 1
                print(f"run {run}: typed {text!r}, the prompt has {d.prompt.text!r}")
            # Now deliberately: Tab, n (the e2e config has no guard), until the turn ends.
            if kind == "quit":
                await d.press("tab", "n")  # keep working
                dialog = await d.wait_screen(GuardedModal, move_to=False)
            await d.press("tab", "escape" if kind == "question" else "n")
            await d.wait(lambda: d.conversation.status.activity.name == "IDLE", f"run {run}: the turn to end")
            assert can_use_tool_answers(log) == answered_before + 1
            d.prompt.text = ""
    print(f"\n{RUNS} real-CLI runs ({dict(kinds)}), {typed} keys typed, {paused} pauses of 0.6-3 s: "
          f"0 answers sent while typing, {lost} runs lost or reordered characters")
    assert lost == 0


async def test_enter_while_a_dialog_waits_sends_the_draft_and_answers_nothing(app_options: Options,
                                                                              tmp_path: Path) -> None:
    """"hello there⏎" typed 3 s after the dialog opened (issue 14, finding 1): the words go out as
    your next prompt, in full; the dialog is still waiting, unanswered; the deliberate path works."""
    log = tmp_path / "debug.log"
    async with drive(app_options(), debug_log=log) as d:
        await d.send("kw:bash please")
        dialog = await d.wait_screen(GuardedModal, move_to=False)
        await asyncio.sleep(3)
        for character in "hello there":
            await d.pilot.press(key_for(character).key)
        await d.press("enter")
        # Held until the turn ends (editable till then, issue 27), in full.
        await d.wait(lambda: d.chat.prompt_area.queue.texts == ["hello there"], "the prompt held for the turn's end")
        assert app_is(d, dialog) and dialog.waiting and not dialog.settled
        assert can_use_tool_answers(log) == 0 and d.prompt.text == ""
        await d.press("tab", "n")
        await d.wait(lambda: any(getattr(i, "text", None) == "hello there" for i in d.items), "the prompt sent")
        await d.wait_turns(2)
        assert can_use_tool_answers(log) == 1


def app_is(d: object, screen: object) -> bool:
    return getattr(d, "app").screen is screen  # noqa: B009


async def test_editing_keys_fix_the_draft_while_a_real_cli_dialog_waits(app_options: Options, tmp_path: Path) -> None:
    """Arrows and End reach the prompt below a waiting permission dialog; nothing is answered."""
    log = tmp_path / "debug.log"
    async with drive(app_options(), debug_log=log) as d:
        await d.send("kw:bash please")
        dialog = await d.wait_screen(GuardedModal, move_to=False)
        await d.pilot.press("h", "e", "l", "o", "left", "l", "end", "!", "home", "delete", "H")
        await d.wait(lambda: d.prompt.text == "Hello!", f"'Hello!' in the prompt, not {d.prompt.text!r}")
        assert app_is(d, dialog) and dialog.waiting and not dialog.settled
        assert can_use_tool_answers(log) == 0
        assert d.tools("Bash")[-1].state is ToolState.WAITING
        await d.press("tab", "n")
        await d.wait(lambda: d.conversation.status.activity.name == "IDLE", "the turn to end")
        assert can_use_tool_answers(log) == 1 and d.prompt.text == "Hello!"
