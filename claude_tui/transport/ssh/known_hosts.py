"""The known_hosts entry ssh checks for a destination, resolved as ssh resolves it (`ssh -G`).

An alias with ``HostName``/``Port`` (or ``HostKeyAlias``) is stored as ``[127.0.0.1]:2222``, not
under the alias; `ssh-keygen -R ALIAS` would remove nothing. `ssh -G` prints the configuration
ssh would use, without connecting.
"""

from __future__ import annotations

import os
import shlex
import subprocess

from claude_tui.transport.ssh.target import SshTarget

__all__ = ["keygen_remove", "known_hosts_entry"]

_DEFAULT_FILE = "~/.ssh/known_hosts"


def _entry_name(host: str, port: str) -> str:
    return host if port in ("", "22") else f"[{host}]:{port}"


def known_hosts_entry(target: SshTarget, timeout: float = 5) -> tuple[str, str]:
    """(the entry's name, the known_hosts file ssh reads first) for ``target``; the file is "" for
    the default one. Without an answer from `ssh -G`, the destination's own host and port."""
    argv = [target.ssh, *target.options, *(["-p", str(target.port)] if target.port else []), "-G", target.dest]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        done = None
    values: dict[str, str] = {}
    if done is not None and done.returncode == 0:
        for line in done.stdout.splitlines():
            key, _, value = line.partition(" ")
            values.setdefault(key.lower(), value.strip())
    host = values.get("hostname") or target.dest.rpartition("@")[2]
    port = values.get("port") or (str(target.port) if target.port else "")
    alias = values.get("hostkeyalias", "")
    name = alias if alias and alias != "none" else _entry_name(host, port)
    files = values.get("userknownhostsfile", "").split()
    path = files[0] if files and files[0] not in (_DEFAULT_FILE, os.path.expanduser(_DEFAULT_FILE)) else ""
    return name, path


def keygen_remove(target: SshTarget) -> str:
    """The command that removes ``target``'s old key: ``ssh-keygen [-f FILE] -R NAME``."""
    name, path = known_hosts_entry(target)
    return " ".join(["ssh-keygen", *(["-f", shlex.quote(path)] if path else []), "-R", shlex.quote(name)])
