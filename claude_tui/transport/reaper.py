"""Making sure no process we started outlives the app — the app's side.

Each CLI runs under a keeper (`keeper.py`: a subreaper that stops the CLI and everything below it
when the CLI exits, when told to, or when the app dies, even by SIGKILL) and leads its own process
group. Every spawned process also carries a marker variable, ``CLAUDE_TUI_RUN=<run>.<n>``: unique
per app run (``<run>``) and per spawn (``<n>``), inherited by everything the CLI starts. That is how
stragglers are found without trusting names or the process tree (Claude Code runs Bash tools in
their own sessions; orphans reparent to init if the keeper itself was killed):

* `sweep(marker)` SIGKILLs every live process carrying a marker (a prefix matches a whole run);
* an ``atexit`` hook and `kill_all_children()` (for the app's signal handlers and its shutdown
  watchdog; atexit does not run when a signal kills Python) end every registered group and then
  sweep the whole run.
"""

from __future__ import annotations

import atexit
import itertools
import os
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from claude_tui.transport import keeper as _keeper  # (`keeper` below is a flag: whether a group leader is one)

__all__ = ["MARKER_VAR", "RUN_TOKEN", "new_marker", "register", "unregister", "registered", "sweep",
           "marked_processes", "kill_all_children"]

MARKER_VAR = "CLAUDE_TUI_RUN"
# os.urandom is what secrets.token_hex reads, without the ~4 ms of importing it before the first spawn.
RUN_TOKEN = f"{os.getpid()}.{os.urandom(6).hex()}"
"""This app run's part of every marker value."""

_lock = threading.Lock()
_groups: dict[int, bool] = {}  # pgid (== the leader's pid) -> the leader is a keeper
_counter = itertools.count(1)
_spawned = False  # nothing to sweep in a process that never spawned anything


def new_marker() -> str:
    """A fresh marker value for one spawn (put it in the child's env as ``MARKER_VAR``)."""
    global _spawned
    _spawned = True
    return f"{RUN_TOKEN}.{next(_counter)}"


class Marked(NamedTuple):
    """A command and environment fit to spawn: see `marked`."""

    argv: list[str]
    env: dict[str, str]
    marker: str
    kept: bool
    """Whether `argv` runs the command under a keeper."""


def marked(argv: Sequence[str], env: Mapping[str, str], *, keep: bool) -> Marked:
    """`argv` and `env` for a spawn that must not outlive us: `env` gets a fresh marker and, with `keep`
    where the keeper works (`keeper.supported`), the command runs under a keeper that watches this process."""
    marker = new_marker()
    kept = keep and _keeper.supported()
    command = _keeper.wrap(list(argv), parent=os.getpid(), marker=f"{MARKER_VAR}={marker}") if kept else list(argv)
    return Marked(command, {**env, MARKER_VAR: marker}, marker, kept)


def register(pgid: int, keeper: bool = False) -> None:
    with _lock:
        _groups[pgid] = keeper


def unregister(pgid: int) -> None:
    with _lock:
        _groups.pop(pgid, None)


def registered() -> set[int]:
    with _lock:
        return set(_groups)


def marked_processes(marker: str) -> list[int]:
    """Live (non-zombie) processes, other than us, whose ``MARKER_VAR`` equals `marker` or, when
    `marker` ends with ".", starts with it."""
    prefix = f"{MARKER_VAR}={marker}".encode()
    exact = not marker.endswith(".")
    found = []
    me = os.getpid()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read()
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        if prefix not in env:
            continue
        if not any(item == prefix if exact else item.startswith(prefix) for item in env.split(b"\0")):
            continue
        if stat[stat.rfind(b")") + 2 :].split()[0] not in (b"Z", b"X"):
            found.append(int(entry))
    return found


def sweep(marker: str, rounds: int = 20) -> list[int]:
    """SIGKILL every live process carrying `marker` (see `marked_processes`); repeated, since one
    may fork between the scan and the kill. The pids that were signalled."""
    killed: list[int] = []
    empty = 0
    for _ in range(rounds):
        pids = marked_processes(marker)
        if not pids:
            # Twice: a process in the middle of an exec shows an empty environ for a moment.
            empty += 1
            if empty == 2:
                break
            time.sleep(0.01)
            continue
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)
    return killed


def _signal(pid: int, sig: int, group: bool) -> bool:
    try:
        (os.killpg if group else os.kill)(pid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _alive(pgid: int) -> bool:
    return _signal(pgid, 0, group=True)


def kill_all_children(grace: float = 0.0) -> None:
    """SIGTERM every registered group (a keeper alone: it stops its CLI with SIGTERM, then ends
    what it left), wait up to ``grace`` s, then SIGKILL the groups and sweep this run's marker.

    Synchronous, no asyncio: fit for signal handlers, atexit and the shutdown watchdog thread.
    Zombies count as alive for ``killpg(…, 0)``, so the wait is bounded by ``grace``.
    """
    with _lock:
        groups = dict(_groups)
    if grace > 0 and groups:
        for pgid, keeper in groups.items():
            _signal(pgid, signal.SIGTERM, group=not keeper)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and any(_alive(g) for g in groups):
            time.sleep(0.02)
    for pgid in groups:
        _signal(pgid, signal.SIGKILL, group=True)
        unregister(pgid)
    if _spawned:
        sweep(RUN_TOKEN + ".")


def _atexit() -> None:
    kill_all_children(grace=0.3)


atexit.register(_atexit)
