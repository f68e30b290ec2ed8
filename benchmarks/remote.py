"""The app with Claude Code on another machine: local vs over ssh vs over ssh with a 200 ms round trip.

Needs Debian's openssh-server (/usr/sbin/sshd) and the pinned CLI (tests/e2e/cli_install.py). Starts a
throwaway sshd on 127.0.0.1 (tests/e2e/ssh_server.py); "far" reaches it through an ssh ProxyCommand
that delays every byte by 100 ms each way (tests/e2e/delay_proxy.py). For each setup it prints:

* ready_s: app start to the CLI's initialize answer;
* first_text_s / turn_s: a prompt's first streamed text / its whole turn (kw:slow: 300 words, 50 ms apart);
* lag p50/p99/max ms: event-loop lag during the turn and while the session browser opens and syncs
  the remote store over the same link (a 5 ms probe). Goal: remote no worse than local, i.e. no key
  or message handler ever waits on the network;
* browser_s: Ctrl+O to the browser on screen; listed_s: to the session listed (the sync included).

    python benchmarks/remote.py
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from claude_tui.transport.options import CliOptions  # noqa: E402
from claude_tui.transport.ssh.argv import SshTarget  # noqa: E402
from tests.e2e.app_driver import drive  # noqa: E402
from tests.e2e.cli_install import ensure_cli  # noqa: E402
from tests.e2e.mock_api import MockApi  # noqa: E402
from tests.e2e.offline_env import offline_overrides  # noqa: E402
from tests.e2e.ssh_server import GOOD, SLOW, SshServer  # noqa: E402


class Probe:
    """Event-loop lag: how late a 5 ms sleep wakes up."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            self.lags.append(time.perf_counter() - before - 0.005)

    def __enter__(self) -> Probe:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()

    def summary(self) -> str:
        lags = sorted(self.lags) or [0.0]
        p99 = lags[max(0, int(len(lags) * 0.99) - 1)]
        return f"{statistics.median(lags) * 1000:5.1f} / {p99 * 1000:5.1f} / {lags[-1] * 1000:6.1f}"


async def measure(name: str, options: CliOptions) -> None:
    from claude_tui.session.items import TextItem
    from claude_tui.ui.browser.screen import SessionBrowserScreen

    started = time.perf_counter()
    async with drive(options, ready=False) as d:
        await d.wait_ready(timeout=120)
        ready = time.perf_counter() - started
        await d.turn("warm up")  # a session on disk, for the browser to list
        session = d.conversation.status.session_id
        with Probe() as turn_lag:
            sent = time.perf_counter()
            before = len(d.of_type(TextItem))
            await d.send("kw:slow go")  # 300 words, 50 ms apart: a model's pace
            await d.wait(lambda: len(d.of_type(TextItem)) > before, "the first text", 60)
            first = time.perf_counter() - sent
            await d.wait_turns(2, timeout=120)
            turn = time.perf_counter() - sent
        with Probe() as browse_lag:
            pressed = time.perf_counter()
            await d.pilot.press("ctrl+o")
            browser = await d.wait(lambda: d.app.screen if isinstance(d.app.screen, SessionBrowserScreen) else None,
                                   "the browser", 30)
            shown = time.perf_counter() - pressed
            await d.wait(lambda: any(row.session_id == session for row in browser.state.rows), "the session listed", 60)
            listed = time.perf_counter() - pressed
    if name:
        print(f"{name:<18} {ready:8.2f} {first:13.2f} {turn:7.2f}  {turn_lag.summary()}  "
              f"{shown:9.2f} {listed:9.2f}  {browse_lag.summary()}")


async def main() -> None:
    claude = ensure_cli()
    with tempfile.TemporaryDirectory(prefix="claude-tui-bench-remote-") as tmp:
        root = Path(tmp)
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
            os.environ[var] = str(root / var.lower())  # our own stores: never the developer's
        project = root / "project"
        project.mkdir()
        (project / "a.txt").write_text("alpha\nbeta\ngamma\n")
        server = SshServer(root / "sshd").start()
        try:
            with MockApi(project_dir=str(project)) as api:
                print(f"{'':<18} {'ready_s':>8} {'first_text_s':>13} {'turn_s':>7}  "
                      f"{'turn lag p50/p99/max ms':>23}  {'browser_s':>9} {'listed_s':>9}  "
                      f"{'browse lag p50/p99/max ms':>25}")
                # The first run in a process pays one-time costs (imports, first mounts, the index
                # schema): a silent warm-up keeps them out of the comparison.
                for name, host in (("", None), ("local", None), ("ssh", GOOD), ("ssh + 200 ms RTT", SLOW)):
                    env = offline_overrides(api.url, root / f"cli-{name.split()[0] if name else 'warm'}-{host}")
                    for key in ("HOME", "TMPDIR"):
                        Path(env[key]).mkdir(parents=True, exist_ok=True)
                    target = SshTarget(host, options=tuple(server.ssh_options)) if host else None
                    if target is None:
                        os.environ["CLAUDE_CONFIG_DIR"] = env["CLAUDE_CONFIG_DIR"]  # the local browser's store
                    await measure(name, CliOptions(cwd=str(project), claude_path=str(claude), env=env, ssh=target))
        finally:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
