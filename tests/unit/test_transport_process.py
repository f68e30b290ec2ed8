"""CliProcess at the byte level, against small python child processes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from claude_tui.transport import reaper
from claude_tui.transport.debuglog import DebugLog
from claude_tui.transport.process import CliProcess, LineSplitter

PY = sys.executable


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) pids whose process group is ``pgid``, via /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        rest = stat[stat.rindex(")") + 2 :].split()
        state, pgrp = rest[0], int(rest[2])
        if pgrp == pgid and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def child(code: str, **kw: object) -> CliProcess:
    return CliProcess([PY, "-c", textwrap.dedent(code)], **kw)  # type: ignore[arg-type]


# -- LineSplitter ------------------------------------------------------------


def test_splitter_handles_lines_across_chunks() -> None:
    s = LineSplitter()
    assert s.feed(b"ab") == []
    assert s.feed(b"c\nd") == [b"abc"]
    assert s.feed(b"\n\nxyz") == [b"d", b""]
    assert s.flush() == b"xyz"
    assert s.flush() is None


def test_splitter_many_lines_in_one_chunk() -> None:
    s = LineSplitter()
    assert s.feed(b"1\n2\n3\n") == [b"1", b"2", b"3"]
    assert s.pending_bytes == 0


# -- reading -----------------------------------------------------------------


async def test_reads_a_64_mib_line() -> None:
    size = 64 * 1024 * 1024
    p = child(
        f"""
        import sys
        out = sys.stdout.buffer
        out.write(b'{{"type":"assistant","text":"' + b"x" * {size} + b'"}}\\n')
        out.write(b'{{"type":"after"}}\\r\\n')
        out.flush()
        """
    )
    await p.start()
    line = await p.read_line()
    assert line is not None and len(line) == size + len(b'{"type":"assistant","text":""}')
    assert line.endswith(b'x"}')
    assert await p.read_line() == b'{"type":"after"}'  # \r stripped
    assert await p.read_line() is None
    assert await p.close() == 0


READER_SCRIPT = """
import asyncio, resource, sys
from claude_tui.transport.process import CliProcess
SIZE = 64 * 1024 * 1024
async def main():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    p = CliProcess([sys.executable, "-c",
        "import sys; o=sys.stdout.buffer; o.write(b'x' * %d + b'\\\\n'); o.flush()" % SIZE])
    await p.start()
    line = await p.read_line()
    assert len(line) == SIZE, len(line)
    del line
    await p.close()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) * 1024)
