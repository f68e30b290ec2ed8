"""The one-field prompt every "type a name" asks through (`ui/dialogs/text_prompt.py`)."""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from claude_tui.ui.dialogs.tab_prompts import tab_directory_prompt, tab_name_prompt, typed_directory
from claude_tui.ui.dialogs.text_prompt import TextPrompt
from claude_tui.ui.dialogs.worktree_name import worktree_name_prompt
from claude_tui.ui.kit.safe_input import SafeInput


class Asker(App[None]):
    def __init__(self, prompt: TextPrompt) -> None:
        super().__init__()
        self.prompt = prompt
        self.answers: list[str | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.prompt, self.answers.append)


def _no_x(text: str) -> str:
    return "no x, please" if "x" in text else ""


async def test_enter_gives_the_text_unless_the_check_names_a_problem() -> None:
    app = Asker(TextPrompt("Name it", value="", check=_no_x))
    async with app.run_test() as pilot:
        await pilot.press(*"box", "enter")
        assert app.screen is app.prompt and app.prompt.problem == "no x, please" and not app.answers
        await pilot.press("backspace")  # checked as you type once refused: the line clears
        assert app.prompt.problem == ""
        await pilot.press("space", "enter")
        assert app.answers == ["bo"]  # stripped


async def test_a_problem_is_not_shown_before_enter_and_esc_gives_none() -> None:
    app = Asker(TextPrompt("Name it", check=_no_x))
    async with app.run_test() as pilot:
        await pilot.press(*"xx")
        assert app.prompt.problem == ""  # no complaint while you are still typing
        await pilot.press("escape")
        assert app.answers == [None]


async def test_the_field_holds_no_control_character() -> None:
    app = Asker(TextPrompt("Name it", value="a\x1b[31mb"))
    async with app.run_test():
        value = app.prompt.query_one(SafeInput).value
        assert "\x1b" not in value and "␛" in value


async def test_each_prompt_checks_its_own_rule(tmp_path: Path) -> None:
    (tmp_path / "there").mkdir()
    directory = tab_directory_prompt(tmp_path)
    assert directory.check("missing").startswith("Not a directory: ") and directory.check("") == "Type a directory."
    assert directory.check("there") == "" and typed_directory(" there ", tmp_path) == (tmp_path / "there").resolve()
    assert worktree_name_prompt().check("") == ""  # empty: a generated name
    assert "git does not allow it" in worktree_name_prompt().check("bad..name")
    app = Asker(tab_name_prompt("mine"))
    async with app.run_test() as pilot:
        await pilot.press("end", *"x" * 50, "enter")
        assert app.answers == ["mine" + "x" * 36]  # a tab's name stops at 40
