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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from claude_tui.config import Config  # noqa: E402
from claude_tui.protocol import decode_line  # noqa: E402
from claude_tui.session.status import Activity  # noqa: E402
from claude_tui.transport.options import CliOptions  # noqa: E402
from claude_tui.ui.app import ClaudeTuiApp  # noqa: E402
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
        screen.conversation.status.activity = Activity.IDLE
        for prompt, scenario, stop in feeds:
            if prompt:
                await screen.show_changes(screen.conversation.add_user_prompt(prompt))
            for line in recorded(scenario):
                message = decode_line(line.replace(RECORDED, str(cwd)))
                kind = type(message).__name__
                # Finished turns are shown without their (answered) dialogs.
                if kind == "ControlResponse" or (stop is None and kind in ("ControlRequest", "ControlCancelRequest")):
                    continue
                await screen.show_changes(screen.conversation.apply(message))
                if stop and stop in line:
                    break
            await pilot.pause(0.2)
        await pilot.pause(0.8)  # previews are computed in a worker
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.2)
        app.save_screenshot(str(OUT / f"{name}.svg"))
    print("wrote", OUT / f"{name}.svg")


async def browser() -> None:
    from claude_tui.ui.screens.session_browser import SessionBrowserScreen

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


async def main() -> None:
    await shoot("chat", [("kw:think what is the answer?", "thinking", None),
                         ("kw:bash please", "bash-allow", None),
                         ("kw:edit the file", "edit-allow", None)])
    await shoot("permission", [("kw:edit the file", "edit-allow", '"can_use_tool"')])
    await shoot("question", [("kw:multiq please", "ask-multi", '"can_use_tool"')])
    await shoot("sidebar", [("kw:tasks do the work", "tasks", None), ("kw:agent go", "subagent", None)])
    await browser()


if __name__ == "__main__":
    asyncio.run(main())
