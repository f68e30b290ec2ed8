"""Record the manage requests (MCP, context, usage, rules, hooks, rename, reloads, elicitation)
from the real CLI into tests/fixtures/claude-code-<version>/manage-*.ndjson.

    python -m tests.e2e.record_manage            # the pinned CLI, offline (the Messages API stand-in)

The notes MCP server (tests/mcp/notes_server.py) is configured with --mcp-config beside one that
cannot start, so `mcp_status` shows connected, failed, and (toggled) disabled servers.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.e2e.cli_install import DEFAULT_VERSION, ensure_cli
from tests.e2e.mock_api import MockApi
from tests.e2e.offline_env import offline_env
from tests.e2e.raw_cli import RawCli

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / f"claude-code-{DEFAULT_VERSION}"
#: a hook in the project's settings, so get_hooks_listing has a row (the CLI only reads it)
HOOKS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo checked"}]}]}}


def notes_config(log: Path, broken: bool = True) -> dict[str, Any]:
    servers: dict[str, Any] = {"notes": {
        "type": "stdio", "command": sys.executable, "args": ["-m", "tests.mcp.notes_server"],
        "env": {"NOTES_SERVER_LOG": str(log), "PYTHONPATH": str(REPO)}}}
    if broken:
        servers["broken"] = {"type": "stdio", "command": "/nonexistent/mcp-server", "args": []}
    return {"mcpServers": servers}


class Recorder(RawCli):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        super().__init__(*args, **kwargs)

    def send(self, obj: dict[str, Any]) -> None:
        self.sent.append(obj)
        super().send(obj)

    def save(self, name: str) -> None:
        FIXTURES.mkdir(parents=True, exist_ok=True)
        with (FIXTURES / f"{name}.stdin.ndjson").open("w") as out:
            out.writelines(json.dumps(m) + "\n" for m in self.sent)
        with (FIXTURES / f"{name}.stdout.ndjson").open("w") as out:
            out.writelines(json.dumps({k: v for k, v in m.items() if k != "_t"}) + "\n" for m in self.messages)


def wait_connected(cli: RawCli, name: str, timeout: float = 40) -> None:
    """Poll mcp_status until `name` has left pending (the CLI connects servers in the background)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = cli.control("mcp_status")["response"]["response"]["mcpServers"]
        if any(s["name"] == name and s["status"] != "pending" for s in status):
            return
        time.sleep(0.25)  # a poll interval, not a wait for something: the loop checks the state
    raise AssertionError(f"{name} stayed pending")


def record(root: Path) -> None:
    project = root / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(json.dumps(
        {**HOOKS, "permissions": {"deny": ["Read(./secrets/**)"], "ask": ["Bash(git push:*)"]}}))
    log = root / "notes.log"
    (root / "mcp.json").write_text(json.dumps(notes_config(log)))
    with MockApi(project_dir=str(project)) as api:
        env = offline_env(api.url, root / "cli")
        args = ["--permission-mode", "default", "--mcp-config", str(root / "mcp.json"),
                "--allowedTools", "mcp__notes__add_note"]
        cli = Recorder(ensure_cli(), env, project, args)
        try:
            cli.initialize()
            wait_connected(cli, "notes")
            cli.control("mcp_toggle", serverName="notes", enabled=False)
            cli.control("mcp_status")
            cli.control("mcp_toggle", serverName="notes", enabled=True, timeout=30)
            cli.control("mcp_status")
            cli.control("mcp_reconnect", serverName="broken")
            cli.control("get_context_usage", timeout=30)
            cli.control("get_usage", skip_behaviors=True)
            cli.control("list_permission_rules")
            cli.control("apply_flag_settings", settings={"permissions": {"allow": ["Bash(ls:*)", "WebFetch"]}})
            cli.control("list_permission_rules")
            cli.control("apply_flag_settings", settings={"permissions": {"allow": ["WebFetch"], "deny": [], "ask": []}})
            cli.control("list_permission_rules")
            cli.control("get_hooks_listing")
            cli.control("rename_session", title="Notes work", source="host")
            cli.control("reload_skills")
            cli.control("reload_plugins")
            mark = cli.send_user("kw:mcpnote keep a note")
            cli.result(mark, 60)
            mark = cli.send_user("kw:mcpask ask me")
            asked = cli.wait_for(lambda m: m.get("type") == "control_request"
                                 and m["request"]["subtype"] == "can_use_tool", 60, mark)
            cli.allow(asked)
            form = cli.wait_for(lambda m: m.get("type") == "control_request"
                                and m["request"]["subtype"] == "elicitation", 60, mark)
            cli._answer(form, {"action": "accept",
                               "content": {"name": "Ada", "age": 36, "subscribe": True, "colour": "blue"}})
            cli.result(mark, 60)
            cli.control("get_context_usage", timeout=30)
        finally:
            cli.close()
        cli.save("manage")
        print(log.read_text() if log.exists() else "the notes server recorded nothing")


if __name__ == "__main__":
    tmp = Path(tempfile.mkdtemp(prefix="record-manage-"))
    try:
        record(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
