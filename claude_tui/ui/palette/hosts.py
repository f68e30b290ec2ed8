"""The palette's "Open session on <host>" entries, one per ``hosts`` entry of the config.

Each opens in a new tab (the app's one path, `open_session`), beside the sessions already open.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from claude_tui.config import HostEntry
from claude_tui.protocol.sanitize import one_line
from claude_tui.remote.hosts import options_on_host, remote_setup
from claude_tui.ui.chat.host import ChatHost
from claude_tui.ui.palette.commands import escape, highlighted

if TYPE_CHECKING:
    from textual.app import App


def host_text(entry: HostEntry) -> str:
    return f"Open session on {one_line(entry.name)}"


def host_help(entry: HostEntry) -> str:
    where = one_line(entry.target_text)
    return escape(f"{where}:{one_line(entry.cwd)}" if entry.cwd else f"{where} (the login's home)")


async def open_on_host(app: App[Any], name: str) -> None:
    """Open a new tab with a session on the host ``name``."""
    host = cast(ChatHost, app)  # typed as what it is to the chat, not as the app class (no import circle)
    try:
        setup = remote_setup(name, host.config)
    except ValueError as error:  # validated with the config: only if it changed under us
        app.notify(f"Cannot open a session on {one_line(name)}: {error}", severity="error", timeout=8)
        return
    await host.open_session(options_on_host(host.options, setup), new_tab=True)


def _start(app: App[Any], name: str) -> None:
    # An app worker, as the palette's other session openings: keys are read meanwhile.
    app.run_worker(open_on_host(app, name), group="tabs", exit_on_error=False)


class HostCommands(Provider):
    """"Open session on <host>" for each ``hosts`` entry (none in the demo: its CLI is local)."""

    def _entries(self) -> list[HostEntry]:
        host = cast(ChatHost, self.app)
        return [] if host.options.command is not None else list(host.config.hosts)

    async def discover(self) -> Hits:
        app = self.app
        for entry in self._entries():
            yield DiscoveryHit(Content(host_text(entry)), partial(_start, app, entry.name), text=host_text(entry),
                               help=host_help(entry))

    async def search(self, query: str) -> Hits:
        app = self.app
        matcher = self.matcher(query)
        for entry in self._entries():
            text = host_text(entry)
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, highlighted(matcher, text), partial(_start, app, entry.name), text=text,
                          help=host_help(entry))
