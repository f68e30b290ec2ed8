"""No process we started outlives us: the keeper, the marker sweep and every way a run can end.

The stand-in CLI starts a "tool" the way Claude Code runs Bash: in its own session, out of the
CLI's process group, so a group kill alone misses it. Leftovers are found by the spawn's marker
variable in /proc/PID/environ, never by name.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator

import pytest

from claude_tui.transport import keeper, reaper
from claude_tui.transport.process import CliProcess
from tests.procs import alive, wait_until

pytestmark = pytest.mark.skipif(not keeper.supported(), reason="the keeper needs Linux /proc")

PY = sys.executable

# argv[1]: what the stand-in CLI does after starting its tool
FAKE_CLI = textwrap.dedent(
    """
    import os, signal, subprocess, sys, time
    tool = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(os.getpid(), tool.pid, flush=True)
    mode = sys.argv[1]
    if mode == "eof":
        sys.stdin.read()             # exits on stdin EOF, its tool still running
    elif mode == "crash":
        sys.stdin.readline()
        os._exit(3)                  # dies when told, leaving the tool behind
    elif mode == "deaf":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(300)
    else:
        time.sleep(300)              # ignores EOF, as Claude Code does while a tool runs
    """
)


_markers: list[str] = []


@pytest.fixture(autouse=True)
def _no_leftovers_even_on_failure() -> Iterator[None]:
    yield
    while _markers:
        reaper.sweep(_markers.pop())


def fake_cli(mode: str, **kw: object) -> CliProcess:
    return CliProcess([PY, "-c", FAKE_CLI, mode], **kw)  # type: ignore[arg-type]


async def started(p: CliProcess) -> tuple[int, int]:
    await p.start()
    _markers.append(p.marker)
    line = await asyncio.wait_for(p.read_line(), 15)
    assert line is not None
    cli, tool = map(int, line.split())
    assert alive(cli) and alive(tool)
    # (polled: a process in the middle of an exec shows an empty environ for a moment)
    assert wait_until(lambda: set(reaper.marked_processes(p.marker)) >= {cli, tool}, 5)
    return cli, tool


async def test_the_cli_runs_under_a_keeper_and_its_tool_carries_the_marker() -> None:
    p = fake_cli("eof")
    cli, tool = await started(p)
    assert p.supervised and p.pid != cli
    assert os.getpgid(cli) == p.pid and os.getpgid(tool) != p.pid  # the tool escaped the group
    await p.close(grace=5, term_timeout=5)
    assert not alive(cli) and not alive(tool)
    assert reaper.marked_processes(p.marker) == []


async def test_a_clean_close_ends_the_tool_a_cli_leaves_in_its_own_session() -> None:
    p = fake_cli("eof")
    _, tool = await started(p)
    assert await p.close(grace=5, term_timeout=5) == 0  # the CLI's own status, through the keeper
    assert not alive(tool)


async def test_a_cli_that_ignores_eof_gets_sigterm_and_its_tool_ends() -> None:
    p = fake_cli("sleep")
    cli, tool = await started(p)
    assert await p.close(grace=0.3, term_timeout=5) == -signal.SIGTERM
    assert not alive(cli) and not alive(tool)


async def test_a_cli_deaf_to_sigterm_is_killed_with_its_tool() -> None:
    p = fake_cli("deaf")
    cli, tool = await started(p)
    await p.close(grace=0.2, term_timeout=0.5)  # the app's SIGKILL comes before the keeper's
    assert wait_until(lambda: not alive(cli) and not alive(tool), 5)
    assert reaper.marked_processes(p.marker) == []


async def test_a_cli_that_crashed_still_has_its_tool_ended() -> None:
    p = fake_cli("crash")
    _, tool = await started(p)
    await p.write(b"crash now\n")
    assert await p.wait(10) == 3
    # The keeper ended the tool when the CLI died, before anyone called close().
    assert wait_until(lambda: not alive(tool), 5)
    await p.close()


async def test_without_a_keeper_close_still_sweeps_a_dead_clis_tool() -> None:
    p = fake_cli("crash", supervise=False)
    cli, tool = await started(p)
    assert not p.supervised and p.pid == cli
    await p.write(b"crash now\n")
    assert await p.wait(10) == 3
    assert alive(tool)  # nothing watched it: the CLI died long before close()
    await p.close()
    assert wait_until(lambda: not alive(tool), 5)


async def test_kill_all_children_ends_keepers_clis_and_tools() -> None:
    p = fake_cli("deaf")
    cli, tool = await started(p)
    reaper.kill_all_children(grace=0.2)
    assert wait_until(lambda: not any(map(alive, (p.pid or 0, cli, tool))), 5)
    assert await p.wait(5) is not None


APP = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    sys.path.insert(0, {root!r})
    from claude_tui.transport.process import CliProcess
    async def main():
        p = CliProcess([sys.executable, "-c", {cli!r}, {mode!r}])
        await p.start()
        line = await p.read_line()
        print(p.marker, p.pid, line.decode(), flush=True)
        {end}
    asyncio.run(main())
    """
)


