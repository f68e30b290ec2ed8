"""Many transcripts scanned at once, on every core, for a cold `claude-tui usage`.

A first report reads every transcript (hundreds of MB for a long history), and the scan of one file
does not depend on any other: it runs in worker processes while this process stores what they found,
in the order asked. Workers are forked, so they start at once with the modules already loaded, and
only while this process runs a single thread: a fork copies the calling thread alone, and a lock
another thread held at that moment (an import, a buffer, the allocator) would stay held in the child
for good. So in the app (Textual's threads) and for a few files the scan runs here, one file after
another. A worker is SIGKILLed by the kernel when this process ends (``PR_SET_PDEATHSIG``), so none
outlives a kill -9.

Each worker is dealt its share of the files up front, by size (the scan's cost goes with the bytes
read), and writes each file's scan down a pipe of its own as it finishes it, in `marshal` (plain
tuples, dicts and numbers: the cheapest to write and to read back). This process reads every pipe as
data comes and hands the scans on in the order asked. No helper thread, no task queue: a
`multiprocessing.Pool` spent more of this process's time on its own threads than the rows took to store.
"""

from __future__ import annotations

import marshal
import os
import selectors
import signal
import threading
from collections.abc import Iterator, Sequence

from claude_tui.transport.keeper import die_with_parent

from .rows import UsageScan
from .scan import scan_usage

MIN_FILES = 64
"""Fewer files than this are scanned here: starting workers would cost more than it saves."""
MAX_WORKERS = 8
PER_WORKER = 16
"""At least this many files a worker: fewer, and its start costs more than it saves."""
_PER_FILE_BYTES = 16 * 1024
"""What opening a file and listing its calls cost, as bytes read (so many small files weigh too)."""
_LENGTH = 4  # each scan goes down the pipe after its length, in this many bytes


def workers_for(files: int) -> int:
    """How many worker processes a scan of ``files`` transcripts gets (1: none, scan here)."""
    if files < MIN_FILES or not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS, files // PER_WORKER))


Job = tuple[str, int, bool]
"""(path, offset, sums?): what :func:`scan_usage` is asked."""


def scans(jobs: Sequence[Job], sizes: Sequence[int] | None = None) -> Iterator[UsageScan]:
    """``scan_usage(*job)`` of each job, in the order given; ``sizes``: the bytes each will read."""
    workers = workers_for(len(jobs))
    if workers <= 1:
        for job in jobs:
            yield scan_usage(*job)
        return
    owner = _deal(sizes if sizes is not None else [0] * len(jobs), workers)
    parent = os.getpid()
    pids: list[int] = []
    pipes: list[int] = []
    try:
        for worker in range(workers):
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child never returns (its coverage is not collected)
                _work(parent, jobs, [i for i, w in enumerate(owner) if w == worker], write, read, pipes)
            os.close(write)
            pids.append(pid)
            pipes.append(read)
        yield from _collect(jobs, owner, pipes)
    finally:
        # Done, failed, or the consumer stopped early: no worker is left running or unreaped.
        for read in pipes:
            os.close(read)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)


def _deal(sizes: Sequence[int], workers: int) -> list[int]:
    """The worker of each job: the next job goes to the one with the fewest bytes so far."""
    load = [0] * workers
    owner = []
    for size in sizes:
        worker = load.index(min(load))
        owner.append(worker)
        load[worker] += max(size, 0) + _PER_FILE_BYTES
    return owner


def _work(parent: int, jobs: Sequence[Job], mine: list[int], write: int, read: int,
          others: list[int]) -> None:  # pragma: no cover - runs in the forked child
    status = 1
    try:
        die_with_parent(parent)
        os.close(read)
        for fd in others:  # the pipes of the workers forked before this one
            os.close(fd)
        with os.fdopen(write, "wb", buffering=1 << 16) as out:
            for i in mine:
                scan = scan_usage(*jobs[i])
                blob = marshal.dumps((scan.offset, scan.rows, scan.cost_state, scan.cwd, scan.started,
                                      scan.head_sig, scan.sums))
                out.write(len(blob).to_bytes(_LENGTH, "little"))
                out.write(blob)
        status = 0
    finally:
        os._exit(status)  # never back into the parent's code (its connection, its finalizers)


def _collect(jobs: Sequence[Job], owner: list[int], pipes: list[int]) -> Iterator[UsageScan]:
    buffers = [bytearray() for _ in pipes]
    taken = [0] * len(pipes)  # how much of each buffer was handed on already
    ended: set[int] = set()  # workers whose pipe closed
    with selectors.DefaultSelector() as selector:
        for worker, fd in enumerate(pipes):
            selector.register(fd, selectors.EVENT_READ, worker)
        for job, worker in zip(jobs, owner):
            while (scan := _next(buffers[worker], taken, worker)) is None and worker not in ended:
                for key, _ in selector.select():
                    data = os.read(key.fd, 1 << 20)
                    if data:
                        buffers[key.data] += data
                    else:
                        selector.unregister(key.fd)
                        ended.add(key.data)
            # A worker that ended short (killed, out of memory, a bug): its files are scanned here,
            # where an error, if it was one, is raised as it is.
            yield scan if scan is not None else scan_usage(*job)


def _next(buffer: bytearray, taken: list[int], worker: int) -> UsageScan | None:
    at = taken[worker]
    if len(buffer) - at < _LENGTH:
        return None
    length = int.from_bytes(buffer[at:at + _LENGTH], "little")
    end = at + _LENGTH + length
    if len(buffer) < end:
        return None
    offset, rows, cost_state, cwd, started, head_sig, sums = marshal.loads(buffer[at + _LENGTH:end])
    if end > 1 << 20:  # drop what was handed on, now and then (not at every scan: it moves the rest)
        del buffer[:end]
        end = 0
    taken[worker] = end
    return UsageScan(offset=offset, rows=rows, cost_state=cost_state, cwd=cwd, started=started, head_sig=head_sig,
                     sums=sums)
