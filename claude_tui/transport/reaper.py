"""Making sure no CLI process outlives the app.

Every spawned CLI leads its own process group (``start_new_session=True``),
so signalling the group also reaches the tools it started (Bash commands,
MCP servers). Live groups are kept in a module-level registry:

* an ``atexit`` hook kills whatever is left when the interpreter exits;
* `kill_all_children()` is for the app's SIGTERM/SIGHUP handlers (atexit does
  not run when a signal kills Python).

Why no ``PR_SET_PDEATHSIG``: setting it needs code in the child between fork
and exec, i.e. ``preexec_fn``, which CPython documents as unsafe when threads
exist (Textual runs worker threads; a lock held by another thread at fork can
deadlock the child). It is also tied to the *thread* that forked, not the
process, so a CLI spawned from a worker thread's loop would die when that
thread ends. A `setpriv --pdeathsig` wrapper would avoid preexec_fn but not
the thread problem. Instead we rely on: the CLI exits when its stdin hits EOF
(which the kernel delivers when we die, even by SIGKILL, since we hold the
only write end), plus this registry for every orderly or signalled exit.
"""

from __future__ import annotations

import atexit
import os
import signal
import threading
import time

_lock = threading.Lock()
_groups: set[int] = set()  # pgids (== the leader's pid)


def register(pgid: int) -> None:
    with _lock:
        _groups.add(pgid)


def unregister(pgid: int) -> None:
    with _lock:
        _groups.discard(pgid)


def registered() -> set[int]:
    with _lock:
        return set(_groups)


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to a group; False if nothing is left in it."""
    try:
        os.killpg(pgid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def kill_all_children(grace: float = 0.0) -> None:
    """SIGTERM every registered group, wait up to ``grace`` s, then SIGKILL.

    Synchronous and signal-handler safe enough (no asyncio, no allocation-
    heavy work). Zombies count as alive for ``killpg(…, 0)``, so the wait is
    bounded by ``grace`` rather than by reaping.
    """
    groups = registered()
    if not groups:
        return
    if grace > 0:
        for pgid in groups:
            _signal_group(pgid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and any(_group_alive(g) for g in groups):
            time.sleep(0.02)
    for pgid in groups:
        _signal_group(pgid, signal.SIGKILL)
        unregister(pgid)


def _atexit() -> None:
    kill_all_children(grace=0.3)


atexit.register(_atexit)
