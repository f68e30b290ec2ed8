"""Every slash command answers: the ones the real CLI lists (system/init and the initialize
response) plus Claude Code's built-in ones (`claude_tui/slash_routes.py`, read from its cli.js).

A command claude-tui answers itself must open a screen or say one line (it never reaches the
CLI: `ChatView.send_prompt`, `tests/pilot/test_slash_local.py`); every other one is sent to the
real CLI as a user would type it, and fails the test if the answer is "isn't available".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from claude_tui.slash_routes import BUILTINS, local_route
from tests.e2e.mock_api import MockApi
from tests.e2e.raw_cli import RawCli, is_type

Start = Callable[..., RawCli]
UNAVAILABLE = re.compile(r"isn't available|is not available in this environment")


def test_every_command_answers_and_none_is_unavailable(start_cli: Start, mock_api: MockApi) -> None:
    cli = start_cli()
    listed = {str(c["name"]) for c in cli.initialize()["response"]["commands"]}
    mark = cli.send_user("kw:plain hi")  # system/init comes with the first turn
    init = cli.wait_for(is_type("system", "init"), start=mark)
    cli.result(mark)
    listed |= {str(name) for name in init["slash_commands"]}
    names = sorted({name for name in listed | set(BUILTINS) if not name.startswith("_")})
    assert len(names) > 100, names  # the built-ins were found, not only the few the CLI lists

    unavailable: dict[str, str] = {}
    for name in names:
        route = local_route(f"/{name}")
        if route is not None:
            assert route.screen or route.says, name
            continue
        asked = len(mock_api.messages_requests())
        mark = cli.send_user(f"/{name}")
        answer = str(cli.result(mark, timeout=60).get("result") or "")
        # A command that became a model turn (a skill, /init) is answered by the API stand-in,
        # which echoes the conversation: the CLI's own words are the ones without a request.
        if UNAVAILABLE.search(answer) and len(mock_api.messages_requests()) == asked:
            unavailable[name] = answer[:120]
    assert not unavailable, unavailable
