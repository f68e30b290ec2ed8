"""The wheel ships its styles and demo scenarios, and the installed app starts headless."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

HEADLESS_RUN = textwrap.dedent("""
    import asyncio, sys
    import claude_tui
    assert claude_tui.__file__.startswith(sys.argv[1]), claude_tui.__file__
    from claude_tui.app_args import AppArgs
    from claude_tui.config import Config
    from claude_tui.ui.app.app import ClaudeTuiApp
    from claude_tui.ui.app.launch import build_options

    async def main():
        options = build_options(AppArgs(demo=True), None, [], {"FAKE_CLAUDE_DELAY_MS": "0"}, True, None, None)
        app = ClaudeTuiApp(options, Config())
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.chat
            for _ in range(200):
                if screen.session.conversation.commands:
                    break
                await pilot.pause(0.05)
            screen.query_one("#prompt").text = "kw:plain hello"
            await pilot.press("enter")
            for _ in range(200):
                if screen.session.conversation.status.turns:
                    break
                await pilot.pause(0.05)
            print("TURNS", screen.session.conversation.status.turns)
    asyncio.run(main())
""")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    return next(out.glob("claude_tui-*.whl"))


def test_wheel_contains_styles_and_demo_scenarios(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    # Every screen's .tcss sits beside its module (CSS_PATH) and the theme beside the app: all ship.
    sources = {path.relative_to(ROOT).as_posix() for path in (ROOT / "claude_tui").rglob("*.tcss")}
    assert {"claude_tui/ui/app/app.tcss", "claude_tui/ui/app/help.tcss"} <= sources
    assert sources <= set(names), sources - set(names)
    assert sum(n.startswith("claude_tui/fakecli/scenarios/") for n in names) >= 15
    # the recorded past sessions the demo's session browser shows
    assert sum(n.startswith("claude_tui/fakecli/demo_sessions/") and n.endswith(".jsonl") for n in names) == 5
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_starts_headless(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(target)}
    # Run from an empty directory so the source checkout cannot be imported instead.
    done = subprocess.run([sys.executable, "-c", HEADLESS_RUN, str(target)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "TURNS 1" in done.stdout
