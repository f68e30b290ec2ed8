"""The keeper: a tiny supervisor between claude-tui and the CLI, so nothing outlives the app.

claude-tui runs ``python -I -S keeper.py --parent PID --marker NAME=VALUE -- claude ...`` (see
`wrap`). The keeper forks the CLI and then only watches. It is a *child subreaper*
(``PR_SET_CHILD_SUBREAPER``): whatever the CLI starts stays below it even when the CLI dies,
although Claude Code runs its Bash tools in their own sessions, out of the CLI's process group.

* The CLI exits (EOF, crash): the keeper ends everything still below it (SIGTERM, a short grace,
  SIGKILL) and exits with the CLI's status.
* SIGTERM/SIGHUP/SIGINT to the keeper: the CLI gets SIGTERM, ``--term-grace`` s, then SIGKILL;
  then the same cleanup.
* claude-tui dies, however (kill -9 too): the keeper sees it through a pidfd of the parent (or,
  without pidfds, by polling ``getppid``) and stops the CLI the same way. The CLI's stdin also hits
  EOF then, but Claude Code waits for a running tool first (seen: five minutes of ``sleep``).
* The keeper itself is SIGKILLed: the CLI has ``PR_SET_PDEATHSIG`` = SIGKILL, set in the forked
  child of this single-threaded process (safe here, unlike ``preexec_fn`` in the threaded app);
  claude-tui then finds the tools by the marker variable (`reaper`).

Besides the process tree the keeper also ends any process carrying its exact marker in
``/proc/PID/environ`` (a tool that escaped the tree some other way).

Standalone on purpose: stdlib only, nothing from claude_tui (no pydantic import per spawn), so
``-I -S`` starts it in a few tens of milliseconds; `_signal` and `select.poll` rather than `signal`
and `selectors`, whose imports of enum and collections took 20-35 ms a spawn on a loaded machine.
Linux only (prctl, /proc); `supported()` says whether it can be used, and `process.CliProcess`
spawns the CLI directly where it cannot.
"""

from __future__ import annotations

import os
import select
import sys
import time

# Not `typing.TYPE_CHECKING`: importing typing adds ~12 ms to the keeper's start; mypy takes any
# name TYPE_CHECKING as true. Typeshed has no `_signal`; `signal` declares the same functions.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
else:
    import _signal as signal  # the C module: the `signal` wrapper imports enum (half the keeper's start)

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
DEFAULT_TERM_GRACE = 1.5
"""Seconds between SIGTERM and SIGKILL for the CLI when the keeper is told to stop."""
LEFTOVER_GRACE = 0.3
"""Seconds the CLI's leftovers get between SIGTERM and SIGKILL once the CLI is gone."""


def supported() -> bool:
    return sys.platform.startswith("linux") and os.path.isdir("/proc/self/task")


def wrap(argv: list[str], *, parent: int, marker: str, term_grace: float = DEFAULT_TERM_GRACE) -> list[str]:
    """The argv that runs `argv` under a keeper. `marker` is ``NAME=VALUE``, set in the CLI's env
    by the caller; the keeper ends every process carrying exactly that entry."""
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), "--parent", str(parent), "--marker", marker,
            "--term-grace", str(term_grace), "--", *argv]


def die_with_parent(parent: int) -> bool:
    """In a forked child: the kernel SIGKILLs this process when ``parent`` (the thread that forked it)
    ends; a child whose parent is already gone exits at once. False where prctl is missing."""
    armed = _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)
    return armed


# -- the keeper process ------------------------------------------------------------------------

def _prctl(option: int, arg: int) -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, arg, 0, 0, 0)) == 0
    except Exception:  # noqa: BLE001 - no libc/prctl: degrade, the other mechanisms remain
        return False


