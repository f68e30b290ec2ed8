"""Which session is a fork of which.

``--fork-session`` (and the browser's fork) writes a new transcript that starts with
a copy of the parent's records, uuids and timestamps included; only ``sessionId``
changes. So a parent and its forks share the uuid of their first record
(:attr:`SessionMeta.root_uuid`). The original is the one that started first: a
fork's first own line (the queued prompt that made it) is later than the copied
records' time, so its ``created`` is the fork time. Here every fork gets the original
as parent; `fork_tree.py` puts a fork of a fork under its real parent. Sessions of a
lineage that started at the same instant (older CLIs wrote no line of their own before
the copy) are left unmarked rather than guessed at.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from .text import scrub


def fork_parents(members: Iterable[tuple[str, str | None, float | None]]) -> dict[str, str]:
    """``{fork's session id: parent's session id}`` from ``(session_id, root_uuid, created)``."""
    groups: dict[str, list[tuple[float, str]]] = {}
    for session_id, root, created in members:
        if root and created is not None:
            groups.setdefault(root, []).append((created, session_id))
    parents: dict[str, str] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort()
        first_time, first_id = group[0]
        if group[1][0] == first_time:
            continue  # two started together: no telling which is the original
        for _, session_id in group[1:]:
            parents[session_id] = first_id
    return parents


_ROOT_MARKS = (b'"parentUuid":null', b'"parentUuid": null')


def complete_lines(head: bytes, complete_end: int) -> Iterator[bytes]:
    """The lines of ``head[:complete_end]`` (a file's head cut after its last complete line)."""
    pos = 0
    while pos < complete_end:
        nl = head.find(b"\n", pos, complete_end)
        stop = nl if nl >= 0 else complete_end
        yield head[pos:stop]
        pos = stop + 1


def root_uuid(head: bytes, complete_end: int) -> str | None:
    """The uuid of the first user/assistant record with no parent in the head's complete lines."""
    for line in complete_lines(head, complete_end):
        if _ROOT_MARKS[0] not in line and _ROOT_MARKS[1] not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("type") not in ("user", "assistant") or record.get("isSidechain"):
            continue
        uuid = record.get("uuid")
        if isinstance(uuid, str) and uuid:
            return scrub(uuid)
    return None
