"""Many transcripts scanned at once, on every core, for a cold `claude-tui usage`.

A first report reads every transcript (hundreds of MB for a long history), and the scan of one file
does not depend on any other: it runs in worker processes while this process stores what they found,
in the order asked. Workers are forked, so they start at once with the modules already loaded, and
only while this process runs a single thread: a fork copies the calling thread alone, and a lock
another thread held at that moment (an import, a buffer, the allocator) would stay held in the child
for good. So in the app (Textual's threads) and for a few files the scan runs here, one file after
another, as before. A worker is SIGKILLed by the kernel when this process ends (``PR_SET_PDEATHSIG``),
so none outlives a kill -9.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Iterator, Sequence

from claude_tui.transport.keeper import die_with_parent

from .rows import UsageScan
from .scan import scan_usage

MIN_FILES = 64
"""Fewer files than this are scanned here: starting workers would cost more than it saves."""
MAX_WORKERS = 8
CHUNK = 16
"""Files handed to a worker at a time: few round trips, and the order of results stays cheap to keep."""


def workers_for(files: int) -> int:
    """How many worker processes a scan of ``files`` transcripts gets (1: none, scan here)."""
    if files < MIN_FILES or not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS, files // CHUNK))


def scans(jobs: Sequence[tuple[str, int]]) -> Iterator[UsageScan]:
    """``scan_usage(path, offset)`` of each job, in the order given."""
    workers = workers_for(len(jobs))
    if workers <= 1:
        for path, offset in jobs:
            yield scan_usage(path, offset)
        return
    context = multiprocessing.get_context("fork")
    # Leaving the block (done, or the consumer stopped early) terminates the pool: no worker is left.
    with context.Pool(workers, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
        yield from pool.imap(_scan, jobs, chunksize=CHUNK)


def _scan(job: tuple[str, int]) -> UsageScan:
    return scan_usage(*job)
