"""The status bar keeps the context gauge visible by dropping detail, not by cutting the end off."""

from __future__ import annotations

import pytest

from claude_tui.session.status import Activity, SessionStatus
from claude_tui.ui.panels.status_bar import BarState, StatusBar


def _status() -> SessionStatus:
    return SessionStatus(
        session_id="1371d147-aaaa-bbbb-cccc-000000000000", model="claude-opus-5-5", activity=Activity.IDLE,
        cost_total=0.0283, cost_last_turn=0.0283, context_tokens=32_000, context_window=1_000_000,
    )


def test_unlimited_width_shows_everything() -> None:
    text = StatusBar().render_status(_status()).plain
    assert "1371d147" in text
    assert "(+$0.0283)" in text
    assert "ctx ░░░░░░░░░░ 3% 32k/1.0M" in text


@pytest.mark.parametrize("width", [100, 80, 60, 52])
def test_fits_and_keeps_the_context_percentage(width: int) -> None:
    text = StatusBar().render_status(_status(), width)
    assert text.cell_len <= width, text.plain
    assert "ctx" in text.plain and "3%" in text.plain
    assert "idle" in text.plain


def test_detail_goes_in_order_session_delta_then_gauge() -> None:
    bar = StatusBar()
    at_80 = bar.render_status(_status(), 80).plain
    assert "1371d147" not in at_80 and "(+$" not in at_80
    assert "░" in at_80  # the gauge survives at 80 columns
    at_45 = bar.render_status(_status(), 45).plain
    assert "░" not in at_45 and "3%" in at_45


def test_too_narrow_for_anything_still_ellipsises() -> None:
    text = StatusBar().render_status(_status(), 20)
    assert text.overflow == "ellipsis" and text.no_wrap


def test_a_running_turn_shows_how_long_it_has_run() -> None:
    status = _status()
    status.activity = Activity.RESPONDING
    bar = StatusBar()
    bar.state = BarState(turn_started_at=1000.0)
    bar.now = 1075.4  # the clock's time: the bar reads no other
    assert "responding · 1m15s" in bar.render_status(status).plain
    assert "responding · 1m15s" in bar.render_status(status, 80).plain, "kept at 80 columns"
    status.activity = Activity.IDLE
    assert "idle ·" not in bar.render_status(status).plain  # only while a turn runs


def test_the_turns_share_uses_the_totals_precision_rule() -> None:
    status = _status()
    status.cost_total, status.cost_last_turn = 3.17, 2.8987
    assert "$3.17 (+$2.90)" in StatusBar().render_status(status).plain
    status.cost_total, status.cost_last_turn = 3.17, 0.0141
    assert "$3.17 (+$0.0141)" in StatusBar().render_status(status).plain


ARN = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5f6g7h8i9j0"


@pytest.mark.parametrize("model", [ARN, "x" * 500, "evil\x1b]0;PWN\x07" * 40])
@pytest.mark.parametrize("mode", ["bypassPermissions", "acceptEdits", "default"])
@pytest.mark.parametrize("width", [78, 58, 40])  # 80 and 60 columns less the bar's padding, and tighter
def test_the_mode_always_shows_and_the_model_is_cut(model: str, mode: str, width: int) -> None:
    status = _status()
    status.model, status.permission_mode = model, mode
    text = StatusBar().render_status(status, width)
    assert mode in text.plain[:width], text.plain  # what fits is drawn, the end ellipsised
    assert "\x1b" not in text.plain
    start = model[:6 if width >= 58 else 1].replace("\x1b", "␛")
    assert text.plain.startswith(start)  # the start of the model still shows


@pytest.mark.parametrize("width", [None, 100, 80])
def test_the_status_bar_names_the_host_of_a_remote_session(width: int | None) -> None:
    bar = StatusBar()
    bar.state = BarState(host="build-box")
    text = bar.render_status(_status(), width).plain
    assert "on build-box" in text and "3%" in text
    assert "on " not in StatusBar().render_status(_status(), width).plain.split("│")[2]
