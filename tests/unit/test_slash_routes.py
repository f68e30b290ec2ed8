"""Claude Code's own slash commands in claude-tui: each opens a screen or says what is here instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.completion import slash_candidates
from claude_tui.slash_routes import LOCAL, command_name, local_route, readme_table

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_route_opens_something_or_says_one_line() -> None:
    for name, route in LOCAL.items():
        assert route.description, name
        assert route.screen or route.says, name
        assert "\n" not in route.says and "isn't available" not in route.says, name
        if route.says:
            assert route.says.startswith(f"/{name}"), name  # the line names the command it answers


@pytest.mark.parametrize(("typed", "name"), [
    ("/resume", "resume"), ("/resume abc", "resume"), ("  /hooks  ", "hooks"), ("/etc/passwd", None),
    ("/", None), ("resume", None), ("/ resume", None),
])
def test_command_name(typed: str, name: str | None) -> None:
    assert command_name(typed.strip()) == name


def test_commands_the_cli_answers_itself_stay_the_clis() -> None:
    for name in ("clear", "compact", "config", "cost", "init", "effort"):
        assert local_route(f"/{name}") is None, name


def test_model_is_ours_with_or_without_a_name() -> None:
    """`/model` opens the picker; `/model NAME` switches through set_model (the bar follows at once)."""
    bare, named = local_route("/model"), local_route("/model sonnet")
    assert bare is not None and bare.screen == "model"
    assert named is bare and named.takes_argument


def test_a_screens_command_with_arguments_is_claude_codes() -> None:
    assert local_route("/mcp") is not None and local_route("/context") is not None
    assert local_route("/mcp reconnect notes") is None
    assert local_route("/context all") is None


def test_the_menu_lists_every_local_command_with_what_it_does_here() -> None:
    listed = [{"name": "usage", "description": "Show session cost, plan usage", "argumentHint": ""}]
    menu = {c.value: c.description for c in slash_candidates(listed, ["clear"])}
    for name, route in LOCAL.items():
        assert menu[name] == route.description
    assert menu["usage"] == LOCAL["usage"].description  # ours, not the CLI's: the screen is ours


def test_the_readme_holds_the_table() -> None:
    assert readme_table() in README.read_text(encoding="utf-8")
