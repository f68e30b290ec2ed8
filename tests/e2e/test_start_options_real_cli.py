"""What claude-tui starts the real CLI with: an explicit permission mode, and `thinking_display`."""

from __future__ import annotations

from collections.abc import Callable

from claude_tui.transport.options import CliOptions
from tests.e2e.app_driver import drive
from tests.e2e.mock_api import MockApi

Options = Callable[..., CliOptions]


async def test_the_mode_is_explicit_and_thinking_display_reaches_the_api(app_options: Options,
                                                                         mock_api: MockApi) -> None:
    async with drive(app_options(thinking_display="summarized")) as d:
        argv = d.chat.session.connection.client.argv
        assert argv[argv.index("--permission-mode") + 1] == "default"
        assert argv[argv.index("--thinking-display") + 1] == "summarized"
        await d.turn("kw:think what is it?")
        assert d.conversation.status.permission_mode == "default"
        assert not [n for n in d.notes() if n.title == "Permission mode differs"]
    # The CLI turned the flag into the request's thinking settings (its own default is "updates").
    assert mock_api.messages_requests()[-1].body["thinking"].get("display") == "summarized"
