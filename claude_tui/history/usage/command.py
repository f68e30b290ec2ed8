"""`claude-tui usage`: the report of every project's transcripts, as text, JSON or CSV."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TextIO

from claude_tui.protocol.sanitize import inert_json

from ..index import SessionIndex
from .index import PERIODS, UsageIndex
from .report import UsageReport, build_report
from .text import render

_DATE = re.compile(r"^(\d{4})-?(\d{2})-?(\d{2})$")


def parse_day(text: str) -> str:
    """YYYY-MM-DD (or YYYYMMDD, as ccusage takes it) → YYYY-MM-DD; ValueError saying what is wrong."""
    match = _DATE.match(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a date: use YYYY-MM-DD")
    year, month, day = (int(g) for g in match.groups())
    try:
        return date(year, month, day).isoformat()
    except ValueError as error:  # 2026-02-30
        raise ValueError(f"{text!r} is not a date: {error}") from None


def usage_report(index: SessionIndex, by: str = "day", since: str | None = None, until: str | None = None,
                 project_dirs: Iterable[Path] | None = None) -> UsageReport:
    """Revalidate the transcripts (reading only what changed), then sum their calls."""
    if by not in PERIODS:
        raise ValueError(f"cannot group by {by!r}: one of {', '.join(PERIODS)}")
    dirs = list(project_dirs) if project_dirs is not None else None
    usage = UsageIndex(index)
    usage.refresh(dirs)
    groups, sessions = usage.groups(by, dirs, since, until)
    return build_report(by, groups, sessions, usage.cost_states(dirs))


def usage_command(by: str, since: str | None, until: str | None, fmt: str, out: TextIO, *,
                  index: SessionIndex | None = None, root: Path | None = None) -> int:
    owned = index is None
    idx = index if index is not None else SessionIndex(root=root)
    try:
        report = usage_report(idx, by, since, until)
    finally:
        if owned:
            idx.close()
    if fmt == "json":
        out.write(inert_json(json.dumps(report.to_json(), ensure_ascii=False, indent=1)) + "\n")
    elif fmt == "csv":
        out.write(report.to_csv())
    else:
        out.write(render(report))
    return 0
