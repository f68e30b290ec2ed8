"""The model a CLI starts with, known before its first turn (the status bar names it at once).

Claude Code 2.1.330 names its model only in `system/init`, which stream-json sends when the first
prompt arrives; its initialize response lists the models but says which one runs only on newer
CLIs (`current_model`). Until one of those speaks, the model follows Claude Code's own order:
`--model`, then `$ANTHROPIC_MODEL`, then `model` in its settings (the project's local file, the
project's, the user's), then the model list's default. The settings are only read, never written.
An ssh session's files are on the other machine: there the flag, its env and the default serve.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from claude_tui.transport.options import CliOptions, build_env

DEFAULT_VALUE = "default"
"""The model list's entry for Claude Code's default model (its `resolvedModel` is the id)."""


def resolve(models: Sequence[Mapping[str, Any]], name: str) -> str:
    """An alias from the model list ("sonnet") as the id it stands for; anything else as it is."""
    for model in models:
        resolved = model.get("resolvedModel")
        if model.get("value") == name and isinstance(resolved, str) and resolved:
            return resolved
    return name


def settings_model(paths: Sequence[Path]) -> str | None:
    """The first `model` set in these settings files (most specific first); unreadable ones are skipped."""
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        model = data.get("model") if isinstance(data, dict) else None
        if isinstance(model, str) and model.strip():
            return model.strip()
    return None


def settings_paths(cwd: str | None, env: Mapping[str, str]) -> list[Path]:
    """Claude Code's settings files for a local CLI in `cwd` with `env`, most specific first."""
    root = env.get("CLAUDE_CONFIG_DIR")
    home = env.get("HOME")
    user = Path(os.path.expanduser(root)) if root else (Path(home) if home else Path.home()) / ".claude"
    project = Path(cwd or ".") / ".claude"
    return [project / "settings.local.json", project / "settings.json", user / "settings.json"]


def starting_model(options: CliOptions, models: Sequence[Mapping[str, Any]]) -> str:
    """The model `options` start the CLI with, as the status bar names it; "" when nothing says."""
    if options.model:
        return resolve(models, options.model)
    env = {str(k): str(v) for k, v in options.env.items()} if options.ssh is not None else build_env(options)
    named = env.get("ANTHROPIC_MODEL", "").strip()
    if not named and options.ssh is None:
        named = settings_model(settings_paths(options.cwd, env)) or ""
    if named:
        return resolve(models, named)
    resolved = resolve(models, DEFAULT_VALUE)
    return "" if resolved == DEFAULT_VALUE else resolved
