"""A long Markdown answer from the real CLI, in a real terminal: numbered lists keep their period
and their source's numbers, one blank row separates blocks, and resizing the terminal keeps the
words at the top of the view there (tmux, offline, like ``test_tmux_smoke.py``)."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

from tests.e2e import test_tmux_smoke as smoke
from tests.e2e.mock_api import MockApi
from tests.e2e.test_tmux_smoke import Tmux, app_command, wait_gone

tmux = smoke.tmux  # the fixture: a tmux server on its own socket

WORD = re.compile(r"word\d+")


def answer_rows(screen: str) -> list[str]:
    """The rows between the last "Part 11" heading and "End of part 11." (the answer's last part)."""
    rows = [row.rstrip() for row in screen.splitlines()]
    start = max(i for i, row in enumerate(rows) if row.strip() == "Part 11")
    end = next(i for i, row in enumerate(rows) if "End of part 11." in row)
    return rows[start:end + 1]


def test_a_markdown_answer_reads_like_markdown_and_resizing_keeps_the_place(
        tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str], project_dir: Path, mock_api: MockApi,
        tmp_path: Path) -> None:
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_screen(lambda s: "idle" in s, "the app to be ready")
        tmux.keys("kw:markdown show me", literal=True)
        tmux.keys("Enter")
        screen = tmux.wait_screen(lambda s: "End of part 11." in s and "idle" in s, "the whole answer")
        rows = answer_rows(screen)
        assert "14. first step of part 11" in "\n".join(rows)  # numbered from the source's 14, with periods
        assert "16. third step with code" in [row.strip() for row in rows]
        blank_runs = re.findall(r"\n(?:\n)+", "\n".join(row if row.strip() else "" for row in rows))
        # One blank row between blocks; the code block's own two blank lines are its only longer gap.
        assert max(len(run) for run in blank_runs) <= 3, "\n".join(rows)
        assert sum(len(run) == 3 for run in blank_runs) == 1, "\n".join(rows)

        # Scroll up, then resize: the text on the view's top row stays on the top rows (the precise
        # check is tests/pilot/test_resize_place.py; here, the real terminal's resize).
        for _ in range(5):
            tmux.keys("PageUp")
        time.sleep(0.5)
        rows = tmux.screen().splitlines()
        first = next(row for row in rows if row.strip())
        token = first.split()[0] if WORD.search(first) is None else WORD.search(first).group()  # type: ignore[union-attr]
        for width in (110, 190, 140):
            tmux.run("resize-window", "-t", tmux.session, "-x", str(width), "-y", "48")
            tmux.wait_screen(lambda s: max(len(r) for r in s.splitlines()) <= width
                             and token in " ".join(s.splitlines()[:3]),
                             f"{token!r} still at the top at width {width}", timeout=10)
    finally:
        tmux.kill()
        left, pids = wait_gone(10)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert not pids, f"processes outlived claude-tui: {left}"
