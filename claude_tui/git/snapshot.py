"""What a removal dialog showed, exactly enough to tell whether anything changed since.

A "discard these files?" answer covers those files as they were when the dialog looked, and the
commits there were then. :func:`differences` compares that snapshot with one taken right before the
removal: a file that appeared or changed (its content, its staged blob, its status), a new commit or
a moved HEAD means the answer no longer covers what would be deleted.

Pure: it reads the files it fingerprints, and nothing else (the git calls are in ``worktree.py``).
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

HASHED_BYTES = 64 * 1024 * 1024
"""Files up to this size are fingerprinted by their content; larger ones by size and mtime (reading
gigabytes to close a session would stall it, and a rewrite of such a file changes its mtime)."""


@dataclass(frozen=True)
class StatusEntry:
    """One path of `git status --porcelain=v2`: the record (codes, modes and blob ids) and the path."""

    path: str
    record: str
    """The line as git printed it, path included: the index blob and the status codes are in it."""

    @property
    def ignored(self) -> bool:
        """An ignored file or directory (``!``): not uncommitted work, but deleted with the worktree."""
        return self.record.startswith("!")


@dataclass(frozen=True)
class Snapshot:
    files: tuple[tuple[str, str, str], ...] = ()
    """(path, git's status record, a fingerprint of the file in the worktree), sorted by path."""
    head: str = ""
    """The commit HEAD is at ("" without one)."""
    head_ref: str = ""
    """The branch HEAD is on ("" when detached)."""
    branch_tip: str = ""
    """The commit the worktree's branch points to ("" when it is gone)."""
    commits: tuple[str, ...] = field(default=())
    """The commits the dialog listed as not merged (``abc1234 subject``)."""


def parse_status(output: str) -> list[StatusEntry]:
    """`git status --porcelain=v2 -z` output, one entry per path (ignored files are not asked for)."""
    entries: list[StatusEntry] = []
    fields = iter(output.split("\0"))
    for record in fields:
        if not record:
            continue
        kind = record[0]
        # The path is the last of a fixed number of space-separated fields (it may hold spaces itself).
        parts = {"1": 9, "2": 10, "u": 11, "?": 2, "!": 2}.get(kind)
        if parts is None:
            continue  # "#" headers (asked for with --branch only) or a kind a newer git adds
        split = record.split(" ", parts - 1)
        if len(split) < parts:
            continue
        path = split[-1]
        if kind == "2":
            record = f"{record}\0{next(fields, '')}"  # a rename's old path: part of what changed
        entries.append(StatusEntry(path=path, record=record))
    return entries


def fingerprint(path: Path) -> str:
    """The file's content as it is now: a digest, a symlink's target, or what kind of thing is there."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        return f"unreadable:{error.errno}"
    if stat.S_ISLNK(info.st_mode):
        try:
            return f"link:{os.readlink(path)}"
        except OSError as error:
            return f"unreadable:{error.errno}"
    if stat.S_ISDIR(info.st_mode):
        return f"dir:{info.st_mtime_ns}"  # a nested repository git lists as one entry
    if not stat.S_ISREG(info.st_mode):
        return f"special:{stat.S_IFMT(info.st_mode)}"
    mode = "x" if info.st_mode & 0o111 else "-"
    if info.st_size > HASHED_BYTES:
        return f"big:{mode}:{info.st_size}:{info.st_mtime_ns}"
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(1024 * 1024):
                digest.update(chunk)
    except OSError as error:
        return f"unreadable:{error.errno}"
    return f"sha256:{mode}:{digest.hexdigest()}"


def take(root: Path, entries: list[StatusEntry], *, head: str, head_ref: str, branch_tip: str,
         commits: list[str]) -> Snapshot:
    # Ignored entries by name only: build output churns, and a directory of it may be huge.
    files = tuple(sorted((e.path, e.record, "ignored" if e.ignored else fingerprint(root / e.path))
                         for e in entries))
    return Snapshot(files=files, head=head, head_ref=head_ref, branch_tip=branch_tip, commits=tuple(commits))


def differences(before: Snapshot, after: Snapshot) -> list[str]:
    """What changed from `before` to `after`, one short line each (paths as git printed them)."""
    lines: list[str] = []
    old = {path: (record, print_) for path, record, print_ in before.files}
    new = {path: (record, print_) for path, record, print_ in after.files}
    for path in sorted(new.keys() - old.keys()):
        lines.append(f"new {'ignored ' if new[path][1] == 'ignored' else ''}file {path}")
    for path in sorted(old.keys() & new.keys()):
        if old[path] != new[path]:
            lines.append(f"{path} changed")
    for path in sorted(old.keys() - new.keys()):
        lines.append(f"{path} committed, reverted or deleted")
    for commit in after.commits:
        if commit not in before.commits:
            lines.append(f"new commit {commit}")
    if before.head_ref != after.head_ref:
        lines.append(f"HEAD moved to {after.head_ref.removeprefix('refs/heads/') or 'a detached commit'}")
    elif before.head != after.head and not any(line.startswith("new commit") for line in lines):
        lines.append(f"HEAD moved to {after.head[:7] or 'nothing'}")
    if before.branch_tip != after.branch_tip and not any(line.startswith(("new commit", "HEAD")) for line in lines):
        lines.append(f"the branch moved to {after.branch_tip[:7] or 'nothing (deleted)'}")
    return lines
