"""The environment that keeps the real CLI offline, quiet and inside a scratch directory."""

from __future__ import annotations

import os
from pathlib import Path

#: variables of the developer's environment that must not reach the CLI
LEAKY_PREFIXES = ("ANTHROPIC_", "CLAUDE_", "CLAUDECODE", "AWS_BEARER_TOKEN_BEDROCK")


def offline_overrides(base_url: str, root: Path) -> dict[str, str]:
    """What the e2e tier sets on top of the (filtered) user environment."""
    home = root / "home"
    return {
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "TMPDIR": str(root / "tmp"),  # subagent output lands in $TMPDIR/claude-<uid>/...
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-ant-e2e-offline",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "CLAUDE_CODE_ENABLE_TODO_TOOLS": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
    }


def offline_env(base_url: str, root: Path) -> dict[str, str]:
    """Full environment for a CLI that talks only to the stand-in and writes only under root."""
    overrides = offline_overrides(base_url, root)
    for key in ("HOME", "TMPDIR"):
        Path(overrides[key]).mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(LEAKY_PREFIXES)}
    env.update(overrides)
    return env
