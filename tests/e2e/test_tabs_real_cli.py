"""Two real CLIs in one window (issue 19, tabs): each tab's answer in its own log, a background
tab's permission dialog shown only in its tab, and closing a tab ends its CLI."""

from __future__ import annotations

import os
from collections.abc import Callable

from claude_tui.session.items import TextItem, ToolItem, ToolState
from claude_tui.transport.options import CliOptions
from claude_tui.ui.chat.session import ChatSession
from claude_tui.ui.dialogs.permission import PermissionScreen
from tests.e2e.app_driver import drive

Options = Callable[..., CliOptions]


def answers(session: ChatSession) -> list[str]:
    return [item.text for item in session.conversation.items if isinstance(item, TextItem)]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_two_real_clis_in_two_tabs(app_options: Options) -> None:
    async with drive(app_options()) as d:
        first = d.chat
        await d.press("ctrl+n")
        await d.wait(lambda: d.app.chat is not first and d.chat.session.alive and d.chat.session.conversation.commands,
                     "the second tab's CLI ready", timeout=60)
        second = d.chat
        assert first.session.connection.client.pid != second.session.connection.client.pid  # type: ignore[union-attr]
        await first.prompt_area.send_prompt("kw:plain from the first tab")
        await second.prompt_area.send_prompt("kw:plain from the second tab")
        await d.wait(lambda: answers(first.session) and answers(second.session)
                     and not first.session.busy and not second.session.busy, "both answers")
        assert answers(first.session) == ["Hello! You said: kw:plain from the first tab "]
        assert answers(second.session) == ["Hello! You said: kw:plain from the second tab "]
        assert first.session.conversation.status.session_id != second.session.conversation.status.session_id

        # A permission request in the tab that is not shown: no dialog until you go there.
        await first.prompt_area.send_prompt("kw:bash run it")
        await d.wait(lambda: first.session.permissions.waiting, "the first tab's request queued")
        assert d.app.screen is d.app.chat_screen and first.session.attention
        await d.press("alt+1")
        await d.wait_screen(PermissionScreen)
        await d.press("y")
        await d.wait(lambda: not first.session.busy, "the first tab's turn ends")
        [bash] = [item for item in first.session.conversation.items if isinstance(item, ToolItem)]
        assert bash.state is ToolState.DONE
        assert not any(isinstance(item, ToolItem) for item in second.session.conversation.items)

        # Closing the second tab ends its CLI; the first goes on.
        await d.press("alt+2")
        pid = second.session.connection.client.pid  # type: ignore[union-attr]
        assert pid is not None
        await d.press("alt+w")
        await d.wait(lambda: not alive(pid), "the closed tab's CLI gone", timeout=15)
        assert d.app.chat is first and first.session.alive
