"""The first CLI, started while the app is still loading.

Claude Code takes about 0.4 s from exec to answering `initialize`, and loading the app (Textual,
the widgets, the protocol models) takes about as long again; started one after the other, the CLI
was ready a second after launch. So the launcher starts the first CLI as soon as its command line
is known (`spawn`), and the first `CliProcess` to start with exactly that command line, directory
and environment adopts it (`take`) instead of spawning its own. It is spawned as `CliProcess` would
(own session, under a keeper, with a marker, registered with the reaper), so it cannot outlive us
even if the app never starts; one nobody adopted is ended by `discard`.

Nothing here imports asyncio (~17 ms, before the spawn): making the early CLI an asyncio child
is `adopted.py`'s, once the app's event loop runs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claude_tui.protocol.builders import encode_line
from claude_tui.transport import reaper

__all__ = ["EarlyCli", "discard", "end", "spawn", "take"]


@dataclass
class EarlyCli:
    argv: list[str]
    cwd: str | None
    env: dict[str, str]
    """The environment asked for, without the marker (what a later `CliProcess` is matched on)."""
    marker: str
    supervised: bool
    popen: subprocess.Popen[bytes]
    sent: tuple[Mapping[str, Any], ...] = ()
    """Control requests written to it at its spawn: the adopter awaits their answers (`ClaudeClient`)."""


_early: EarlyCli | None = None


def spawn(argv: Sequence[str], cwd: str | None, env: Mapping[str, str],
          requests: Sequence[Mapping[str, Any]] = ()) -> EarlyCli | None:
    """Start the CLI now, for the first `CliProcess` with the same `argv`, `cwd` and `env` to adopt, and
    write `requests` to it (the pipe holds them until it reads). None when it could not be started:
    the app then spawns it as usual and reports what fails.

    One already started with the same `argv`, `cwd` and `env` is kept (and returned, with the requests
    it was sent): the launcher starts one from a first reading of the config and asks again once the
    config is validated. One started with anything else is ended and this one started instead."""
    global _early
    if _early is not None:
        if _matches(_early, argv, cwd, env):
            return _early
        discard()
    spawn = reaper.marked(argv, env, keep=True)
    try:
        popen = subprocess.Popen(spawn.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 cwd=cwd, env=spawn.env, start_new_session=True)
    except OSError:
        return None
    reaper.register(popen.pid, keeper=spawn.kept)
    sent: tuple[Mapping[str, Any], ...] = ()
    if requests and popen.stdin is not None:
        try:
            popen.stdin.write(b"".join(encode_line(request) for request in requests))
            popen.stdin.flush()
            sent = tuple(requests)
        except OSError:
            pass  # it died at once: `take` finds it gone, and the app spawns its own
    _early = EarlyCli(list(argv), cwd, dict(env), spawn.marker, spawn.kept, popen, sent)
    return _early


def take(argv: Sequence[str], cwd: str | None, env: Mapping[str, str]) -> EarlyCli | None:
    """The early CLI if it was started with exactly this command line, directory and environment
    (and is still running); it is then no longer anyone else's."""
    global _early
    early = _early
    if early is None or not _matches(early, argv, cwd, env):
        return None
    _early = None
    if early.popen.poll() is not None:
        end(early)
        return None
    return early


def _matches(early: EarlyCli, argv: Sequence[str], cwd: str | None, env: Mapping[str, str]) -> bool:
    return early.argv == list(argv) and early.cwd == cwd and early.env == dict(env)


def discard() -> None:
    """End the early CLI if nobody adopted it (the app started another one, or none)."""
    global _early
    early, _early = _early, None
    if early is not None:
        end(early)


def end(early: EarlyCli) -> None:
    """Kill `early` and whatever it started, and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(early.popen.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        early.popen.wait(1.0)
    reaper.sweep(early.marker)
    reaper.unregister(early.popen.pid)
    for pipe in (early.popen.stdin, early.popen.stdout, early.popen.stderr):
        if pipe is not None:
            pipe.close()
