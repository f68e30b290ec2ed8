"""The usage screen: opens at once and fills in, regroups by key, shows names inert; /usage opens it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import DataTable, Static

from claude_tui.ui.usage import UsageScreen
from claude_tui.ui.usage.charts import DayChart, ModelSparks
from tests.pilot.helpers import chat, make_app, wait_for

SONNET = "claude-sonnet-4-5-20250929"
USAGE = {"input_tokens": 1200, "output_tokens": 42, "cache_read_input_tokens": 30000,
         "cache_creation_input_tokens": 500}
HOSTILE = "[bold red]claude-x[/]\x1b]0;pwned\x07"


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def record(sid: str, n: int, model: str, day: int) -> dict[str, Any]:
    return {"type": "assistant", "uuid": f"u{n}", "sessionId": sid, "requestId": f"req_{n}", "isSidechain": False,
            "timestamp": f"2026-11-{day:02d}T12:00:00.000Z", "cwd": "/work/alpha",
            "message": {"id": f"msg_{n}", "model": model, "role": "assistant", "content": [], "usage": USAGE}}


def build_tree(root: Path) -> Path:
    """Two sessions over four days, two models (one with a hostile name)."""
    sessions = {"11111111-1111-1111-1111-111111111111": [(SONNET, 20), (SONNET, 21), (HOSTILE, 23)],
                "22222222-2222-2222-2222-222222222222": [(SONNET, 23), (SONNET, 23), (HOSTILE, 24)]}
    n = 0
    for sid, calls in sessions.items():
        path = root / "projects" / "-work-alpha" / f"{sid}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [{"type": "user", "uuid": f"p{sid}", "sessionId": sid, "cwd": "/work/alpha",
                  "timestamp": "2026-11-20T11:00:00.000Z", "message": {"role": "user", "content": "hello"}}]
        for model, day in calls:
            n += 1
            lines.append(record(sid, n, model, day))
        path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
    return root


class UsageApp(App[None]):
    def __init__(self, tmp_path: Path) -> None:
        super().__init__()
        self.usage = UsageScreen(config_root=build_tree(tmp_path / "claude"), index_path=tmp_path / "index.sqlite",
                                 live_session_id="22222222-2222-2222-2222-222222222222")
        self.result: list[str | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.usage, self.result.append)


def table_keys(screen: UsageScreen) -> list[str]:
    table = screen.query_one("#usage-table", DataTable)
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


async def test_the_screen_fills_in_and_regroups(tmp_path: Path) -> None:
    app = UsageApp(tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = app.usage
        await wait_for(pilot, lambda: screen.report is not None, what="the report")
        await pilot.pause()
        assert table_keys(screen) == ["2026-11-24", "2026-11-23", "2026-11-21", "2026-11-20", "Total"]
        chart = screen.query_one(DayChart)
        assert chart.days == ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24"]
        assert chart.values[2] == 0  # a quiet day is a gap, not a missing column
        assert set(screen.query_one(ModelSparks).daily) == {SONNET, HOSTILE}
        await pilot.press("s")
        await wait_for(pilot, lambda: screen.report is not None and screen.report.by == "session", what="by session")
        await pilot.pause()
        assert "22222222-2222-2222-2222-222222222222 (this one)" in table_keys(screen)
        await pilot.press("o")
        await wait_for(pilot, lambda: screen.report is not None and screen.report.by == "model", what="by model")
        await pilot.pause()
        keys = table_keys(screen)
        assert keys[0] == SONNET  # the dearest first
        # A model name from a transcript is shown as it is: no markup read, no escape reaching the terminal.
        assert keys[1] == "[bold red]claude-x[/]␛]0;pwned␇"
        assert "\x1b" not in str(screen.query_one(ModelSparks).render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.result == [None], what="dismissed")


async def test_it_opens_before_the_transcripts_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker reads; the screen is up and says so meanwhile."""
    import threading

    from claude_tui.history.usage import command as usage_command

    gate = threading.Event()
    real = usage_command.usage_report

    def slow(*args: Any, **kwargs: Any) -> Any:
        gate.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(usage_command, "usage_report", slow)
    app = UsageApp(tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = app.usage
        await wait_for(pilot, lambda: screen.is_current, what="the screen")
        title = screen.query_one("#usage-title", Static)
        assert "reading the transcripts" in str(title.render())
        gate.set()
        await wait_for(pilot, lambda: screen.report is not None, what="the report")
        assert "reading" not in str(title.render())


async def test_typing_usage_opens_the_screen_and_its_limits_tab_asks_claude_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(build_tree(tmp_path / "claude")))
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="CLI ready")
        sent: list[str] = []
        real_send = view.session.send
        monkeypatch.setattr(view.session, "send", lambda text, **_: _record(sent, text))
        prompt = view.query_one("#prompt")
        prompt.text = "/usage"  # type: ignore[attr-defined]
        prompt.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, UsageScreen), what="the usage screen")
        assert prompt.text == ""  # type: ignore[attr-defined]
        assert sent == []  # the history is ours: nothing went to Claude Code
        screen = app.screen
        await wait_for(pilot, lambda: screen.report is not None, what="the report")  # type: ignore[attr-defined]
        # A turn that ends while the screen is up: its calls are read (the live session counts).
        loads = screen.loads  # type: ignore[attr-defined]
        monkeypatch.setattr(view.session, "send", real_send)
        assert await view.prompt_area.send_prompt("hello")
        await wait_for(pilot, lambda: screen.loads > loads, what="read again after the turn")  # type: ignore[attr-defined]
        monkeypatch.setattr(view.session, "send", lambda text, **_: _record(sent, text))
        await pilot.click("#usage-tabs Tab#--content-tab-usage-limits")
        await pilot.pause()
        await pilot.click("#usage-ask-limits")
        await wait_for(pilot, lambda: sent == ["/usage"], what="Claude Code's /usage sent")
        assert not isinstance(app.screen, UsageScreen)


async def _record(sent: list[str], text: str) -> bool:
    sent.append(text)
    return True
