"""The palette's entries for the manage screens and the reloads (plugins, skills)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.app import App

from claude_tui.protocol import manage, versions
from claude_tui.ui.manage.routing import SCREENS, open_for

__all__ = ["manage_commands", "reload"]

Entry = tuple[str, Callable[[], Any], str, bool]
_TITLES = {"/mcp": "MCP servers", "/context": "Context window", "/permissions": "Permission rules",
           "/hooks": "Hooks"}


async def reload(app: App[Any], session: Any, what: str) -> str:
    """Reload plugins or skills through the CLI; the sentence the notice shows."""
    request = "reload_plugins" if what == "plugins" else "reload_skills"
    if (note := versions.lacks(session.conversation.status.cli_version, request, f"reload {what}")):
        app.notify(note, severity="warning")
        return note
    try:
        response = await session.connection.request(
            manage.reload_plugins() if what == "plugins" else manage.reload_skills(), timeout=60)
    except Exception as exc:  # the CLI's refusal (busy, a bad plugin): said, not raised
        words = f"Reloading {what} failed: {exc}"
        app.notify(words, severity="error")
        return words
    payload = getattr(response, "payload", None) or {}
    if what == "plugins":
        done = manage.parse_answer(manage.ReloadedPlugins, payload)
        errors = f", {done.error_count} error{'s' * (done.error_count != 1)}" if done.error_count else ""
        words = (f"Plugins reloaded: {len(done.plugins)} plugin{'s' * (len(done.plugins) != 1)}, "
                 f"{len(done.commands)} commands, {len(done.mcp_servers)} MCP servers{errors}")
    else:
        skills = manage.parse_answer(manage.ReloadedSkills, payload).skills
        words = f"Skills reloaded: {len(skills)} skill{'s' * (len(skills) != 1)}"
    app.notify(words, timeout=4)
    return words


def _reload_in_background(app: App[Any], session: Any, what: str) -> None:
    app.run_worker(reload(app, session, what), group="reload", exit_on_error=False)


def manage_commands(app: App[Any], session: Any) -> list[Entry]:
    entries: list[Entry] = [
        (f"{_TITLES[slash]} ({slash})", partial(open_for, app, session, slash), words, True)
        for slash, (_, _, words) in SCREENS.items()
    ]
    for what in ("plugins", "skills"):
        entries.append((f"Reload {what}", partial(_reload_in_background, app, session, what),
                        f"Claude Code reads its {what} from disk again", False))
    return entries
