"""The palette's "New tab on a host…": a `hosts` name or user@host, and a directory there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input, Static

from claude_tui.config import HostEntry
from claude_tui.transport.options import CliOptions
from claude_tui.ui.dialogs.tab_prompts import TabHostScreen
from tests.pilot.helpers import chat, make_app, wait_for


async def open_dialog(pilot: Any, app: Any) -> TabHostScreen:
    await wait_for(pilot, lambda: chat(app).session.alive, what="the CLI")
    app.action_new_tab_on_host()
    await wait_for(pilot, lambda: isinstance(app.screen, TabHostScreen), what="the host dialog")
    return app.screen  # type: ignore[no-any-return]


async def test_a_named_host_opens_a_new_tab_there_and_bad_text_is_told(tmp_path: Path) -> None:
    app = make_app(tmp_path, hosts=[HostEntry(name="devbox", destination="me@devbox.example", cwd="/srv/app")])
    opened: list[tuple[CliOptions, bool]] = []

    async def open_session(options: CliOptions, conversation: Any = None, *, new_tab: bool = False) -> None:
        opened.append((options, new_tab))  # not dialled: the tab's connection is ssh's business

    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_dialog(pilot, app)
        app.open_session = open_session  # type: ignore[method-assign]
        await pilot.press(*"-oProxyCommand=x", "enter")
        problem = screen.query_one("#tab-host-problem", Static)
        await wait_for(pilot, lambda: str(problem.render()).strip(), what="the problem told")
        assert app.screen is screen and not opened
        host = screen.query_one("#tab-host", Input)
        host.value = ""
        await pilot.press(*"devbox", "enter")
        await wait_for(pilot, lambda: opened, what="a session opened")
        options, new_tab = opened[0]
        assert new_tab and options.ssh is not None and options.ssh.dest == "me@devbox.example"
        assert options.cwd == "/srv/app", "the entry's directory when none is typed"
        assert options.command is None and options.resume is None
        await app.shutdown()


async def test_a_typed_directory_wins_and_escape_opens_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    opened: list[CliOptions] = []

    async def open_session(options: CliOptions, conversation: Any = None, *, new_tab: bool = False) -> None:
        opened.append(options)

    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_dialog(pilot, app)
        app.open_session = open_session  # type: ignore[method-assign]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not screen, what="closed")
        assert not opened
        screen = await open_dialog(pilot, app)
        await pilot.press(*"ops@build-box", "tab", *"~/src/x", "enter")
        await wait_for(pilot, lambda: opened, what="a session opened")
        assert opened[0].ssh is not None and opened[0].ssh.dest == "ops@build-box" and opened[0].cwd == "~/src/x"
        await app.shutdown()