def _stat(pid: str) -> tuple[int, str] | None:
    """(ppid, state) of a process, None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    rest = data[data.rfind(b")") + 2 :].split()
    return int(rest[1]), rest[0].decode()


def _carries(pid: str, needle: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return needle in f.read().split(b"\0")
    except OSError:
        return False


def victims(root: int, needle: bytes | None) -> set[int]:
    """Live processes below `root` (by parent links), plus those whose environment holds `needle`."""
    children: dict[int, list[int]] = {}
    marked: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == root:
            continue
        info = _stat(entry)
        if info is None or info[1] in ("Z", "X"):
            continue
        children.setdefault(info[0], []).append(int(entry))
        if needle is not None and _carries(entry, needle):
            marked.add(int(entry))
    found: set[int] = set()
    todo = [root]
    while todo:
        for pid in children.get(todo.pop(), ()):
            if pid not in found:
                found.add(pid)
                todo.append(pid)
    return found | marked


def _reap() -> list[tuple[int, int]]:
    reaped: list[tuple[int, int]] = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped
        if pid == 0:
            return reaped
        reaped.append((pid, status))


def end_all(root: int, needle: bytes | None, grace: float) -> None:
    """SIGTERM everything below `root` (and marked), wait up to `grace`, then SIGKILL until none
    is left. Orphans reparent to us (subreaper): reaping them keeps them from lingering as zombies."""
    pids = victims(root, needle)
    if not pids:
        return
    for pid in pids:
        _kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while pids and time.monotonic() < deadline:
        time.sleep(0.02)
        _reap()
        pids = victims(root, needle)
    for _ in range(50):  # a process may fork between the scan and the kill: go again
        if not pids:
            return
        for pid in pids:
            _kill(pid, signal.SIGKILL)
        time.sleep(0.01)
        _reap()
        pids = victims(root, needle)


def _kill(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _exit_like(status: int) -> None:
    """Exit the way the CLI did, so claude-tui sees its status."""
    sys.stdout.flush()
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        if sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL):
            os.kill(os.getpid(), sig)  # no core dumps for the others: they exit 128+N
        os._exit(128 + sig)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def _parse(argv: list[str]) -> tuple[int, str, float, list[str]]:
    if "--" not in argv:
        raise SystemExit("keeper: usage: keeper.py --parent PID --marker NAME=VALUE [--term-grace S] -- CMD...")
    cut = argv.index("--")
    opts, command = argv[:cut], argv[cut + 1 :]
    values = dict(zip(opts[::2], opts[1::2], strict=False))
    if not command:
        raise SystemExit("keeper: no command")
    return int(values["--parent"]), values.get("--marker", ""), float(values.get("--term-grace",
                                                                                 DEFAULT_TERM_GRACE)), command


def main(argv: list[str]) -> None:
    parent, marker, term_grace, command = _parse(argv)
    if os.getppid() != parent:
        os._exit(1)  # claude-tui died before we got here: start nothing
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    try:
        parent_fd: int | None = os.pidfd_open(parent)
    except (AttributeError, OSError):
        parent_fd = None  # old kernel: poll getppid() instead
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    os.set_blocking(wake_r, False)
    for sig in (*STOP_SIGNALS, signal.SIGCHLD):
        signal.signal(sig, lambda *_: None)  # a Python handler is what makes set_wakeup_fd report it
    signal.set_wakeup_fd(wake_w)
    me = os.getpid()
    child = os.fork()
    if child == 0:  # the CLI-to-be: nothing but syscalls until exec
        signal.set_wakeup_fd(-1)
        for sig in (*STOP_SIGNALS, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != me:
            os._exit(1)
        for fd in (wake_r, wake_w, *([parent_fd] if parent_fd is not None else [])):
            os.close(fd)
        try:
            os.execvp(command[0], command)
        except OSError as error:
            os.write(2, f"claude-tui: cannot run {command[0]}: {error}\n".encode(errors="replace"))
        os._exit(127)
    # Only the CLI holds the app's stdin/stdout pipes: their EOF means what it meant without us.
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)
    needle = marker.encode() if marker else None
    status = _watch(child, parent, parent_fd, wake_r, term_grace)
    end_all(me, needle, LEFTOVER_GRACE)
    _exit_like(status)


def _watch(child: int, parent: int, parent_fd: int | None, wake_r: int, term_grace: float) -> int:
    """Wait for the CLI to exit, stopping it when told to or when claude-tui dies. Its wait status."""
    poller = select.poll()
    poller.register(wake_r, select.POLLIN)
    if parent_fd is not None:
        poller.register(parent_fd, select.POLLIN)
    stopping = False
    kill_at: float | None = None
    while True:
        timeout = 0.5 if parent_fd is None and not stopping else None
        if kill_at is not None:
            left = max(0.0, kill_at - time.monotonic())
            timeout = left if timeout is None else min(timeout, left)
        ready = poller.poll(None if timeout is None else timeout * 1000)  # milliseconds
        signals: set[int] = set()
        try:
            signals = set(os.read(wake_r, 1024))
        except BlockingIOError:
            pass
        for pid, status in _reap():
            if pid == child:
                return status
        if stopping:
            if kill_at is not None and time.monotonic() >= kill_at:
                _kill(child, signal.SIGKILL)
                kill_at = None  # now only its exit is awaited
            continue
        parent_gone = any(fd == parent_fd for fd, _ in ready) or (parent_fd is None and os.getppid() != parent)
        if parent_gone or signals & set(STOP_SIGNALS):
            stopping = True
            if parent_fd is not None:
                poller.unregister(parent_fd)  # stays readable: it must not wake us again
            _kill(child, signal.SIGTERM)
            kill_at = time.monotonic() + term_grace


if __name__ == "__main__":
    main(sys.argv[1:])
