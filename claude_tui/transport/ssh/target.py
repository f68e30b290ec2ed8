"""Where an ssh-run CLI runs. Its own module so `options.py` can name it without importing `argv.py`
(which builds on `options.py`); for that, the package's `__init__.py` imports nothing."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SshTarget:
    """Where to run: ``dest`` as ssh takes it (``host``, ``user@host``, an alias), an optional port,
    and the extra ssh arguments of the config's ``ssh_options`` (used on every call)."""

    dest: str
    port: int | None = None
    options: tuple[str, ...] = field(default_factory=tuple)
    ssh: str = "ssh"

    @property
    def label(self) -> str:
        return f"{self.dest}:{self.port}" if self.port else self.dest
