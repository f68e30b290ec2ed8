"""The palette's "Open session on <host>" entries, one per ``hosts`` entry of the config.

Each opens in a new tab (the app's one path, `open_session`), beside the sessions already open.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from claude_tui.config import HostEntry
from claude_tui.protocol.sanitize import one_line
from claude_tui.remote.hosts import options_on_host, remote_setup
from claude_tui.ui.chat.app_host import app_host
from claude_tui.ui.chat.host import ChatHost
from claude_tui.ui.palette.commands import escape, highlighted

if TYPE_CHECKING:
    from textual.app import App


def host_text(entry: HostEntry) -> str:
    return f"Open session on {one_line(entry.name)}"


def host_help(entry: HostEntry) -> str:
    where = one_line(entry.target_text)
    return escape(f"{where}:{one_line(entry.cwd)}" if entry.cwd else f"{where} (the login's home)")


async def open_on_host(app: App[Any], host: ChatHost, name: str) -> None:
    """Open a new tab with a session on the host ``name`` (``host`` is ``app`` as the chat sees it)."""
    try:
        setup = remote_setup(name, host.config)
    except ValueError as error:  # validated with the config: only if it changed under us
        app.notify(f"Cannot open a session on {one_line(name)}: {error}", severity="error", timeout=8)
        return
    await host.open_session(options_on_host(host.options, setup), new_tab=True)


def _start(app: App[Any], host: ChatHost, name: str) -> None:
    # An app worker, as the palette's other session openings: keys are read meanwhile.
    app.run_worker(open_on_host(app, host, name), group="tabs", exit_on_error=False)


class HostCommands(Provider):
    """"Open session on <host>" for each ``hosts`` entry (none in the demo: its CLI is local)."""

    def _host(self) -> ChatHost | None:
        host = app_host(self.screen)
        return host if host is not None and host.options.command is None else None

    async def discover(self) -> Hits:
        if (host := self._host()) is None:
            return
        for entry in host.config.hosts:
            yield DiscoveryHit(Content(host_text(entry)), partial(_start, self.app, host, entry.name),
                               text=host_text(entry), help=host_help(entry))

    async def search(self, query: str) -> Hits:
        if (host := self._host()) is None:
            return
        matcher = self.matcher(query)
        for entry in host.config.hosts:
            text = host_text(entry)
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, highlighted(matcher, text), partial(_start, self.app, host, entry.name), text=text,
                          help=host_help(entry))
