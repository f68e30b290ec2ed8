"""A data directory that cannot be created costs the remembered things (history, drafts, theme),
never the app: it starts, sends, toggles and exports as usual."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.session.items import TextItem
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


@pytest.fixture
def unwritable_data_home(monkeypatch: pytest.MonkeyPatch) -> Path:
    blocked = Path("/proc/claude-tui-cannot-exist")  # mkdir under /proc always fails
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    return blocked


async def test_the_app_runs_without_a_data_dir(tmp_path: Path, unwritable_data_home: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:plain hello")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        assert any(isinstance(item, TextItem) for item in chat(app).session.conversation.items)
        app.action_toggle_split_diffs()  # remembered in state.json: silently not saved
        app.theme = "textual-light"
        await pilot.pause()
        assert app.is_running
        assert not unwritable_data_home.exists()


def test_the_demo_says_why_it_cannot_start(unwritable_data_home: Path) -> None:
    """Was: a traceback from creating the demo's project directory."""
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "claude_tui", "--demo"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, env={**os.environ}, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "--demo keeps its project in /proc/claude-tui-cannot-exist" in done.stderr
