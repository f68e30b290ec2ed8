"""Claude Code's keys mean here what they mean in Claude Code (the README's key map)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from claude_tui.external_editor import edit_text, editor_command
from claude_tui.session.items import UserItem
from claude_tui.ui.log.items import ThinkingBlock
from claude_tui.ui.log.tool_card import ToolCard
from claude_tui.ui.panels.composer import PromptInput
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


def _prompt(app) -> PromptInput:  # type: ignore[no-untyped-def]
    return chat(app).query_one(PromptInput)


async def _ready(pilot) -> None:  # type: ignore[no-untyped-def]
    view = chat(pilot.app)
    await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands, what="ready")


async def test_ctrl_r_searches_the_prompt_history_as_a_shell_does(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        view = chat(app)
        for sent in ("git status", "fix the login bug", "run tests", "fix the login bug", "fix typo in README"):
            view.session.history.add(sent)
        prompt = _prompt(app)
        prompt.focus()
        await pilot.press(*"draft")
        sent_before = sum(isinstance(i, UserItem) for i in view.session.conversation.items)
        # Ctrl+R, type to filter: the newest match shows in the prompt.
        await pilot.press("ctrl+r", *"fix")
        await wait_for(pilot, lambda: prompt.text == "fix typo in README", what="the newest match")
        # Ctrl+R again: older; a prompt sent twice is one match.
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: prompt.text == "fix the login bug", what="the older match")
        await pilot.press("ctrl+r")
        await pilot.pause(0.1)
        assert prompt.text == "fix the login bug"  # nothing older: the match stays
        # Enter takes the match into the prompt to edit; nothing is sent.
        await pilot.press("enter")
        await wait_for(pilot, lambda: not view.prompt_area.history_search.display, what="the search closed")
        assert app.focused is prompt and prompt.text == "fix the login bug"
        assert sum(isinstance(i, UserItem) for i in view.session.conversation.items) == sent_before
        await pilot.press("!")
        assert prompt.text == "fix the login bug!"  # the cursor at its end
        # Esc cancels: the draft comes back as it was.
        prompt.text = "my draft"
        await pilot.press("ctrl+r", *"run")
        await wait_for(pilot, lambda: prompt.text == "run tests", what="a match")
        await pilot.press("escape")
        await wait_for(pilot, lambda: prompt.text == "my draft", what="the draft back")
        # So does Ctrl+C, which neither clears nor quits here; no match shows the draft.
        await pilot.press("ctrl+r", *"zzz")
        await wait_for(pilot, lambda: "no match" in view.prompt_area.history_search.query_one("#history-search-state")
                       .render().plain, what="no match")  # type: ignore[attr-defined]
        assert prompt.text == "my draft"
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: not view.prompt_area.history_search.display, what="cancelled")
        assert prompt.text == "my draft" and not app.is_quitting


async def test_ctrl_o_opens_every_tool_card_and_thinking_block_and_closes_them_again(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:think about it")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app) and app.screen.query(ToolCard), what="turn end")
        card = app.screen.query_one(ToolCard)
        block = app.screen.query_one(ThinkingBlock)
        if card.expanded:
            card.toggle()
        assert not card.expanded and not block.expanded
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: card.expanded and block.expanded, what="all open")
        # A card mounted later opens too.
        await send(pilot, "kw:bash again")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: len(app.screen.query(ToolCard)) == 2 and idle(app), what="second card")
        assert all(c.expanded for c in app.screen.query(ToolCard))
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: not block.expanded and not any(c.expanded for c in app.screen.query(ToolCard)),
                       what="all folded")


async def test_ctrl_t_shows_the_task_list_and_ctrl_b_says_why_it_cannot_background(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        sidebar = chat(app).sidebar
        before = sidebar.display
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: sidebar.display != before, what="the task list toggled")
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: any("background" in str(n.message) for n in app._notifications),
                       what="the background notice")
        assert sidebar.display != before  # Ctrl+B no longer toggles the sidebar


async def test_old_keys_move_to_f_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        await pilot.press("f4")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SessionBrowserScreen", what="the browser")
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ChatScreen", what="back")
        await pilot.press("f8")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ChangesScreen", what="what changed")


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "editor.sh"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_the_editor_gets_the_prompt_and_gives_back_what_it_saved(tmp_path: Path) -> None:
    editor = _script(tmp_path, 'printf "edited\\nin two lines\\n" > "$1"\n')
    assert edit_text("first draft", [editor]).text == "edited\nin two lines"


@pytest.mark.parametrize("body, problem", [("exit 3\n", "status 3"), ('kill -9 $$\n', "signal 9"),
                                           ('rm "$1"\n', "could not be read")])
def test_an_editor_that_fails_gives_nothing_back(tmp_path: Path, body: str, problem: str) -> None:
    edited = edit_text("keep me", [_script(tmp_path, 'echo changed > "$1"\n' + body)])
    assert edited.text is None and problem in edited.problem and "as it was" in edited.problem


def test_a_missing_editor_is_a_message(tmp_path: Path) -> None:
    edited = edit_text("keep me", [str(tmp_path / "no-such-editor")])
    assert edited.text is None and "Could not start" in edited.problem


def test_visual_wins_over_editor_and_is_split_as_a_shell_would() -> None:
    assert editor_command({"VISUAL": "code --wait", "EDITOR": "vi"}) == ["code", "--wait"]
    assert editor_command({"EDITOR": "'/opt/my editor/bin/ed' -x"}) == ["/opt/my editor/bin/ed", "-x"]
    assert editor_command({"VISUAL": " ", "EDITOR": ""}) is None


def test_the_temporary_file_is_private_and_removed(tmp_path: Path) -> None:
    seen: list[str] = []

    def run(command: list[str]) -> int:
        seen.append(command[-1])
        assert stat.S_IMODE(os.stat(command[-1]).st_mode) == 0o600
        return 0

    edit_text("secret", ["ed"], run)
    assert seen and not Path(seen[0]).exists()
