"""User configuration: TOML file < environment (CLAUDE_TUI_*) < command-line flags.

An invalid file never produces a traceback: `ConfigError` names the file, the
key and the problem, and the app prints it and exits. Whatever the file holds (bytes that are not
UTF-8, brackets nested past any stack, escape sequences in a key) the message is inert text: every
part of it quoted from the file, the environment or a flag passes `printable_name`, line by line.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from claude_tui import paths
from claude_tui.protocol.sanitize import printable_name

_HOST_NAME = re.compile(r"^[A-Za-z0-9_.@+][A-Za-z0-9_.@+:/-]*$")
PermissionMode = Literal["default", "acceptEdits", "plan", "auto", "bypassPermissions", "dontAsk"]


class NotificationSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bell: bool = True
    """Ring the terminal bell when the app needs you and the terminal is unfocused."""
    desktop: bool = True
    """Send an OSC 9 / OSC 777 desktop-notification escape in the same cases."""
    long_turn_seconds: float = 30.0
    """A finished turn longer than this notifies too."""


class HostEntry(BaseModel):
    """A machine in ``hosts``: ``claude-tui --ssh NAME`` (and the palette) run Claude Code there.

    A plain string in the list is a destination named by itself."""

    model_config = ConfigDict(extra="forbid")

    name: str
    destination: str = ""
    """What ssh takes (user@host, a Host alias, ssh://user@host:port); empty: the name."""
    cwd: str | None = None
    """The directory there when --cwd is not given (default: the login's home)."""
    claude_path: str | None = None
    """The claude binary there when --claude-path is not given."""
    ssh_options: list[str] = Field(default_factory=list)
    """ssh arguments for this host, before the global ``ssh_options`` (ssh keeps the first value)."""
    cli_env: dict[str, str] = Field(default_factory=dict)
    """Variables for the CLI there, over the global ``cli_env``."""

    @field_validator("name")
    @classmethod
    def _plain_name(cls, name: str) -> str:
        if not _HOST_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a host name (letters, digits and . _ @ + -; no leading '-')")
        return name

    @property
    def target_text(self) -> str:
        return self.destination or self.name


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")

    claude_path: str | None = None
    model: str | None = None
    permission_mode: PermissionMode | None = None
    """The mode Claude Code starts in (always passed: `default` when unset). `auto` needs CLI 2.1.285+."""
    thinking_display: Literal["summarized", "omitted"] | None = None
    """How newer models return thinking (`--thinking-display`, passed to CLIs from 2.1.290 that accept it)."""
    theme: str = "textual-dark"
    show_thinking: bool = False
    """Open thinking blocks by default."""
    vim_mode: bool = False
    """The prompt starts in vim mode (insert); `/vim` and the palette toggle it."""
    sidebar: Literal["auto", "show", "hide"] = "auto"
    notifications: NotificationSettings = Field(default_factory=NotificationSettings)
    typeahead_guard_ms: int = Field(default=400, ge=0, le=5000)
    """Keys arriving this soon after a dialog opens are ignored."""
    enable_todo_tools: bool = True
    file_checkpoints: bool = True
    """Let Claude Code snapshot files before edits so a prompt's changes can be rewound."""
    cli_args: list[str] = Field(default_factory=list)
    cli_env: dict[str, str] = Field(default_factory=dict)
    ssh_options: list[str] = Field(default_factory=list)
    """Extra arguments for every ssh call of --ssh, e.g. ["-F", "/path/ssh_config"]."""
    hosts: list[HostEntry] = Field(default_factory=list)
    """Machines you use: ssh destinations (user@host, Host aliases, ssh://user@host:port) or tables with
    a name, a destination and the cwd, claude_path, ssh_options and cli_env to use there."""
    keymap: dict[str, str] = Field(default_factory=dict)
    """Binding id -> keys, e.g. {"chat.toggle_sidebar" = "ctrl+b"} (ids: see the help screen, F1)."""

    @field_validator("hosts", mode="before")
    @classmethod
    def _destinations_are_entries(cls, hosts: object) -> object:
        if not isinstance(hosts, list):
            return hosts
        # A bare destination names itself (an ssh:// URL too: it is matched as written).
        return [{"name": host, "destination": host} if isinstance(host, str) else host for host in hosts]

    @field_validator("hosts")
    @classmethod
    def _ssh_destinations(cls, hosts: list[HostEntry]) -> list[HostEntry]:
        from claude_tui.transport.ssh.argv import parse_destination

        seen: set[str] = set()
        for host in hosts:
            parse_destination(host.target_text)  # a ValueError names the bad entry and why
            if host.name in seen:
                raise ValueError(f"two hosts are named {host.name!r}")
            seen.add(host.name)
        return hosts

    def host(self, name: str) -> HostEntry | None:
        """The ``hosts`` entry called ``name``, if any."""
        return next((host for host in self.hosts if host.name == name), None)


class ConfigError(Exception):
    """A config problem, worded for the user: each line inert, however hostile what it quotes."""

    def __init__(self, message: str) -> None:
        super().__init__("\n".join(printable_name(_clip(line)) for line in message.split("\n")))


_QUOTE_LIMIT = 300  # characters of one line of a message: a 1 MB key must not fill the terminal


def _clip(text: str) -> str:
    return text if len(text) <= _QUOTE_LIMIT else text[:_QUOTE_LIMIT] + "…"


# Environment overrides: CLAUDE_TUI_<KEY>. Lists and dicts take JSON.
_ENV_PREFIX = "CLAUDE_TUI_"


def _env_overrides(environ: dict[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name in Config.model_fields:
        raw = environ.get(_ENV_PREFIX + name.upper())
        if raw is None:
            continue
        annotation = str(Config.model_fields[name].annotation)
        if "list" in annotation or "dict" in annotation or "Notification" in annotation:
            try:
                values[name] = json.loads(raw)
            except json.JSONDecodeError as error:
                raise ConfigError(f"environment {_ENV_PREFIX}{name.upper()}: not valid JSON ({error})") from None
            except RecursionError:
                raise ConfigError(f"environment {_ENV_PREFIX}{name.upper()}: nested too deeply") from None
        else:
            values[name] = raw
    return values


def _describe(error: ValidationError, source: str) -> str:
    problems = []
    for item in error.errors():
        key = ".".join(str(part) for part in item["loc"]) or "(top level)"
        problems.append(f"{source}: key '{key}': {item['msg']}")
    return "\n".join(problems)


def load_config(
    path: Path | None = None,
    environ: dict[str, str] | None = None,
    flags: dict[str, Any] | None = None,
) -> Config:
    """Merge defaults, the file, the environment and flags (highest wins)."""
    path = path or paths.config_file()
    environ = dict(os.environ) if environ is None else environ
    merged: dict[str, Any] = {}
    if path.is_file():
        merged.update(_read_file(path))
        _validate(merged, str(path))
    env_values = _env_overrides(environ)
    merged.update(env_values)
    merged.update({key: value for key, value in (flags or {}).items() if value is not None})
    return _validate(merged, "environment or flags")


def _read_file(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read: {error.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise ConfigError(f"{path}: not UTF-8 text: byte 0x{raw[error.start]:02x} on line {line}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: arrays or tables nested too deeply") from None


def _validate(merged: dict[str, Any], source: str) -> Config:
    try:
        return Config.model_validate(merged)
    except ValidationError as error:
        raise ConfigError(_describe(error, source)) from None
    except RecursionError:  # a value nested within tomllib's reach but past the validator's
        raise ConfigError(f"{source}: a value is nested too deeply") from None


def render_config(config: Config) -> str:
    """The effective config as TOML for `claude-tui config --show` (secrets masked: `config_show`)."""
    from claude_tui.config_show import to_toml

    return to_toml(config.model_dump())
