"""Help's close keys do what its title says, and colours built in code follow the theme (no ANSI names)."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.widgets import Input

from claude_tui.ui.app.help import HelpScreen
from claude_tui.ui.dialogs.rewind import RewindScreen
from tests.pilot.helpers import chat, make_app, wait_for


async def _open_help(pilot, app) -> HelpScreen:  # type: ignore[no-untyped-def]
    await pilot.press("f1")
    await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
    return app.screen


async def test_question_mark_closes_help_on_an_empty_filter_and_is_text_after_a_word(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _open_help(pilot, app)
        assert "? too" in str(app.screen.query_one("#help-box").border_title)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), what="? closes an unfiltered help")
        help_screen = await _open_help(pilot, app)
        await pilot.press("q", "u", "question_mark")  # q is text (it used to be a dead "close" binding)
        await pilot.pause(0.1)
        assert app.screen is help_screen
        assert help_screen.query_one("#help-filter", Input).value == "qu?"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), what="Esc closes")


async def test_mcp_states_take_the_themes_colours(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        chat(app).session.conversation.status.mcp_servers = [{"name": "up", "status": "connected"},
                                                     {"name": "down", "status": "failed"},
                                                     {"name": "odd", "status": "weird"}]
        help_screen = await _open_help(pilot, app)
        [mcp] = [s for s in help_screen.sections if s.title == "MCP servers"]
        assert mcp.styles == [app.theme_variables["text-success"], app.theme_variables["text-error"], ""]
        assert not {"green", "red", "yellow"} & set(mcp.styles)


async def test_rewind_counts_take_the_themes_colours() -> None:
    app = App[None]()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(RewindScreen("p", ["/a"], 12, 3, "/", guard_ms=0))
        await pilot.pause(0.1)
        colours = {seg.text: seg.style.color for strip in app.screen._compositor.render_strips()
                   for seg in strip if seg.text in ("12 lines", "3 lines") and seg.style and seg.style.color}
        theme = app.theme_variables
        assert {k: v.triplet.hex.upper() for k, v in colours.items()} == \
            {"12 lines": theme["text-success"].upper(), "3 lines": theme["text-error"].upper()}
        # Defect 9: the counts say what happens to them ("+12 −3 lines undone" read as nonsense).
        note = str(app.screen.query_one("#rewind-note").render())
        assert note.startswith("Takes out the 12 lines Claude added and puts back the 3 lines it removed.")


def test_the_rewind_words_follow_the_counts() -> None:
    from claude_tui.ui.dialogs.rewind import undo_summary

    def words(insertions: int, deletions: int) -> str:
        return "".join(part if isinstance(part, str) else part[0] for part in undo_summary(insertions, deletions))

    assert words(1, 0) == "Takes out the 1 line Claude added."
    assert words(0, 3) == "Puts back the 3 lines Claude removed."
    assert words(0, 0) == "No lines change."
