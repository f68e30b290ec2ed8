"""The real CLI's recorded answers to the manage requests (manage.stdout.ndjson), as an `Asker`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.app import App

from claude_tui.transport.errors import ControlError

FIX = Path(__file__).parent / "fixtures" / "claude-code-2.1.330"


def recorded(subtype: str, which: int = 0) -> dict[str, Any]:
    """Answer number `which` (negative from the end) the CLI gave to our `subtype` requests."""
    answers = [m["response"] for line in (FIX / "manage.stdout.ndjson").read_text().splitlines()
               if (m := json.loads(line))["type"] == "control_response"
               and f"_{subtype}_" in m["response"]["request_id"]]
    return answers[which]


class FakeAsker:
    """Answers from a table (subtype -> payload, or an exception to raise); records what was sent."""

    def __init__(self, answers: dict[str, Any], version: str = "2.1.330") -> None:
        self.answers = answers
        self.cli_version = version
        self.sent: list[dict[str, Any]] = []

    def owns(self, session: object) -> bool:
        return session is self

    async def ask(self, payload: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        self.sent.append(payload)
        subtype = payload["request"]["subtype"]
        answer = self.answers.get(subtype, {})
        if callable(answer):
            answer = answer(payload)
        if isinstance(answer, Exception):
            raise answer
        return dict(answer)


def error(text: str) -> ControlError:
    return ControlError(text, "req")


class ScreenHost(App[None]):
    def __init__(self, screen: Any) -> None:
        super().__init__()
        self.manage_screen = screen

    def on_mount(self) -> None:
        self.push_screen(self.manage_screen)
