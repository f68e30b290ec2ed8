"""Regenerate the README's screenshots (SVG) from recorded states.

    python screenshots/make.py

Each picture is the real app fed real recordings from tests/fixtures (the same
path live messages take), at a fixed size with animation off.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from claude_tui.config import Config  # noqa: E402
from claude_tui.protocol import decode_line  # noqa: E402
from claude_tui.session.status import Activity  # noqa: E402
from claude_tui.transport.options import CliOptions  # noqa: E402
from claude_tui.ui.app.app import ClaudeTuiApp  # noqa: E402
from tests.snapshot.chat_states import INERT_CLI, recorded  # noqa: E402

OUT = ROOT / "screenshots"
PROJECT = Path(tempfile.gettempdir()) / "claude-tui-screens" / "project"
RECORDED = "/home/user/project"


def project() -> Path:
    shutil.rmtree(PROJECT, ignore_errors=True)
    PROJECT.mkdir(parents=True)
    (PROJECT / "a.txt").write_text("alpha\nbeta\ngamma\n")
    return PROJECT


async def shoot(name: str, feeds: list[tuple[str, str, str | None]], size: tuple[int, int] = (140, 42),
                keys: tuple[str, ...] = (), theme: str = "textual-dark") -> None:
    """feeds: (prompt, recording, stop after the first line containing this text or None for all)."""
    cwd = project()
    app = ClaudeTuiApp(CliOptions(cwd=str(cwd), command=INERT_CLI), Config(theme=theme, typeahead_guard_ms=0))
    app.animation_level = "none"
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.3)
        screen = app.chat
        assert screen is not None
        screen.session.conversation.status.activity = Activity.IDLE
        await feed(pilot, screen, feeds, cwd)
        await pilot.pause(0.8)  # previews are computed in a worker
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.2)
        app.save_screenshot(str(OUT / f"{name}.svg"))
    print("wrote", OUT / f"{name}.svg")


async def feed(pilot: Any, view: Any, feeds: list[tuple[str, str, str | None]], cwd: Path) -> None:
    """Play each recording into `view` (a tab) the way its CLI's messages arrive."""
    for prompt, scenario, stop in feeds:
        if prompt:
            await view.show_changes(view.session.prompt_sent(prompt))
        for line in recorded(scenario):
            message = decode_line(line.replace(RECORDED, str(cwd)))
            kind = type(message).__name__
            # Finished turns are shown without their (answered) dialogs.
            if kind == "ControlResponse" or (stop is None and kind in ("ControlRequest", "ControlCancelRequest")):
                continue
            await view.show_changes(view.session.apply([message]))
            if stop and stop in line:
                break
        await pilot.pause(0.2)


async def tabs() -> None:
    """Four tabs: the one in view idle, one streaming, one whose Bash call waits for you (marked),
    one still starting; then the overview (Alt+O) over them."""
    from claude_tui.ui.chat.session import fresh_options

    cwd = project()
    app = ClaudeTuiApp(CliOptions(cwd=str(cwd), command=INERT_CLI), Config(typeahead_guard_ms=0))
    app.animation_level = "none"
    async with app.run_test(size=(140, 42)) as pilot:
        await pilot.pause(0.3)
        first = app.chat
        assert first is not None
        first.session.conversation.status.activity = Activity.IDLE
        await feed(pilot, first, [("kw:think what is the answer?", "thinking", None),
                                  ("kw:edit the file", "edit-allow", None)], cwd)
        first.session.name = "refactor the parser"
        plans = [("tests", [("kw:bash run the tests", "bash-allow", '"can_use_tool"')]),
                 ("release notes", [("kw:longstream write the notes", "long-stream", "token163 ")]),
                 ("", [])]
        opened = []
        for name, _ in plans:
            await app.open_session(fresh_options(app.options), new_tab=True)
            view = app.chat
            assert view is not None
            view.session.name = name
            opened.append(view)
        screen = app.chat_screen
        assert screen is not None
        screen.activate(first)
        # The others work in the background: the Bash call's dialog waits in its tab, which is marked.
        for view, (_, feeds) in zip(opened, plans):
            if feeds:
                view.session.conversation.status.activity = Activity.IDLE
                await feed(pilot, view, feeds, cwd)
        await pilot.pause(1.0)
        app.save_screenshot(str(OUT / "tabs.svg"))
        print("wrote", OUT / "tabs.svg")
        await pilot.press("alt+o")
        await pilot.pause(0.5)
        app.save_screenshot(str(OUT / "overview.svg"))
        print("wrote", OUT / "overview.svg")


async def browser() -> None:
    from claude_tui.ui.browser.screen import SessionBrowserScreen

    root = Path(tempfile.mkdtemp())
    shutil.copytree(ROOT / "tests/fixtures/claude-code-2.1.330/sessions", root / "projects")

    app = ClaudeTuiApp(CliOptions(cwd="/", command=INERT_CLI), Config())
    async with app.run_test(size=(140, 36)) as pilot:
        await pilot.pause(0.3)
        await app.push_screen(SessionBrowserScreen(Path(RECORDED), config_root=root, index_path=root / "index.sqlite",
                                                   now=lambda: 1795308900.0, poll_seconds=None))
        await pilot.pause(1.5)
        app.save_screenshot(str(OUT / "sessions.svg"))
    print("wrote", OUT / "sessions.svg")


async def manage() -> None:
    """The /mcp and /context screens and an MCP form, on the real CLI's recorded answers."""
    from claude_tui.ui.manage.context import ContextScreen
    from claude_tui.ui.manage.elicitation import ElicitationScreen
    from claude_tui.ui.manage.mcp import McpScreen
    from tests.manage_answers import FakeAsker, ScreenHost, recorded
    from tests.pilot.test_dialogs import DialogHost
    from tests.pilot.test_manage_elicitation import form_request

    status = recorded("mcp_status", -1)["response"]
    status["mcpServers"].append({"name": "cloud", "status": "needs-auth",
                                 "config": {"type": "http", "url": "https://mcp.example/mcp"}})
    shots: list[tuple[str, Any]] = [
        ("mcp", ScreenHost(McpScreen(FakeAsker({"mcp_status": status})))),
        ("context", ScreenHost(ContextScreen(FakeAsker(
            {"get_context_usage": recorded("get_context_usage", -1)["response"]})))),
        ("elicitation", DialogHost(ElicitationScreen(form_request(), guard_ms=0, bell=False, desktop=False))),
    ]
    for name, app in shots:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause(1.0)
            app.save_screenshot(str(OUT / f"{name}.svg"))
        print("wrote", OUT / f"{name}.svg")


async def main() -> None:
    await shoot("chat", [("kw:think what is the answer?", "thinking", None),
                         ("kw:bash please", "bash-allow", None),
                         ("kw:edit the file", "edit-allow", None)])
    await shoot("permission", [("kw:edit the file", "edit-allow", '"can_use_tool"')])
    await shoot("question", [("kw:multiq please", "ask-multi", '"can_use_tool"')])
    await shoot("sidebar", [("kw:tasks do the work", "tasks", None), ("kw:agent go", "subagent", None)])
    await browser()
    await tabs()
    await manage()


if __name__ == "__main__":
    asyncio.run(main())
