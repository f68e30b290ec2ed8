"""One key answers a dialog that appears while the user is not typing (issue 27), and only then.

Not typing: the prompt is empty, no key came for ``QUIET_MS`` before the dialog appeared, and the
key comes ``REACT_MS`` after it (see `claude_tui.ui.dialogs.base`). Everything else waits for Tab,
as tests/pilot/test_typing_never_answers.py (the fuzzer) holds for typing of every kind. Time is
virtual (`GuardedModal.clock`, which the app's record of the last key reads too).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import TextArea

from claude_tui.ui.dialogs import guard
from claude_tui.ui.dialogs.base import GuardedModal
from tests.pilot.helpers import chat, make_app, wait_for
from tests.pilot.test_dialogs import request_from
from tests.pilot.test_typing_never_answers import VirtualClock

QUIET = guard.QUIET_MS / 1000
REACT = guard.REACT_MS / 1000


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> VirtualClock:
    fake = VirtualClock()
    monkeypatch.setattr(GuardedModal, "clock", fake)
    return fake


class Run:
    def __init__(self, app: Any, pilot: Any, clock: VirtualClock) -> None:
        self.app, self.pilot, self.clock = app, pilot, clock
        self.screen = chat(app)
        self.prompt = self.screen.query_one("#prompt", TextArea)
        self.sent: list[dict[str, Any]] = []

        async def answer_permission(payload: dict[str, Any]) -> bool:
            self.sent.append(payload["response"]["response"])  # the can_use_tool answer itself
            return True

        self.screen.session.connection.answer_permission = answer_permission  # type: ignore[method-assign]

    async def show(self, name: str, tool: str, quiet: float) -> GuardedModal[Any]:
        """The CLI asks ``quiet`` seconds after the last key; returns the dialog once shown and ready
        to read keys (the keys on their way, none here, have arrived)."""
        self.clock.now += quiet
        self.screen.dialogs.asked(request_from(name, tool, request_id=f"{name}-1"))
        dialog = self.screen.dialogs.dialog
        assert dialog is not None
        await wait_for(self.pilot, lambda: self.app.screen is dialog and dialog.is_active, what="the dialog")
        await self.pilot.pause()
        await self.pilot.pause()
        return dialog

    async def press(self, *keys: str, after: float) -> None:
        self.clock.now += after
        await self.pilot.press(*keys)
        await self.pilot.pause()


async def started(tmp_path: Path, pilot: Any, clock: VirtualClock) -> Run:
    app = pilot.app
    screen = chat(app)
    await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="CLI ready")
    return Run(app, pilot, clock)


async def test_one_key_allows_a_bash_command_when_not_typing(tmp_path: Path, clock: VirtualClock) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        dialog = await run.show("bash-allow", "Bash", quiet=QUIET + 0.1)
        assert dialog.ready and dialog.waiting and "Press a key to answer" in str(dialog.query_one(".waiting-notice").render())
        await run.press("y", after=REACT + 0.05)
        await wait_for(pilot, lambda: run.sent, what="the answer")
        assert [p["behavior"] for p in run.sent] == ["allow"]
        assert run.prompt.text == ""  # nothing stray in the prompt


async def test_one_key_right_after_sending_a_prompt(tmp_path: Path, clock: VirtualClock) -> None:
    # The Enter that sent a prompt leaves the user waiting for Claude, not typing: a dialog that comes
    # at once (a fast model) still takes one key, once it has been in view long enough to be read.
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        await pilot.press("enter")  # on the empty prompt: nothing is sent, but it is the last key
        dialog = await run.show("bash-allow", "Bash", quiet=0.05)
        assert dialog.ready
        await run.press("y", after=REACT + 0.05)
        await wait_for(pilot, lambda: run.sent, what="the answer")
        assert [p["behavior"] for p in run.sent] == ["allow"] and run.prompt.text == ""


async def test_one_number_answers_a_single_choice_question(tmp_path: Path, clock: VirtualClock) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        await run.show("ask-single", "AskUserQuestion", quiet=2.0)
        await run.press("2", "enter", after=0.8)  # a Claude Code habit: "2⏎"
        await wait_for(pilot, lambda: run.sent, what="the answer")
        [payload] = run.sent
        assert payload["behavior"] == "allow" and payload["updatedInput"]["answers"] == {"Which color?": "Blue"}
        assert run.prompt.text == ""  # the Enter sent nothing either (an empty prompt)


@pytest.mark.parametrize(
    ("quiet", "draft", "after", "why"),
    [
        (QUIET - 0.05, "", REACT + 0.05, "a key came just before the dialog appeared"),
        (5.0, "fix the", REACT + 0.05, "the dialog appeared over a draft"),
    ],
)
async def test_while_typing_the_key_goes_to_the_prompt(tmp_path: Path, clock: VirtualClock, quiet: float,
                                                      draft: str, after: float, why: str) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        if draft:
            await pilot.press(*draft.replace(" ", "_"))
            run.prompt.text = draft  # the words, whatever the key names
        await pilot.press("end")  # a key: the keyboard's last word, `quiet` before the dialog
        dialog = await run.show("bash-allow", "Bash", quiet=quiet)
        assert not dialog.ready, why
        await run.press("y", after=after)
        await wait_for(pilot, lambda: run.prompt.text == draft + "y", what=f"the y in the prompt ({why})")
        assert app.screen is dialog and dialog.waiting and not dialog.settled and run.sent == []


async def test_only_the_first_key_decides(tmp_path: Path, clock: VirtualClock) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        dialog = await run.show("bash-allow", "Bash", quiet=3.0)
        assert dialog.ready
        await run.press("h", after=1.0)  # a sentence starts: it goes on in the prompt
        await run.press("y", "e", "s", after=1.0)
        await wait_for(pilot, lambda: run.prompt.text == "hyes", what="the sentence in the prompt")
        assert app.screen is dialog and dialog.waiting and not dialog.ready and run.sent == []


async def test_a_key_inside_the_guard_after_tab_is_never_a_stray_letter(tmp_path: Path, clock: VirtualClock) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        run.prompt.text = "draft"
        dialog = await run.show("bash-allow", "Bash", quiet=3.0)
        assert not getattr(dialog, "ready", False)  # over a draft: it waits for Tab
        await run.press("tab", after=1.0)
        await run.press("y", after=0.1)  # inside the guard: swallowed
        await pilot.pause()
        assert run.prompt.text == "draft" and run.sent == [] and not dialog.waiting and dialog.has_class("-armed")
        await run.press("y", after=0.45)
        await wait_for(pilot, lambda: run.sent, what="the answer")
        assert [p["behavior"] for p in run.sent] == ["allow"] and run.prompt.text == "draft"


async def test_a_command_key_is_no_typing_ctrl_q_then_one_key_quits(tmp_path: Path, clock: VirtualClock) -> None:
    # Ctrl+Q during a turn asks "quit?": the key that asked is a command, not prose, so the dialog
    # that follows takes one key (it used to ask for Tab, then y). A text control (ctrl+j) still counts.
    from claude_tui.ui.dialogs.confirm import ConfirmScreen

    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(tmp_path, pilot, clock)
        from claude_tui.session.status import Activity

        chat(app).session.conversation.status.activity = Activity.RESPONDING  # a turn runs: quitting asks first
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the quit question")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        await wait_for(pilot, lambda: dialog.ready, what="ready for one key")
        clock.now += REACT + 0.05
        await pilot.press("y")
        await wait_for(pilot, lambda: app.is_quitting or not app.is_running, what="quitting on one y")
        assert guard.is_command_key("ctrl+q") and guard.is_command_key("f5")
        assert not any(guard.is_command_key(k) for k in ("ctrl+j", "ctrl+i", "ctrl+m", "ctrl+h", "a", "enter", "tab"))


@pytest.mark.parametrize(("keys", "behavior"), [(("1",), "allow"), (("enter",), "allow"), (("2",), "allow")])
async def test_claude_codes_numbers_and_enter_answer_when_not_typing(tmp_path: Path, clock: VirtualClock,
                                                                    keys: tuple[str, ...], behavior: str) -> None:
    # Claude Code's choices: 1 yes (Enter, the highlighted one), 2 yes and don't ask again, 3 no and tell.
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        dialog = await run.show("bash-allow", "Bash", quiet=QUIET + 0.1)
        assert dialog.ready
        await run.press(*keys, after=REACT + 0.05)
        if keys == ("2",):  # three suggestions: the picker, after its own pause, takes 1–3
            await wait_for(pilot, lambda: getattr(dialog, "mode", "") == "always", what="the picker")
            await run.press("1", after=0.45)
        await wait_for(pilot, lambda: run.sent, what="the answer")
        [payload] = run.sent
        assert payload["behavior"] == behavior and run.prompt.text == ""
        assert ("updatedPermissions" in payload) == (keys == ("2",))  # 2: the rule is kept


async def test_three_is_no_and_tell_claude(tmp_path: Path, clock: VirtualClock) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        dialog = await run.show("bash-allow", "Bash", quiet=QUIET + 0.1)
        await run.press("3", after=REACT + 0.05)
        await wait_for(pilot, lambda: getattr(dialog, "mode", "") == "tell", what="the message box")
        await run.press(*"use rg", after=0.1)
        await run.press("enter", after=0.1)
        await wait_for(pilot, lambda: run.sent, what="the answer")
        assert [(p["behavior"], p["message"]) for p in run.sent] == [("deny", "use rg")] and run.prompt.text == ""


@pytest.mark.parametrize("key", ["1", "enter"])
async def test_after_tab_numbers_and_enter_answer_once_the_guard_falls(tmp_path: Path, clock: VirtualClock,
                                                                      key: str) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        run.prompt.text = "draft"
        run.prompt.move_cursor(run.prompt.document.end)
        dialog = await run.show("bash-allow", "Bash", quiet=3.0)
        assert not dialog.ready
        await run.press(key, after=1.0)  # waiting over a draft: typing, into the prompt
        expected = "draft1" if key == "1" else ""
        if key == "enter":  # the Enter sent the draft (the test's fake CLI takes it)
            await wait_for(pilot, lambda: run.prompt.text == "", what="the draft sent")
        assert run.prompt.text == expected and run.sent == []
        await run.press("tab", after=1.0)
        await run.press(key, after=0.1)  # inside the guard: swallowed
        assert run.sent == [] and run.prompt.text == expected
        await run.press(key, after=0.45)
        await wait_for(pilot, lambda: run.sent, what="the answer")
        assert [p["behavior"] for p in run.sent] == ["allow"] and run.prompt.text == expected


async def test_a_lone_key_too_soon_is_no_stray_letter(tmp_path: Path, clock: VirtualClock) -> None:
    # Issue 27: a key pressed faster than anyone reads is no answer, but on an idle keyboard over an
    # empty prompt it is no letter for the prompt either: it is held, and Tab (a move to the dialog,
    # which prose never holds) drops it.
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        dialog = await run.show("bash-allow", "Bash", quiet=5.0)
        await run.press("y", after=REACT - 0.05)
        await pilot.pause()
        assert run.prompt.text == "" and run.sent == [] and dialog.waiting and not dialog.settled
        assert "Too quick" in str(dialog.query_one(".waiting-notice").render())
        await run.press("tab", after=1.0)
        await run.press("y", after=0.45)
        await wait_for(pilot, lambda: run.sent, what="the answer")
        assert [p["behavior"] for p in run.sent] == ["allow"] and run.prompt.text == ""


async def test_a_held_key_counts_as_a_draft_so_the_next_key_never_answers(tmp_path: Path,
                                                                          clock: VirtualClock) -> None:
    # "⏎x", a pause, "y": a sentence begun blind on the heels of the Enter that sent the prompt.
    # Had the x gone to the prompt, the dialog would wait over a draft: held, it must count as one.
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        dialog = await run.show("bash-allow", "Bash", quiet=5.0)
        await run.press("x", after=REACT - 0.05)
        await run.press("y", after=2.0)
        await wait_for(pilot, lambda: run.prompt.text == "xy", what="both keys in the prompt, in order")
        assert app.screen is dialog and dialog.waiting and run.sent == []


async def test_a_too_soon_key_that_starts_a_sentence_goes_first_into_the_prompt(tmp_path: Path,
                                                                               clock: VirtualClock) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        dialog = await run.show("bash-allow", "Bash", quiet=5.0)
        await run.press("y", after=REACT - 0.05)
        await run.press("e", "s", after=0.1)  # typing: the held y was its first letter
        await wait_for(pilot, lambda: run.prompt.text == "yes", what="the word in the prompt")
        await run.press("y", after=QUIET + 0.1)  # the readiness is over: a sentence goes on
        await wait_for(pilot, lambda: run.prompt.text == "yesy", what="the y in the prompt")
        assert app.screen is dialog and dialog.waiting and run.sent == []


async def test_ctrl_l_clears_the_prompt_under_a_waiting_dialog(tmp_path: Path, clock: VirtualClock) -> None:
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        run = await started(tmp_path, pilot, clock)
        run.prompt.text = "draft"
        run.prompt.move_cursor(run.prompt.document.end)
        dialog = await run.show("bash-allow", "Bash", quiet=3.0)
        await run.press("x", after=0.5)
        await wait_for(pilot, lambda: run.prompt.text == "draftx", what="the x in the prompt")
        await run.press("ctrl+l", after=0.1)
        await wait_for(pilot, lambda: run.prompt.text == "", what="the prompt cleared")
        assert app.screen is dialog and dialog.waiting and run.sent == []
        await run.press("up", after=0.5)  # kept in the history, as Ctrl+L does everywhere
        await wait_for(pilot, lambda: run.prompt.text == "draftx", what="the draft back from the history")
