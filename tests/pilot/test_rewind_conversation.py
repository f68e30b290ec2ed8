"""Rewind the conversation (Esc Esc, /rewind, select mode r, the palette) against the fake CLI."""

from __future__ import annotations

from pathlib import Path

from claude_tui.session.items import TextItem, UserItem
from claude_tui.transport.options import build_argv
from claude_tui.ui.chat.double_press import DoublePress
from claude_tui.ui.dialogs.rewind_conversation import RewindChoiceScreen, RewindListScreen
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


async def _three_turns(pilot) -> list[UserItem]:  # type: ignore[no-untyped-def]
    app = pilot.app
    for n, word in enumerate(("one", "two", "three"), 1):
        await send(pilot, f"kw:plain {word}")
        await wait_for(pilot, lambda n=n: idle(app) and chat(app).session.conversation.status.turns >= n,
                       what=f"turn {n}")
    prompts = [i for i in chat(app).session.conversation.items if isinstance(i, UserItem)]
    await wait_for(pilot, lambda: all(p.uuid for p in prompts), what="the echoes")
    return prompts


async def _restarted(pilot, old) -> None:  # type: ignore[no-untyped-def]
    session = chat(pilot.app).session
    await wait_for(pilot, lambda: session.connection is not old and session.alive
                   and session.conversation.commands, what="the CLI restarted")


async def test_esc_esc_up_enter_2_goes_back_to_before_prompt_two(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        one, two, three = await _three_turns(pilot)
        view = chat(app)
        session = view.session
        assert one.resume_at is None and two.resume_at and three.resume_at and two.resume_at != three.resume_at
        old = session.connection
        await pilot.press("escape", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindListScreen), what="the list")
        assert app.screen.query_one("#rewind-prompts").highlighted == 2  # type: ignore[attr-defined]
        await pilot.press("up", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindChoiceScreen), what="the choice")
        await pilot.press("2")
        await _restarted(pilot, old)
        await wait_for(pilot, lambda: view.prompt_area.composer.prompt.text == "kw:plain two", what="the prompt's text back")
        texts = [i.text for i in session.conversation.items if isinstance(i, (UserItem, TextItem))]
        assert "kw:plain one" in texts and "kw:plain two" not in texts and "kw:plain three" not in texts
        argv = build_argv(session.connection.options, ["claude"])
        at = argv.index("--resume-session-at")
        assert argv[at + 1] == two.resume_at and argv[argv.index("--resume") + 1] == session.conversation.status.session_id
        # The next prompt starts the new branch: a later restart resumes plainly.
        await send(pilot, "kw:plain again")
        await wait_for(pilot, lambda: session.options.resume_session_at is None, what="the point used up")


async def test_esc_then_a_late_esc_opens_nothing(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    now = [100.0]
    monkeypatch.setattr(DoublePress, "clock", staticmethod(lambda: now[0]))
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await _three_turns(pilot)
        await pilot.press("escape")
        now[0] += 0.9  # past Claude Code's 0.8 s
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, RewindListScreen)
        now[0] += 0.5
        await pilot.press("escape")  # the pair is this one and the last
        await wait_for(pilot, lambda: isinstance(app.screen, RewindListScreen), what="the list")


async def test_esc_esc_on_a_draft_opens_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await _three_turns(pilot)
        chat(app).prompt_area.composer.prompt.text = "a draft"
        await pilot.press("escape", "escape")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, RewindListScreen)
        assert chat(app).prompt_area.composer.prompt.text == "a draft"


async def test_rewind_to_the_first_prompt_starts_a_new_session(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await _three_turns(pilot)
        session = chat(app).session
        first_id, old = session.conversation.status.session_id, session.connection
        await send(pilot, "/rewind")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindListScreen), what="the list")
        await pilot.press("up", "up", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindChoiceScreen), what="the choice")
        await pilot.press("2")
        await _restarted(pilot, old)
        assert "--resume" not in build_argv(session.connection.options, ["claude"])
        assert not [i for i in session.conversation.items if isinstance(i, UserItem)]
        assert chat(app).prompt_area.composer.prompt.text == "kw:plain one"
        await pilot.press("enter")  # sent again: the CLI names its new session when the turn starts
        await wait_for(pilot, lambda: session.conversation.status.session_id not in ("", first_id), what="a new id")


async def test_esc_on_the_choice_goes_back_to_the_list_and_esc_there_closes(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await _three_turns(pilot)
        old = chat(app).session.connection
        await pilot.press("escape", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindListScreen), what="the list")
        await pilot.press("up", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindChoiceScreen), what="the choice")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindListScreen), what="the list again")
        assert app.screen.query_one("#rewind-prompts").highlighted == 1  # type: ignore[attr-defined]
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, (RewindListScreen, RewindChoiceScreen)), what="closed")
        assert chat(app).session.connection is old and len(
            [i for i in chat(app).session.conversation.items if isinstance(i, UserItem)]) == 3


async def test_the_esc_that_interrupts_a_turn_starts_no_pair(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(DoublePress, "clock", staticmethod(lambda: 100.0))  # every two presses are "quick"
    app = make_app(tmp_path, env={"FAKE_CLAUDE_DELAY_MS": "20"})
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "kw:plain first")
        await wait_for(pilot, lambda: idle(app), what="the first turn")
        await pilot.press("escape")  # a stray Esc while idle: the first of a pair
        await send(pilot, "kw:slow story")
        session = chat(app).session
        await wait_for(pilot, lambda: any(isinstance(i, TextItem) for i in session.conversation.items), what="answer")
        await pilot.press("escape")  # interrupts, and ends the pair the stray Esc began
        await wait_for(pilot, lambda: idle(app) and session.conversation.status.turns >= 2,
                       what="the interrupted turn's end")
        await pilot.press("escape")  # the first of a pair, not the second
        await pilot.pause(0.2)
        assert not isinstance(app.screen, RewindListScreen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindListScreen), what="the list")


async def test_a_doubled_enter_restores_nothing_but_a_digit_acts_at_once(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from claude_tui.ui.dialogs.base import GuardedModal

    monkeypatch.setattr(GuardedModal, "clock", staticmethod(lambda: 100.0))  # the guard never falls
    app = make_app(tmp_path, guard_ms=400)
    async with app.run_test(size=(100, 30)) as pilot:
        await _three_turns(pilot)
        session = chat(app).session
        old = session.connection
        await pilot.press("escape", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindListScreen), what="the list")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RewindChoiceScreen), what="the choice")
        await pilot.press("enter")  # meant for the list: swallowed by the guard
        await pilot.pause(0.2)
        assert isinstance(app.screen, RewindChoiceScreen) and session.connection is old
        await pilot.press("2")
        await _restarted(pilot, old)
        assert chat(app).prompt_area.composer.prompt.text == "kw:plain three"
