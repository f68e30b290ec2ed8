"""The one rule per amount (protocol/units.py) that every view shows."""

from __future__ import annotations

import pytest

from claude_tui.protocol import units

NOW = 1_800_000_000.0
DAY = 86400


@pytest.mark.parametrize(("delta", "label"), [
    (0, "just now"), (0.6, "just now"), (-5, "just now"), (12.7, "12 s ago"), (59, "59 s ago"),
    (60, "1 min ago"), (125, "2 min ago"), (3599, "59 min ago"), (7200, "2 h ago"),
    (DAY, "1 day ago"), (3 * DAY, "3 days ago"), (14 * DAY, "2 weeks ago"), (45 * DAY, "1 month ago"),
    (400 * DAY, "1 year ago"), (800 * DAY, "2 years ago"),
])
def test_ago(delta: float, label: str) -> None:
    assert units.ago(NOW - delta, NOW) == label


@pytest.mark.parametrize("timestamp", [None, 0.0, float("nan"), float("inf")])
def test_ago_unknown_is_empty(timestamp: float | None) -> None:
    assert units.ago(timestamp, NOW) == ""


@pytest.mark.parametrize(("seconds", "label"), [
    (0, "0s"), (-3, "0s"), (float("nan"), "0s"), (12.9, "12s"), (185, "3m05s"), (3599, "59m59s"),
    (3720, "1h02m"), (36000, "10h00m"),
])
def test_elapsed(seconds: float, label: str) -> None:
    assert units.elapsed(seconds) == label


@pytest.mark.parametrize(("amount", "label"), [
    (None, ""), (0.0, ""), (-1.0, ""), (float("nan"), ""), (0.004, "<$0.01"), (0.42, "$0.42"),
    (12.0, "$12.00"), (99.994, "$99.99"), (1234.5, "$1,234"),
])
def test_cost(amount: float | None, label: str) -> None:
    assert units.cost(amount) == label


@pytest.mark.parametrize(("count", "label"), [
    (0, "0 B"), (512, "512 B"), (1023, "1023 B"), (1024, "1.0 KB"), (1536, "1.5 KB"),
    (1024 * 1024 - 1, "1.0 MB"), (3 * 1024 ** 2, "3.0 MB"), (2 * 1024 ** 3, "2.0 GB"),
    (5000 * 1024 ** 3, "5000.0 GB"),
])
def test_size(count: int, label: str) -> None:
    assert units.size(count) == label


@pytest.mark.parametrize(("amount", "label"), [
    (0.0, "$0.0000"), (0.01412, "$0.0141"), (0.5, "$0.5000"), (1.0, "$1.00"), (12.345, "$12.35"),
    (99.99, "$99.99"), (1234.5, "$1,234"), (float("nan"), ""),
])
def test_money(amount: float, label: str) -> None:
    assert units.money(amount) == label
