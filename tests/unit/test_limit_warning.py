"""The status bar's plan-limit warning, from the CLI's rate_limit_event (the SDK's SDKRateLimitInfo)."""

from __future__ import annotations

import time

from claude_tui import protocol as p
from claude_tui.session.changes import StatusChanged
from claude_tui.session.conversation import Conversation
from claude_tui.session.limits import limit_words
from claude_tui.ui.panels.status_bar import StatusBar


def event(**info: object) -> p.Message:
    return p.decode_obj({"type": "rate_limit_event", "rate_limit_info": info, "uuid": "u", "session_id": "s"})


def test_words() -> None:
    now = time.time()
    assert limit_words(p.RateLimitInfo(status="allowed", utilization=0.2)) == ""
    assert limit_words(p.RateLimitInfo.model_validate(
        {"status": "allowed_warning", "rateLimitType": "five_hour", "utilization": 0.85})) == "5-hour limit 85%"
    reached = limit_words(p.RateLimitInfo.model_validate(
        {"status": "rejected", "rateLimitType": "seven_day", "resetsAt": now + 3 * 86_400}), clock=now)
    assert reached.startswith("weekly limit reached · resets ") and len(reached.split()[-2]) == 3  # a weekday


def test_the_session_keeps_it_and_the_status_bar_shows_it() -> None:
    conversation = Conversation()
    changes = conversation.apply(event(status="allowed_warning", rateLimitType="five_hour", utilization=91))
    assert any(isinstance(c, StatusChanged) for c in changes)
    assert conversation.status.limit_warning == "5-hour limit 91%"
    assert "5-hour limit 91%" in StatusBar().render_status(conversation.status).plain
    conversation.apply(event(status="allowed"))
    assert conversation.status.limit_warning == ""
    assert conversation.apply(event(status="allowed")) == []  # no change, nothing to draw
