"""F1 / ?: the help screen lists bindings and the fake CLI's slash commands, tools and versions."""

from __future__ import annotations

from pathlib import Path

from claude_tui.ui.app.help import HelpScreen
from tests.pilot.helpers import chat, make_app, wait_for


def _shown(app) -> str:
    return app.screen.text()


async def test_help_lists_bindings_and_slash_commands(tmp_path: Path) -> None:
    app = make_app(tmp_path, keymap={"chat.toggle_sidebar": "ctrl+k"})
    async with app.run_test(size=(140, 60)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands, what="ready")
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        help_screen = app.screen
        text = help_screen.text()
        # Bindings come from the BINDINGS themselves, with the user's keymap applied.
        assert "ctrl+q  Quit" in text
        assert "ctrl+k  Tasks" in text and "ctrl+t  Tasks" not in text
        assert "ctrl+f  Find" in text and "ctrl+p  Command palette" in text
        assert "y  Allow once" in text
        assert "⏎  Allow once (the highlighted choice)" in text and "1  Claude Code's numbers" in text
        # Slash commands (with argument hints), agents, tools from the initialize response.
        assert "/compact <optional custom summarization instructions>" in text
        assert "Free up context by summarizing the conversation so far" in text
        assert "/code-review" in text and "(/review)" in text
        assert "Explore" in text
        assert "Claude Code  2.1.330" in text
        # Typing filters.
        await pilot.press(*"compact")
        await pilot.pause(0.1)
        shown = _shown(app)
        assert "/compact" in shown and "Allow once" not in shown
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), what="closed")


async def test_question_mark_on_an_empty_prompt_shows_the_shortcuts_and_typing_goes_on_into_the_prompt(
        tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        prompt = view.query_one("#prompt")
        prompt.focus()
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: view.prompt_area.shortcuts.display, what="the shortcuts")
        assert not isinstance(app.screen, HelpScreen)  # no screen, no filter: the prompt keeps the keys
        assert prompt.text == "" and app.focused is prompt  # type: ignore[attr-defined]
        shown = view.prompt_area.shortcuts.text()
        assert "Search history" in shown and "Transcript" in shown
        # Ctrl+B only says why it cannot background here: its row must not promise it does.
        assert "ctrl+b  Background: not here, says why" in shown
        # Typing on writes into the prompt, and folds the list.
        await pilot.press("f", "i", "x")
        await wait_for(pilot, lambda: not view.prompt_area.shortcuts.display, what="folded by typing")
        assert prompt.text == "fix"  # type: ignore[attr-defined]
        # With text in the prompt, ? is just a character.
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        assert not view.prompt_area.shortcuts.display and prompt.text == "fix?"  # type: ignore[attr-defined]
        # Esc folds it too.
        prompt.text = ""  # type: ignore[attr-defined]
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: view.prompt_area.shortcuts.display, what="the shortcuts again")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not view.prompt_area.shortcuts.display, what="folded by Esc")


async def test_tools_and_versions_after_the_first_turn(tmp_path: Path) -> None:
    from tests.pilot.helpers import idle, send

    app = make_app(tmp_path)
    async with app.run_test(size=(140, 60)) as pilot:
        await send(pilot, "Hello there, kw:plain")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        text = app.screen.text()
        assert "Tools" in text and "Bash" in text and "AskUserQuestion" in text
        assert "Skills" in text and "dataviz" in text
        assert "MCP servers" in text and "no MCP servers configured" in text
        assert "Session  " + chat(app).session.conversation.status.session_id in text


def test_a_long_argument_hint_wraps_between_words() -> None:
    # Defect 9: the key column folded a long hint mid-word ("summariza|tion").
    from rich.console import Console

    from claude_tui.ui.app.help import Section, render_sections

    hint = "/compact <optional custom summarization instructions for the model to follow closely>"
    console = Console(width=90, record=True, color_system=None)
    console.print(render_sections([Section("Slash commands", [(hint, "Free up context")])]))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    for word in hint.split():
        assert any(word in line for line in lines), f"{word!r} was cut: {lines}"
