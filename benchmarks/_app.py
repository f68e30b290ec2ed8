"""A headless app with an inert CLI, fed protocol messages as the worker would post them."""

from __future__ import annotations

import sys

from claude_tui.config import Config
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp

INERT_CLI = [sys.executable, "-c", "import sys; sys.stdin.read()"]


def bench_app() -> ClaudeTuiApp:
    app = ClaudeTuiApp(CliOptions(cwd="/", command=INERT_CLI), Config())
    app.animation_level = "none"
    return app


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")
