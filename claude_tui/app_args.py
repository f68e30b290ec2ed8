"""What the app needs from the command line, as plain data.

Its own module because two sides use it: `cli.py` fills it from argparse and
`ui/app/launch.py` starts the app from it (and `cli.py` imports `ui.launch` to run it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class AppArgs:
    """What the app needs from the command line (independent of argparse)."""

    cwd: Path = field(default_factory=Path.cwd)
    explicit_cwd: bool = False
    """--cwd was given (else, over ssh, a ``hosts`` entry's cwd applies)."""
    model: str | None = None
    permission_mode: str | None = None
    resume: str | None = None
    """A session id, or "" to open the session browser."""
    continue_session: bool = False
    fork: bool = False
    add_dirs: list[str] = field(default_factory=list)
    claude_path: str | None = None
    demo: bool = False
    debug_log: Path | None = None
    extra_args: list[str] = field(default_factory=list)
    worktree: str | None = None
    """--worktree: a name, or "" for a generated one; None: run in `cwd` itself."""
    ssh: str | None = None
    """Run the CLI on this ssh destination; cwd, add_dirs and claude_path are then remote paths."""
    prompt: str | None = None
    """`claude-tui "fix the bug"`, as `claude "fix the bug"`: sent as the first prompt once the app is up."""
