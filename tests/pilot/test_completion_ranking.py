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
