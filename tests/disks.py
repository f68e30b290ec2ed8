"""Real broken disks for tests: a full filesystem and a read-only one.

A tiny tmpfs is mounted where the test wants the cache (root can mount; others skip the full
disk, and get a read-only directory by its mode, which root would ignore).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(target: Path, options: str) -> bool:
    target.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)],
                          capture_output=True, check=False)
    return done.returncode == 0


def _unmount(target: Path) -> None:
    subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)


def fill(target: Path) -> None:
    """Write to ``target`` until its filesystem has not one byte left."""
    with open(target / ".filler", "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 4096)
        except OSError:
            pass
    # The last partial block: single bytes until that fails too.
    with open(target / ".filler-tail", "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0")
        except OSError:
            pass


@contextmanager
def full_disk(target: Path, size_kb: int = 256) -> Iterator[Path]:
    """A tmpfs of ``size_kb`` at ``target``, filled to the last byte."""
    if not _mount(target, f"size={size_kb}k,mode=0700"):
        pytest.skip("needs root to mount a tiny tmpfs (a real full disk)")
    try:
        fill(target)
        yield target
    finally:
        _unmount(target)


@contextmanager
def filling_disk(target: Path, size_kb: int = 256) -> Iterator[Path]:
    """A tmpfs with room now: call :func:`fill` on it to make it full later."""
    if not _mount(target, f"size={size_kb}k,mode=0700"):
        pytest.skip("needs root to mount a tiny tmpfs (a real full disk)")
    try:
        yield target
    finally:
        _unmount(target)


@contextmanager
def read_only_dir(target: Path) -> Iterator[Path]:
    """``target`` on a read-only filesystem (root), or a directory mode 0500 (anyone else)."""
    if _mount(target, "size=64k,ro"):
        try:
            yield target
        finally:
            _unmount(target)
        return
    target.mkdir(parents=True, exist_ok=True)
    target.chmod(0o500)
    try:
        yield target
    finally:
        target.chmod(0o700)