def run_app(end: str, mode: str = "sleep") -> tuple[str, list[int]]:
    """A stand-in app in its own interpreter: spawns the CLI, prints marker and pids, then `end`s."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = APP.format(root=root, cli=FAKE_CLI, mode=mode, end=end)
    app = subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE, text=True)
    assert app.stdout is not None
    line = app.stdout.readline().split()
    app.wait(30)
    marker, pids = line[0], [int(x) for x in line[1:]]
    _markers.append(marker)
    return marker, pids


@pytest.mark.parametrize("end", [
    "os.kill(os.getpid(), signal.SIGKILL)",  # kill -9 of the app
    "os.abort()",                             # a crash (SIGABRT, no atexit)
    "os._exit(1)",                            # an exit that skips every cleanup
])
def test_the_cli_and_its_tool_die_with_the_app_however_it_ends(end: str) -> None:
    marker, (keeper_pid, cli, tool) = run_app(end)
    assert wait_until(lambda: not any(map(alive, (keeper_pid, cli, tool))), 10), \
        f"left alive: {[pid for pid in (keeper_pid, cli, tool) if alive(pid)]}"
    assert reaper.marked_processes(marker) == []


def test_the_cli_dies_with_a_killed_keeper_and_the_app_sweeps_its_tool() -> None:
    # The keeper itself SIGKILLed: PR_SET_PDEATHSIG stops the CLI; the orphaned tool is found by
    # its marker when the app exits (atexit -> kill_all_children -> sweep).
    end = "os.kill(p.pid, signal.SIGKILL); await asyncio.sleep(0.5)"
    marker, (keeper_pid, cli, tool) = run_app(end)
    assert wait_until(lambda: not any(map(alive, (keeper_pid, cli, tool))), 10), \
        f"left alive: {[pid for pid in (keeper_pid, cli, tool) if alive(pid)]}"
    assert reaper.marked_processes(marker) == []


def test_keeper_passes_the_exit_status_through() -> None:
    argv = keeper.wrap([PY, "-c", "import sys; sys.exit(7)"], parent=os.getpid(), marker="X=1")
    assert subprocess.run(argv, timeout=30).returncode == 7
    argv = keeper.wrap([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"],
                       parent=os.getpid(), marker="X=1")
    assert subprocess.run(argv, timeout=30).returncode == -signal.SIGTERM


# The abandoned loop's subprocess transport complains when it is collected: expected here.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_cli_spawned_from_a_thread_that_ends_keeps_running() -> None:
    # PR_SET_PDEATHSIG fires when the parent *thread* ends; the keeper watches the app's process
    # (a pidfd), so a CLI spawned from a worker thread's event loop is not killed with that thread.
    import threading

    spawned: dict[str, object] = {}

    def spawn() -> None:
        async def go() -> None:
            p = fake_cli("sleep")
            spawned["p"] = p
            spawned["pids"] = await started(p)

        asyncio.run(go())  # the loop closes, the thread ends; nobody closed the process

    thread = threading.Thread(target=spawn)
    thread.start()
    thread.join(30)
    p = spawned["p"]
    assert isinstance(p, CliProcess) and p.pid is not None
    cli, tool = spawned["pids"]  # type: ignore[misc]
    time.sleep(1.0)
    assert alive(p.pid) and alive(cli) and alive(tool)
    os.kill(p.pid, signal.SIGTERM)  # the keeper: ends the CLI and its tool
    assert wait_until(lambda: not any(map(alive, (cli, tool))), 10)
