"""From ``--ssh TEXT`` and the config to where and how to run: a ``hosts`` entry by name, else a
destination as ssh takes it. Shared by the app (`ui/app/launch.py`) and the subcommands."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from claude_tui.config import Config
from claude_tui.transport.options import CliOptions
from claude_tui.transport.ssh.argv import parse_destination
from claude_tui.transport.ssh.target import SshTarget

__all__ = ["RemoteSetup", "options_on_host", "remote_setup"]


@dataclass(frozen=True)
class RemoteSetup:
    target: SshTarget
    env: dict[str, str] = field(default_factory=dict)
    """``cli_env`` for the CLI there: the global one, with the host entry's over it."""
    cwd: str | None = None
    """The host entry's directory, used when --cwd is not given."""
    claude_path: str | None = None
    """The host entry's claude binary, used when --claude-path is not given."""
    name: str | None = None
    """The ``hosts`` entry's name, when TEXT named one."""

    @property
    def label(self) -> str:
        return self.name or self.target.label


def remote_setup(text: str, config: Config) -> RemoteSetup:
    """``text`` as a ``hosts`` entry name, else as a destination; ValueError says what is wrong.

    The global ``claude_path`` is not used: it is a path on this machine."""
    entry = config.host(text.strip())
    if entry is None:
        return RemoteSetup(parse_destination(text, config.ssh_options), dict(config.cli_env))
    # The host's own ssh options first: ssh keeps the first value it sees.
    target = parse_destination(entry.target_text, [*entry.ssh_options, *config.ssh_options])
    return RemoteSetup(target, {**config.cli_env, **entry.cli_env}, entry.cwd, entry.claude_path, entry.name)


def options_on_host(base: CliOptions, setup: RemoteSetup) -> CliOptions:
    """A new session on ``setup``'s machine, keeping the current one's model, mode and CLI flags.

    What names this machine does not travel: its directories (``add_dirs``), its claude binary, a
    demo's scripted CLI; nor does the current session (a new one starts). The environment is the
    host's (global ``cli_env`` with the entry's over it), not the current host's."""
    return replace(base, ssh=setup.target, cwd=setup.cwd, claude_path=setup.claude_path, command=None,
                   add_dirs=[], env=dict(setup.env), extra_args=list(base.extra_args), resume=None,
                   continue_session=False, fork_session=False)
