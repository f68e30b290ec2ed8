"""The manage screens against the real CLI (offline) and a real MCP server (tests/mcp/notes_server.py).

The notes server runs as a stdio MCP server the CLI starts from --mcp-config; every call it gets
is appended to its log, so the test sees what the server received, not only what the app showed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from claude_tui.session.items import ToolState
from claude_tui.transport.options import CliOptions
from claude_tui.ui.dialogs.permission import PermissionScreen
from claude_tui.ui.kit.safe_input import SafeInput
from claude_tui.ui.manage.base import ManageScreen
from claude_tui.ui.manage.commands import reload
from claude_tui.ui.manage.context import ContextScreen
from claude_tui.ui.manage.elicitation import ElicitationScreen
from claude_tui.ui.manage.hooks import HooksScreen
from claude_tui.ui.manage.mcp import McpScreen
from claude_tui.ui.manage.permissions import PermissionsScreen
from tests.e2e.app_driver import AppDriver, drive
from tests.e2e.record_manage import HOOKS, notes_config

Options = Callable[..., CliOptions]
S = TypeVar("S", bound=ManageScreen)


def server_log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def open_screen(d: AppDriver, command: str, cls: type[S]) -> S:
    """Type the slash command and press Enter, as a user does (a second Enter if the menu took one)."""
    prompt = d.prompt
    prompt.focus()
    prompt.text = command
    prompt.move_cursor(prompt.document.end)
    await d.pilot.pause()
    await d.press("enter")
    if not isinstance(d.app.screen, cls) and prompt.text.strip() == command:
        await d.press("enter")
    screen: S = await d.wait(lambda: d.app.screen if isinstance(d.app.screen, cls) else None, cls.__name__)
    await d.wait(lambda: screen.loads >= 1, f"{cls.__name__}'s first answer")
    assert prompt.text == ""  # the command left the prompt; it never went to Claude as a message
    return screen


async def until_state(d: AppDriver, screen: McpScreen, name: str, state: str) -> None:
    """Ask the CLI again until server `name` is in `state` (it connects servers in the background)."""
    async def asked_again() -> bool:
        before = screen.loads
        screen.action_reload()
        await d.wait(lambda: screen.loads > before, "mcp_status again")
        return any(s.name == name and s.status == state for s in screen.servers)

    for _ in range(80):
        if any(s.name == name and s.status == state for s in screen.servers) or await asked_again():
            return
    raise AssertionError(f"{name} never {state}: {[(s.name, s.status) for s in screen.servers]}")


async def test_mcp_servers_toggle_tool_call_and_elicitation(app_options: Options, tmp_path: Path) -> None:
    log = tmp_path / "notes.log"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps(notes_config(log)))
    options = app_options(extra_args=["--mcp-config", str(config), "--allowedTools", "mcp__notes__add_note"])
    async with drive(options, debug_log=tmp_path / "debug.log") as d:
        screen = await open_screen(d, "/mcp", McpScreen)
        await until_state(d, screen, "notes", "connected")
        text = await d.wait_on_screen("notes  connected · 2 tools")
        assert "add_note" in text and "ask_profile" in text and "broken  failed" in text
        # The server has a resource (notes://readme); 2.1.330 reports none of it, and the screen says why.
        assert "Resources: not shown" in text and "ListMcpResourcesTool" in text
        await d.press("space")  # the highlighted server (notes, the first) off ...
        await until_state(d, screen, "notes", "disabled")
        await d.wait_on_screen("notes  turned off")
        await d.press("space")  # ... and on again
        await until_state(d, screen, "notes", "connected")
        toggles = [m["request"] for m in d.sent("control_request") if m["request"]["subtype"] == "mcp_toggle"]
        assert toggles == [{"subtype": "mcp_toggle", "serverName": "notes", "enabled": False},
                           {"subtype": "mcp_toggle", "serverName": "notes", "enabled": True}]
        await d.press("escape")
        await d.wait_chat_active()

        await d.turn("kw:mcpnote keep a note", timeout=60)  # the model calls the server's tool
        assert d.tool("mcp__notes__add_note").state is ToolState.DONE
        assert {"tool": "add_note", "text": "from the model"} in server_log(log)

        await d.send("kw:mcpask ask me")
        await d.wait_screen(PermissionScreen, timeout=60)
        await d.press("y")
        form = await d.wait_screen(ElicitationScreen, timeout=60)  # Tab pressed: the first field has the keys
        assert "Tell me about yourself" in d.screen_text()
        await d.press(*"Ada", "ctrl+down", *"36")
        form.query_one("#field-2").value = True  # type: ignore[attr-defined]
        await d.press("ctrl+s")
        await d.wait_turns(2, timeout=60)
        answered = [e for e in server_log(log) if e.get("tool") == "ask_profile"]
        assert answered == [{"tool": "ask_profile", "action": "accept",
                             "data": {"name": "Ada", "age": 36, "subscribe": True, "colour": "green"}}]
        assert "profile accept" in d.tool("mcp__notes__ask_profile").result_text


async def test_context_permissions_hooks_usage_rename_and_reloads(app_options: Options, project_dir: Path,
                                                                  config_dir: Path, tmp_path: Path) -> None:
    (project_dir / ".claude").mkdir()
    settings = project_dir / ".claude" / "settings.json"
    settings.write_text(json.dumps({**HOOKS, "permissions": {"ask": ["Bash(git push:*)"]}}))
    before = settings.read_text()
    async with drive(app_options(), debug_log=tmp_path / "debug.log") as d:
        context = await open_screen(d, "/context", ContextScreen)
        text = await d.wait_on_screen("System prompt:")
        assert "System prompt:" in text and "Free space:" in text and "⛁" in text
        await d.chat.prompt_area.send_prompt("kw:plain hello")  # a turn while /context is open: it asks again after
        await d.wait_turns(1)
        await d.wait(lambda: context.loads >= 2, "/context asked again after the turn")
        await d.press("escape")
        await d.wait_chat_active()

        rules = await open_screen(d, "/permissions", PermissionsScreen)
        await d.wait_on_screen("Bash(git push:*) — Any Bash command starting with git push")
        await d.press("a")
        entry = rules.query_one("#rule-entry", SafeInput)
        entry.value = "deny Bash(rm:*)"
        await d.press("enter")
        await d.wait(lambda: any(r.rule == "Bash(rm:*)" and r.behavior == "deny" and r.source == "flagSettings"
                                 for r in rules.rules), "the new rule listed by the CLI")
        await d.wait_on_screen("kept in this session only")
        rules.query_one("#rules").highlighted = next(i for i, r in enumerate(rules.rows)  # type: ignore[attr-defined]
                                                     if r and r.rule == "Bash(rm:*)")
        await d.press("d")
        await d.wait(lambda: rules.loads >= 3 and not any(r.rule == "Bash(rm:*)" for r in rules.rules),
                     "the rule removed")
        await d.press("escape")
        await d.wait_chat_active()
        assert settings.read_text() == before and not (project_dir / ".claude" / "settings.local.json").exists()
        assert not (config_dir / "settings.json").exists()  # nothing written by us (nor asked of the CLI)

        await open_screen(d, "/hooks", HooksScreen)
        await d.wait_on_screen("[Bash] Command: echo checked")
        await d.press("escape")
        await d.wait_chat_active()

        from claude_tui.ui.usage import UsageScreen  # /usage is the usage screen; its Limits tab asks get_usage

        d.prompt.text = "/usage"
        d.prompt.focus()
        await d.press("enter")
        usage = await d.wait(lambda: d.app.screen if isinstance(d.app.screen, UsageScreen) else None, "/usage")
        usage.query_one("#usage-tabs").active = "usage-limits"  # type: ignore[attr-defined]
        await d.wait_on_screen("Plan limits: none for this account")
        assert any(m["request"]["subtype"] == "get_usage" for m in d.sent("control_request"))
        await d.press("escape")
        await d.wait_chat_active()

        assert await d.chat.session.rename_in_cli("Notes work") is None
        await d.wait(lambda: any(m.get("subtype") == "session_title_changed" and m.get("title") == "Notes work"
                                 for m in d.wire("<<")), "the CLI's session_title_changed")
        assert (await reload(d.app, d.chat.session, "skills")).startswith("Skills reloaded: ")
        assert (await reload(d.app, d.chat.session, "plugins")).startswith("Plugins reloaded: ")


async def test_an_older_cli_says_what_it_lacks_and_is_not_asked(app_options: Options, tmp_path: Path) -> None:
    """2.0.77 (the oldest supported) has mcp_status only: /hooks says so in one line and sends nothing;
    /mcp lists its servers but turning one off says the CLI cannot."""
    import dataclasses

    from claude_tui.protocol.versions import OLDEST_SUPPORTED
    from tests.e2e.cli_install import ensure_cli

    options = dataclasses.replace(app_options(), claude_path=str(ensure_cli(OLDEST_SUPPORTED)))
    async with drive(options, debug_log=tmp_path / "debug.log") as d:
        await d.wait(lambda: d.conversation.status.cli_version, "the CLI's version")
        prompt = d.prompt
        prompt.text = "/hooks"
        prompt.focus()
        await d.press("enter")
        if not isinstance(d.app.screen, HooksScreen):
            await d.press("enter")
        await d.wait_on_screen(f"Claude Code {OLDEST_SUPPORTED} cannot list hooks")
        await d.press("escape")
        await d.wait_chat_active()
        await open_screen(d, "/mcp", McpScreen)
        await d.press("space")
        await d.wait_on_screen("cannot turn MCP servers off or on")
        subtypes = {m["request"]["subtype"] for m in d.sent("control_request")}
        assert "get_hooks_listing" not in subtypes and "mcp_toggle" not in subtypes and "mcp_status" in subtypes


async def test_a_pretooluse_hook_runs_on_its_tool_card(app_options: Options, project_dir: Path, tmp_path: Path) -> None:
    """A PreToolUse hook on Bash in a project settings file: the CLI (with --include-hook-events) reports
    its run, and the Bash card it ran for shows it (event, exit, the first line of its output, inert)."""
    (project_dir / ".claude").mkdir()
    (project_dir / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                      "command": "printf 'checked \\033[31mby hook\\n'"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo prompt-seen"}]}]}}))
    async with drive(app_options(), debug_log=tmp_path / "debug.log") as d:
        await d.send("kw:bash please")
        await d.wait_screen(PermissionScreen, timeout=60)
        await d.press("y")
        await d.wait_turns(1, timeout=60)
        tool = d.tool("Bash")
        assert [(h.event, h.exit_code, h.running) for h in tool.hooks] == [("PreToolUse", 0, False)]
        assert "checked" in tool.hooks[0].output
        await d.wait_on_screen("1 hook")  # on the card's header
        assert any("UserPromptSubmit hook · exit 0 · prompt-seen" in getattr(i, "text", "")
                   for i in d.conversation.main.items)
        assert "--include-hook-events" in d.chat.session.connection.client.argv  # type: ignore[union-attr]
