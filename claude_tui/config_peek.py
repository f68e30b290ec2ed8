"""The config keys that shape the CLI's command line, read before the config is validated.

The launcher starts the first CLI as early as it can (`transport/early.py`), and validating the
config loads pydantic and the config models (~90 ms on the 2-core development machine, as long as
node's own start-up takes to get going). The command line needs only `COMMAND_KEYS`, so they are
read here without pydantic: from the same file (`paths.config_file`) and the same flags, with the
same defaults as `config.Config`. Whatever this is not sure of gives None (an unreadable or invalid
file, a value of another type than the model takes, one of these keys set in the environment, where
the model would parse it): the CLI then starts once the config is validated, as it did before.

A reading that differed from the validated config would still never run the wrong CLI: the launcher
asks for the CLI again with the validated config's command line, and `early.spawn` replaces one
started with anything else (`tests/unit/test_config_peek.py` holds the two readings equal).
"""

from __future__ import annotations

import copy
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claude_tui import paths

PERMISSION_MODES = ("default", "acceptEdits", "plan", "auto", "bypassPermissions", "dontAsk")
THINKING_DISPLAYS = ("summarized", "omitted")

COMMAND_KEYS: dict[str, Any] = {
    "claude_path": None,
    "model": None,
    "permission_mode": None,
    "thinking_display": None,
    "enable_todo_tools": True,
    "file_checkpoints": True,
    "cli_args": [],
    "cli_env": {},
}
"""The keys `launch.build_options` reads from the config, and `config.Config`'s defaults for them."""

_ENV_PREFIX = "CLAUDE_TUI_"  # config._ENV_PREFIX: an override there is the model's to parse


def command_settings(path: Path | None = None, environ: Mapping[str, str] | None = None,
                     flags: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """`COMMAND_KEYS` as `config.load_config(path, environ, flags)` would give them, or None when unsure."""
    environ = os.environ if environ is None else environ
    if any(_ENV_PREFIX + key.upper() in environ for key in COMMAND_KEYS):
        return None
    path = path or paths.config_file()
    values = {key: copy.copy(default) for key, default in COMMAND_KEYS.items()}
    if path.is_file():
        try:
            table = tomllib.loads(path.read_bytes().decode("utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            return None
        for key in COMMAND_KEYS:
            if key in table:
                values[key] = table[key]
    values.update({key: value for key, value in (flags or {}).items() if key in COMMAND_KEYS and value is not None})
    return values if _plain(values) else None


def _plain(values: Mapping[str, Any]) -> bool:
    """Each value of exactly the type the model keeps (it would coerce or refuse anything else)."""
    def text_or_none(value: object, allowed: tuple[str, ...] | None = None) -> bool:
        return value is None or (type(value) is str and (allowed is None or value in allowed))

    return (text_or_none(values["claude_path"]) and text_or_none(values["model"])
            and text_or_none(values["permission_mode"], PERMISSION_MODES)
            and text_or_none(values["thinking_display"], THINKING_DISPLAYS)
            and type(values["enable_todo_tools"]) is bool and type(values["file_checkpoints"]) is bool
            and type(values["cli_args"]) is list and all(type(arg) is str for arg in values["cli_args"])
            and type(values["cli_env"]) is dict
            and all(type(key) is str and type(value) is str for key, value in values["cli_env"].items()))
