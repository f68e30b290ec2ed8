"""Snapshots of the usage screen: the day chart, the sparklines per model and the table, in two themes.

The transcripts have fixed times and the days are cut in UTC, so the pictures read the same every run.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pilot.test_usage_screen import UsageApp
from tests.snapshot.settle import settle
from tests.styles import APP_CSS

SIZE = (110, 36)


class StyledUsageApp(UsageApp):
    CSS_PATH = [APP_CSS]  # type: ignore[assignment]

    def __init__(self, tmp_path: Path, theme: str) -> None:
        super().__init__(tmp_path)
        self.theme = theme


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


async def _loaded(pilot) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + 10
    while pilot.app.usage.report is None and time.monotonic() < deadline:
        await pilot.pause(0.05)
    await settle(pilot)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
def test_usage_by_day(snap_compare, tmp_path: Path, theme: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(StyledUsageApp(tmp_path, theme), terminal_size=SIZE, run_before=_loaded)
