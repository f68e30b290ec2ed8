"""Snapshots of a two-hunk Edit under review: the first hunk left out, the cursor on the second."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.pilot.test_dialogs import DialogHost
from tests.pilot.test_hunk_review import two_hunk_dialog
from tests.snapshot.test_dialog_snapshots import LARGE, SMALL, settled


def test_hunk_review_small(snap_compare: Any, tmp_path: Path) -> None:
    app = DialogHost(two_hunk_dialog(tmp_path))
    assert snap_compare(app, terminal_size=SMALL, run_before=settled("space", "down"))


def test_hunk_review_large(snap_compare: Any, tmp_path: Path) -> None:
    app = DialogHost(two_hunk_dialog(tmp_path))
    assert snap_compare(app, terminal_size=LARGE, run_before=settled("space", "down"))
