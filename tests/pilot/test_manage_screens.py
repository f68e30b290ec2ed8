"""The /mcp, /context, /permissions, /hooks and /usage screens on the real CLI's recorded answers."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import OptionList

from claude_tui.ui.kit.safe_input import SafeInput
from claude_tui.ui.manage.context import ContextScreen
from claude_tui.ui.manage.hooks import HooksScreen
from claude_tui.ui.manage.limits import LimitsPanel
from claude_tui.ui.manage.mcp import McpScreen
from claude_tui.ui.manage.permissions import PermissionsScreen
from claude_tui.ui.manage.routing import screen_for
from tests.manage_answers import FakeAsker, ScreenHost, error, recorded
from tests.pilot.test_dialogs import UNSAFE, screen_text

SIZE = (110, 44)


async def loaded(pilot: Any, screen: Any, count: int = 1) -> str:
    for _ in range(100):
        await pilot.pause()
        if screen.loads >= count:
            await pilot.pause()
            return screen_text(pilot.app)
    raise AssertionError(f"never loaded:\n{screen_text(pilot.app)}")


def mcp_answers(status: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"mcp_status": status or recorded("mcp_status", -1)["response"], "mcp_toggle": {}, "mcp_reconnect": {}}


async def test_mcp_lists_each_server_with_its_state_and_tools() -> None:
    asker = FakeAsker(mcp_answers())
    screen = McpScreen(asker, guard_ms=0)
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        text = await loaded(pilot, screen)
        assert "notes  connected · 2 tools" in text and "broken  failed" in text
        assert "add_note" in text and "ask_profile" in text
        await pilot.press("down")
        await pilot.pause()
        assert "Why: ENOENT" in screen_text(pilot.app)


async def test_mcp_toggle_and_reconnect_go_through_the_cli() -> None:
    asker = FakeAsker(mcp_answers())
    screen = McpScreen(asker, guard_ms=0)
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        await loaded(pilot, screen)
        await pilot.press("space")
        await loaded(pilot, screen, 2)
        await pilot.press("r")
        await loaded(pilot, screen, 3)
    sent = [m["request"] for m in asker.sent if m["request"]["subtype"] != "mcp_status"]
    assert sent == [{"subtype": "mcp_toggle", "serverName": "notes", "enabled": False},
                    {"subtype": "mcp_reconnect", "serverName": "notes"}]


async def test_mcp_shows_needs_auth_with_its_url_and_disabled_and_a_refusal() -> None:
    status = {"mcpServers": [
        {"name": "cloud", "status": "needs-auth", "config": {"type": "http", "url": "https://mcp.example/mcp"}},
        {"name": "off", "status": "disabled"}, {"name": "slow", "status": "pending"}]}
    asker = FakeAsker({"mcp_status": status, "mcp_reconnect": error("the server refused")})
    screen = McpScreen(asker, guard_ms=0)
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        text = await loaded(pilot, screen)
        assert "needs authentication" in text and "open https://mcp.example/mcp" in text
        assert "off  turned off" in text and "slow  connecting" in text
        await pilot.press("r")
        await loaded(pilot, screen, 2)
        assert "Reconnecting cloud failed: the server refused" in screen_text(pilot.app)


async def test_mcp_names_and_descriptions_are_inert() -> None:
    status = {"mcpServers": [{"name": UNSAFE, "status": "connected", "tools": [
        {"name": UNSAFE, "description": UNSAFE}]}]}
    app = ScreenHost(McpScreen(FakeAsker({"mcp_status": status})))
    async with app.run_test(size=SIZE) as pilot:
        text = await loaded(pilot, app.manage_screen)
        assert "[@click=app.quit]x[/]" in text and "\x1b" not in text and "\x07" not in text


async def test_an_older_cli_says_in_one_line_what_it_lacks() -> None:
    asker = FakeAsker({}, version="2.0.77")
    screen = HooksScreen(asker)
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        for _ in range(5):
            await pilot.pause()
        text = screen_text(pilot.app)
        assert "Claude Code 2.0.77 cannot list hooks" in text
    assert asker.sent == []


async def test_context_draws_the_grid_categories_and_follows_turns() -> None:
    asker = FakeAsker({"get_context_usage": recorded("get_context_usage", -1)["response"]})
    screen = ContextScreen(asker)
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        text = await loaded(pilot, screen)
        for words in ("System prompt: 2.0k tokens", "Messages: 20.6k tokens", "Free space", "Autocompact buffer",
                      "⛁", "⛶", "⛝", "System tools (deferred)"):
            assert words in text, words
        screen.turn_ended()
        await loaded(pilot, screen, 2)
    assert len(asker.sent) == 2


async def test_permissions_by_behaviour_with_reading_and_where_kept() -> None:
    asker = FakeAsker({"list_permission_rules": recorded("list_permission_rules", 0)["response"]})
    screen = PermissionsScreen(asker, guard_ms=0)
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        text = await loaded(pilot, screen)
        assert "Always asked (1)" in text and "Denied (1)" in text
        assert "Bash(git push:*) — Any Bash command starting with git push" in text
        assert ".claude/settings.json" in text
        await pilot.press("d")  # a rule kept in a file: not removed here, the file is named
        await pilot.pause()
        assert "does not edit that" in screen_text(pilot.app)
    assert [m["request"]["subtype"] for m in asker.sent] == ["list_permission_rules"]


async def test_permissions_add_and_remove_go_through_the_flag_layer() -> None:
    states = [recorded("list_permission_rules", i)["response"] for i in (0, 2)]
    asker = FakeAsker({"list_permission_rules": lambda _: states[0] if len(asker.sent) < 3 else states[1],
                       "apply_flag_settings": {}})
    screen = PermissionsScreen(asker, guard_ms=0)
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        await loaded(pilot, screen)
        await pilot.press("a")
        entry = screen.query_one("#rule-entry", SafeInput)
        entry.value = "nonsense"
        await pilot.press("enter")
        await pilot.pause()
        assert "Write allow, ask or deny" in screen_text(pilot.app)
        entry.value = "allow WebFetch"
        await pilot.press("enter")
        text = await loaded(pilot, screen, 2)
        assert "WebFetch" in text and "this session only" in text
        listing = screen.query_one("#rules", OptionList)
        listing.highlighted = next(i for i, r in enumerate(screen.rows) if r and r.rule == "WebFetch")
        await pilot.press("d")
        await loaded(pilot, screen, 3)
    applied = [m["request"]["settings"] for m in asker.sent if m["request"]["subtype"] == "apply_flag_settings"]
    assert applied == [{"permissions": {"allow": ["WebFetch"], "deny": [], "ask": []}},
                       {"permissions": {"allow": [], "deny": [], "ask": []}}]


async def test_hooks_by_event_matcher_and_source() -> None:
    screen = HooksScreen(FakeAsker({"get_hooks_listing": recorded("get_hooks_listing")["response"]}))
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        text = await loaded(pilot, screen)
        assert "PreToolUse — Before tool execution" in text
        assert "[Bash] Command: echo checked" in text and "Project settings (.claude/settings.json)" in text


class PanelHost(App[None]):
    def __init__(self, panel: LimitsPanel) -> None:
        super().__init__()
        self.panel = panel

    def compose(self) -> ComposeResult:
        yield self.panel


async def panel_text(pilot: Any, panel: LimitsPanel) -> str:
    for _ in range(100):
        await pilot.pause()
        if panel.loads:
            await pilot.pause()
            return screen_text(pilot.app)
    raise AssertionError(f"never answered:\n{screen_text(pilot.app)}")


async def test_limits_of_an_api_key_account_and_of_a_plan() -> None:
    panel = LimitsPanel(FakeAsker({"get_usage": recorded("get_usage")["response"]}))
    async with PanelHost(panel).run_test(size=SIZE) as pilot:
        text = await panel_text(pilot, panel)
        assert "Plan limits: none for this account" in text and "This session: $" in text
    plan = {"subscription_type": "max", "rate_limits_available": True, "rate_limits": {
        "five_hour": {"utilization": 80, "resets_at": "2026-12-02T03:00:00Z"},
        "seven_day": {"utilization": 12.5, "resets_at": "2026-12-07T00:00:00Z"}}, "session": {}}
    panel = LimitsPanel(FakeAsker({"get_usage": plan}))
    async with PanelHost(panel).run_test(size=SIZE) as pilot:
        text = await panel_text(pilot, panel)
        assert "Plan limits (max)" in text and "5-hour limit" in text and " 80%" in text and "resets" in text
        assert "Weekly limit (all models)" in text


async def test_limits_on_an_older_cli_say_so_and_ask_nothing() -> None:
    asker = FakeAsker({}, version="2.0.77")
    panel = LimitsPanel(asker)
    async with PanelHost(panel).run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Claude Code 2.0.77 cannot show the plan's limits" in screen_text(pilot.app)
    assert asker.sent == []


async def test_the_usage_screens_limits_tab_holds_the_panel() -> None:
    from claude_tui.ui.usage import UsageScreen

    panel = LimitsPanel(FakeAsker({"get_usage": recorded("get_usage")["response"]}))
    app = ScreenHost(UsageScreen(limits=panel))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.manage_screen.query_one("#usage-tabs").active = "usage-limits"
        text = await panel_text(pilot, panel)
        assert "Plan limits: none for this account" in text


def test_slash_commands_route_to_the_screens() -> None:
    kinds = {slash: type(screen_for(slash, object())).__name__ for slash in
             ("/mcp", "/context", "/permissions", "/hooks")}
    assert kinds == {"/mcp": "McpScreen", "/context": "ContextScreen", "/permissions": "PermissionsScreen",
                     "/hooks": "HooksScreen"}
    assert screen_for("/usage", object()) is None  # the usage screen's (ui/usage/); its Limits tab has the panel
    assert screen_for("/compact", object()) is None and screen_for("/mcp add x", object()) is None


async def test_rule_strings_and_hook_commands_are_inert() -> None:
    rules = {"state": {"rules": [{"behavior": "deny", "source": UNSAFE, "rule": UNSAFE,
                                  "description": {"prefix": UNSAFE, "emphasis": "x"}, "editability": "readonly"}],
                       "workspaceDirectories": [{"path": UNSAFE, "source": "session"}], "originalCwd": UNSAFE}}
    hooks = {"events": [{"name": UNSAFE, "summary": UNSAFE}], "hooks": [
        {"event": UNSAFE, "matcher": UNSAFE, "source": "x", "sourceLabel": UNSAFE, "type": "command",
         "commandText": UNSAFE, "displayText": UNSAFE, "contentLabel": UNSAFE}]}
    for screen in (PermissionsScreen(FakeAsker({"list_permission_rules": rules})),
                   HooksScreen(FakeAsker({"get_hooks_listing": hooks}))):
        app = ScreenHost(screen)
        async with app.run_test(size=SIZE) as pilot:
            text = await loaded(pilot, screen)
            assert "[@click=app.quit]x[/]" in text and "\x1b" not in text and "\x07" not in text


async def test_mcp_says_why_resources_are_not_shown_and_lists_them_when_reported() -> None:
    screen = McpScreen(FakeAsker(mcp_answers()), guard_ms=0)  # 2.1.330's answer: tools, no resources
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        text = await loaded(pilot, screen)
        assert "Resources: not shown. Claude Code does not tell claude-tui" in text
    status = {"mcpServers": [{"name": "notes", "status": "connected", "tools": [], "resources": [
        {"uri": "notes://readme", "name": "readme", "description": "How the notes\x1b[31m server works."}]}]}
    screen = McpScreen(FakeAsker({"mcp_status": status}), guard_ms=0)
    async with ScreenHost(screen).run_test(size=SIZE) as pilot:
        text = await loaded(pilot, screen)
        assert "Resources:\n" in text or "Resources:" in text
        assert "readme notes://readme — How the notes" in text and "\x1b" not in text
