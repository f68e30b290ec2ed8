"""Locating files that ship with the package (TCSS, the demo scenario)."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def styles_dir() -> Path:
    """The directory holding the app's .tcss files.

    In a wheel the top-level ``styles/`` is force-included as
    ``claude_tui/styles``; in a source checkout (editable install) it sits
    beside the package.
    """
    for candidate in (_PACKAGE_DIR / "styles", _PACKAGE_DIR.parent / "styles"):
        if (candidate / "app.tcss").is_file():
            return candidate
    raise FileNotFoundError("claude-tui styles directory not found; the installation is incomplete")