asyncio.run(main())
"""


def test_64_mib_line_memory_is_bounded() -> None:
    """Peak RSS growth stays within a small multiple of the line (chunks +
    one joined copy), i.e. no quadratic or runaway buffering."""
    out = subprocess.run([PY, "-c", READER_SCRIPT], capture_output=True, text=True, timeout=120, check=True)
    growth = int(out.stdout.strip())
    assert growth < 64 * 1024 * 1024 * 3, f"peak RSS grew by {growth / 2**20:.0f} MiB"


async def test_unterminated_last_line_is_delivered() -> None:
    p = child("import sys; sys.stdout.write('one\\ntwo'); sys.stdout.flush()")
    await p.start()
    assert await p.read_line() == b"one"
    assert await p.read_line() == b"two"
    assert await p.read_line() is None
    await p.close()


# -- stderr ------------------------------------------------------------------


async def test_stderr_flood_is_drained_and_bounded() -> None:
    p = child(
        """
        import sys
        chunk = b"e" * 1023 + b"\\n"
        for _ in range(10 * 1024):          # 10 MiB
            sys.stderr.buffer.write(chunk)
        sys.stderr.buffer.write(b"LAST-LINE\\n")
        sys.stderr.flush()
        print("done", flush=True)
        """,
        stderr_tail_bytes=64 * 1024,
    )
    await p.start()
    # If stderr were not drained the child would block on a full pipe and
    # never print "done".
    line = await asyncio.wait_for(p.read_line(), 30)
    assert line == b"done"
    assert await p.wait(10) == 0
    assert len(p._stderr_tail) <= 64 * 1024
    assert p.stderr_tail.endswith("LAST-LINE\n")


async def test_exit_code_and_stderr_tail() -> None:
    p = child("import sys; sys.stderr.write('Invalid API key\\n'); sys.exit(3)")
    await p.start()
    assert await p.read_line() is None
    assert await p.wait(10) == 3
    assert "Invalid API key" in p.stderr_tail
    assert not p.running


# -- writing -----------------------------------------------------------------

ECHO = """
import sys
for line in sys.stdin.buffer:
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
"""


async def test_concurrent_writes_never_interleave() -> None:
    p = child(ECHO)
    await p.start()
    n = 40
    payloads = [(chr(ord("a") + i % 26) * (200_000 + i * 1000)).encode() + b"\n" for i in range(n)]

    async def reader() -> list[bytes]:
        return [await p.read_line() for _ in range(n)]  # type: ignore[misc]

    read_task = asyncio.create_task(reader())
    results = await asyncio.gather(*(p.write(data) for data in payloads))
    assert all(results)
    lines = await asyncio.wait_for(read_task, 60)
    assert sorted(lines) == sorted(d[:-1] for d in payloads)
    for line in lines:
        assert len(set(line)) == 1  # one writer's bytes only
    await p.close()


async def test_write_after_exit_returns_false() -> None:
    p = child("pass")
    await p.start()
    await p.wait(10)
    assert await p.write(b'{"type":"user"}\n') is False
    await p.close()


async def test_write_to_a_child_that_closed_stdin_returns_false() -> None:
    p = child("import os, time; os.close(0); time.sleep(30)")
    await p.start()
    await asyncio.sleep(0.3)
    ok = True
    for _ in range(50):  # the first write may still land in the pipe buffer
        ok = await p.write(b"x" * 65536 + b"\n")
        if not ok:
            break
    assert ok is False
    await p.close(grace=0.1, term_timeout=1)


async def test_debug_log_records_both_directions(tmp_path: Path) -> None:
    log = DebugLog(tmp_path / "debug.log")
    p = child(ECHO + "\nimport sys; sys.stderr.write('bye\\n')", debug_log=log)
    await p.start()
    await p.write(b'{"type":"ping"}\n')
    assert await p.read_line() == b'{"type":"ping"}'
    await p.close()
    log.close()
    text = (tmp_path / "debug.log").read_text()
    assert '>> {"type":"ping"}' in text
    assert '<< {"type":"ping"}' in text
    assert "!! bye" in text
    assert "-- spawned pid" in text


# -- shutdown ----------------------------------------------------------------


async def test_close_is_graceful_when_child_exits_on_eof() -> None:
    p = child("import sys; sys.stdin.read(); sys.stderr.write('flushed transcript\\n')")
    await p.start()
    started = time.monotonic()
    assert await p.close(grace=5, term_timeout=5) == 0
    assert time.monotonic() - started < 3
    assert "flushed transcript" in p.stderr_tail


async def test_close_escalates_to_sigterm() -> None:
    p = child("import time; time.sleep(60)")  # ignores stdin EOF
    await p.start()
    assert await p.close(grace=0.2, term_timeout=5) == -signal.SIGTERM


async def test_close_escalates_to_sigkill_and_leaves_no_process() -> None:
    p = child(
        """
        import signal, subprocess, sys, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        # a grandchild in the same group, also deaf to TERM
        subprocess.Popen([sys.executable, "-c",
            "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"])
        print("ready", flush=True)
        time.sleep(60)
        """
    )
    await p.start()
    assert await p.read_line() == b"ready"
    pid = p.pid
    assert pid is not None
    assert len(group_members(pid)) == 2 + p.supervised  # the CLI, its grandchild (and the keeper)
    started = time.monotonic()
    assert await p.close(grace=0.2, term_timeout=0.3) == -signal.SIGKILL
    assert time.monotonic() - started < 5
    for _ in range(50):
        if not group_members(pid):
            break
        await asyncio.sleep(0.05)
    assert group_members(pid) == []
    assert pid not in reaper.registered()


async def test_kill_all_children_kills_registered_groups() -> None:
    p = child("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); time.sleep(60)")
    await p.start()
    assert await p.read_line() == b"ready"
    assert p.pid in reaper.registered()
    reaper.kill_all_children(grace=0.1)
    assert await p.wait(5) == -signal.SIGKILL
    assert p.pid not in reaper.registered()


def test_atexit_hook_kills_children_of_a_dying_interpreter(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import asyncio, sys
        from claude_tui.transport.process import CliProcess
        async def main():
            p = CliProcess([sys.executable, "-c",
                "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"])
            await p.start()
            print(p.pid, flush=True)
        asyncio.run(main())   # returns without closing: atexit must clean up
        """
    )
    out = subprocess.run([PY, "-c", script], capture_output=True, text=True, timeout=30, check=True)
    pid = int(out.stdout.strip())
    deadline = time.monotonic() + 5
    while group_members(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group_members(pid) == []


def test_new_session_isolates_terminal_signals() -> None:
    # start_new_session: the child leads its own group (pgid == pid), so a
    # Ctrl-C delivered to our group does not hit the CLI directly.
    async def run() -> None:
        p = child("import os; print(os.getpgrp(), os.getpid(), flush=True)")
        await p.start()
        line = await p.read_line()
        assert line is not None
        pgrp, pid = map(int, line.split())
        assert pgrp == p.pid  # the group the keeper leads (or the CLI itself, without one)
        assert pid == p.pid or p.supervised
        assert pgrp != os.getpgrp()
        await p.close()

    asyncio.run(run())


def test_json_roundtrip_sanity() -> None:
    # guards the test scripts' own quoting
    assert json.loads(b'{"type":"after"}') == {"type": "after"}


# -- waiting for the exit ----------------------------------------------------

async def test_waiting_for_exit_does_not_poll_while_the_cli_runs(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The app waits for the CLI's exit for a whole session: it must not wake the loop 20 times a
    second to look (that was most of an idle app's CPU), yet see the exit at once."""
    p = child("import sys; sys.stdin.read()")  # runs until its stdin closes
    await p.start()
    wakes = 0
    real_wait = asyncio.wait

    async def counting_wait(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal wakes
        wakes += 1
        return await real_wait(*args, **kwargs)

    monkeypatch.setattr(asyncio, "wait", counting_wait)
    waiter = asyncio.create_task(p.wait_exit())
    await asyncio.sleep(0.6)
    assert not waiter.done()
    assert wakes <= 2  # a 50 ms poll would have looked ~12 times
    began = time.monotonic()
    await p.close()
    assert await asyncio.wait_for(waiter, 10) is not None
    assert time.monotonic() - began < 5


async def test_the_exit_is_seen_while_a_grandchild_still_holds_the_pipes() -> None:
    # asyncio's own wait for the process ends only once every pipe is closed; the pidfd must be heard
    # first (without a keeper nothing ends the grandchild: the session's orphan watchdog needs this).
    p = child(
        """
        import subprocess
        subprocess.Popen(["sleep", "3"])  # inherits stdout and stderr, outlives its parent
        """,
        supervise=False,
    )
    await p.start()
    start = time.monotonic()
    try:
        assert await p.wait_exit(10) == 0
        assert time.monotonic() - start < 1.5, "waited for the grandchild to let go of the pipes"
    finally:
        p.kill_group()
        await p.close()
