"""The completion menu ranks candidates once per change of the token, not per key event."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult

from claude_tui.ui.panels import composer as composer_module
from claude_tui.ui.panels.composer import CompletionMenu, Composer
from tests.pilot.helpers import wait_for


class ComposerApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Composer(id="composer")


async def test_files_are_ranked_once_per_token(monkeypatch: pytest.MonkeyPatch) -> None:
    ranked: list[str] = []
    real_rank = composer_module.rank

    def counting_rank(query: str, candidates: Any, limit: int = 30) -> Any:
        ranked.append(query)
        return real_rank(query, candidates, limit=limit)

    monkeypatch.setattr(composer_module, "rank", counting_rank)
    app = ComposerApp()
    async with app.run_test(size=(80, 20)) as pilot:
        composer = app.query_one(Composer)
        menu = app.query_one(CompletionMenu)
        composer.set_files([f"src/module{n}/file{n}.py" for n in range(2000)])
        composer.prompt.focus()
        await pilot.press("@", "f", "i")
        await wait_for(pilot, lambda: menu.display and menu.query_text == "fi", what="the menu for @fi")
        # A key changes the text and moves the cursor (two events): one ranking each.
        assert ranked == ["", "f", "fi"]

        await pilot.press("escape")
        assert not menu.display
        await pilot.press("left", "right")  # the token changes ("f") and back ("fi")
        await wait_for(pilot, lambda: menu.display and menu.query_text == "fi", what="the menu again")
        assert ranked == ["", "f", "fi", "f", "fi"]

        composer.set_files(["src/fine.py"])  # new candidates: ranked again for the same token
        await wait_for(pilot, lambda: len(ranked) == 6, what="ranked again")
        assert ranked[-1] == "fi" and menu.option_count == 1


async def test_an_at_asks_for_the_file_list_with_a_message() -> None:
    """The composer posts `FilesWanted` up (no callback set from outside); the answer is `set_files`."""

    class Asking(App[None]):
        def __init__(self) -> None:
            super().__init__()
            self.wanted = 0

        def compose(self) -> ComposeResult:
            yield Composer(id="composer")

        def on_composer_files_wanted(self, _event: Composer.FilesWanted) -> None:
            self.wanted += 1
            self.query_one(Composer).set_files(["src/app.py", "README.md"])

    app = Asking()
    async with app.run_test(size=(80, 20)) as pilot:
        composer = app.query_one(Composer)
        composer.prompt.focus()
        await pilot.press("@", "a", "p")
        menu = app.query_one(CompletionMenu)
        await wait_for(pilot, lambda: menu.display and menu.query_text == "ap", what="the menu for @ap")
        assert app.wanted == 1  # asked once as the menu opened, not per key
        assert "src/app.py" in str(menu.get_option_at_index(0).prompt)
