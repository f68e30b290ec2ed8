"""The direct parent of a fork of a fork, from the transcripts themselves.

All the forks of one lineage share its first record (`lineage.fork_parents` groups them, and calls
the one that started first the original). A fork's copied records keep their uuids and timestamps,
so the last record older than the fork's own start is where it forked: the *fork point*. Exactly one
session of the lineage wrote that record as its own (its timestamp not older than that session's
start, or the session is the original): that session is the parent. A fork of a fork thus lists
its real parent, not the original; a fork point no session owns leaves the original as parent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from .meta import parse_timestamp

Member = tuple[str, float, str]
"""(session id, started, transcript path) of one session of a lineage."""


def _records(data: bytes) -> tuple[float | None, list[tuple[str, float]]]:
    """(the session's start: its first record's timestamp, [(uuid, timestamp)] of the records with both).

    The start is read here, not taken from the index: a fork's head may hold a copied snapshot's
    time before its own first line's."""
    start: float | None = None
    out: list[tuple[str, float]] = []
    for line in data.splitlines():
        if b'"timestamp"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        when = parse_timestamp(record.get("timestamp"))
        if when is None:
            continue
        if start is None:
            start = when
        uuid = record.get("uuid")
        if isinstance(uuid, str) and uuid and not record.get("isSidechain"):
            out.append((uuid, when))
    return start, out


def direct_parents(members: Iterable[Member], original: str, read: Callable[[str], bytes | None]) -> dict[str, str]:
    """``{fork: its direct parent}`` for the forks of one lineage whose first session is `original`."""
    read_in: list[tuple[float, str, list[tuple[str, float]]]] = []
    for session_id, created, path in members:
        data = read(path)
        start, records = _records(data) if data is not None else (None, [])
        read_in.append((created if start is None else start, session_id, records))
    read_in.sort(key=lambda m: (m[1] != original, m[0]))
    started = {session_id: when for when, session_id, _ in read_in}
    owner: dict[str, str] = {}
    fork_point: dict[str, str] = {}
    for when, session_id, records in read_in:
        last_copied = ""
        for uuid, at in records:
            if session_id == original or at >= when:
                owner.setdefault(uuid, session_id)
            else:
                last_copied = uuid
        if session_id != original and last_copied:
            fork_point[session_id] = last_copied
    parents: dict[str, str] = {}
    for _, session_id, _ in read_in:
        if session_id == original:
            continue
        parent = owner.get(fork_point.get(session_id, ""), original)
        if parent == session_id or (parent != original and started[parent] >= started[session_id]):
            parent = original
        parents[session_id] = parent
    return parents


def read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


T = TypeVar("T")


def as_tree(rows: Sequence[T], key: Callable[[T], str], parent: Callable[[T], str | None]) -> list[tuple[T, int]]:
    """`rows` with each fork right under its parent (depth 1, a fork of a fork 2, …), in `rows`' order
    among siblings; a fork whose parent is not among `rows` stays where it is, at depth 0."""
    present = {key(row) for row in rows}
    children: dict[str, list[T]] = {}
    for row in rows:
        above = parent(row)
        if above is not None and above in present and above != key(row):
            children.setdefault(above, []).append(row)
    out: list[tuple[T, int]] = []
    placed: set[str] = set()

    def place(row: T, depth: int) -> None:
        if key(row) in placed:
            return  # a loop in bad data: each row once
        placed.add(key(row))
        out.append((row, depth))
        for child in children.get(key(row), []):
            place(child, depth + 1)

    for row in rows:
        above = parent(row)
        if above is None or above not in present or above == key(row):
            place(row, 0)
    for row in rows:  # only rows caught in a loop are left
        place(row, 0)
    return out
