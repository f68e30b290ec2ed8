"""The permission queue's "N of M" counts the requests since it was last empty."""

from __future__ import annotations

from claude_tui.session.permissions import PermissionRequest
from claude_tui.ui.chat.permission_queue import PermissionQueue


def _request(request_id: str) -> PermissionRequest:
    return PermissionRequest(request_id=request_id, tool_name="Bash", input={"command": "ls"})


def test_a_lone_request_after_others_were_answered_is_one_of_one() -> None:
    queue = PermissionQueue()
    for number in range(3):
        queue.add(_request(f"r{number}"))
        request = queue.take_next()
        assert request is not None
        assert (queue.answered + 1, queue.total) == (1, 1)
        queue.answered_one(request)


def test_requests_waiting_together_are_counted_through() -> None:
    queue = PermissionQueue()
    for number in range(3):
        queue.add(_request(f"r{number}"))
    seen = []
    while (request := queue.take_next()) is not None:
        seen.append((queue.answered + 1, queue.total))
        queue.answered_one(request)
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert queue.answered == 0


def test_a_withdrawn_last_request_empties_the_count() -> None:
    queue = PermissionQueue()
    queue.add(_request("a"))
    queue.add(_request("b"))
    first = queue.take_next()
    assert first is not None
    queue.answered_one(first)
    assert queue.withdraw("b") is False
    queue.add(_request("c"))
    assert queue.take_next() is not None
    assert (queue.answered + 1, queue.total) == (1, 1)
