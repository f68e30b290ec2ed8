"""Running the CLI on another machine through the system's OpenSSH client.

No SSH library: the user's keys, agent, ``ProxyJump``, ``~/.ssh/config`` and known_hosts all just
work because `ssh` itself does the connecting. This module only builds argv:

* `parse_destination` turns ``user@host``, a ``Host`` alias or ``ssh://user@host:port`` into an
  `SshTarget` (``host:port`` is not ssh syntax: the port comes from the URL or the ssh config);
* `ssh_argv` is the ssh prefix every call shares: ``-T`` (no remote tty: a pipe carries the
  stream-json lines unmangled), ``BatchMode`` (ssh must never prompt: it would write over the
  TUI), and one multiplexed connection per host (``ControlMaster=auto`` with a ``ControlPath`` in
  claude-tui's runtime dir), so later reads do not pay a handshake each;
* `remote_command` makes what runs there independent of the login shell. The command line ssh
  carries is one fixed string of plain words and one single-quoted word free of ``'``, ``\\``, ``!``
  and line breaks, which sh, bash, zsh, ksh, fish, csh and tcsh all read alike; the script itself —
  every argv word quoted for sh, ``cli_env`` exported — follows on the channel's stdin, read by
  ``dd`` to the byte, so the rest of stdin stays the CLI's (and no value shows in `ps` there);
* `remote_launch` wraps the argv `options.build_argv` builds in a small sh wrapper that ends the
  remote CLI (and what it started) when the channel closes — because we quit or because the
  connection dropped. Without it a CLI busy in a turn could run on for minutes.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from claude_tui.transport.errors import TransportError
from claude_tui.transport.options import CliOptions, build_argv, build_env
from claude_tui.transport.ssh.target import SshTarget

__all__ = ["REMOTE_MARK", "Launch", "RemoteCommand", "SshSetupError", "SshTarget", "cli_command", "control_dir",
           "parse_destination", "remote_command", "remote_env", "remote_launch", "ssh_argv"]

#: Prefix of the messages the remote wrapper prints itself (on stderr), so they can be told from ssh's.
REMOTE_MARK = "claude-tui-remote:"
#: The wrapper's own exit codes.
EXIT_NO_DIR, EXIT_NO_CLAUDE, EXIT_NO_PIPE = 97, 98, 99

# Where the installers put `claude` (as `locate.install_locations`): a non-interactive ssh command
# often runs without the PATH the user's login profile sets up.
_REMOTE_FALLBACKS = ("$HOME/.local/bin/claude", "$HOME/.claude/local/claude", "$HOME/.npm-global/bin/claude",
                     "$HOME/.bun/bin/claude", "$HOME/.volta/bin/claude", "/usr/local/bin/claude",
                     "/opt/homebrew/bin/claude")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class SshSetupError(TransportError, ValueError):
    """The remote command cannot be built (a bad destination or cli_env entry); worded for the user."""


def parse_destination(text: str, options: Sequence[str] = ()) -> SshTarget:
    """``user@host``, a Host alias or ``ssh://[user@]host[:port]``; ValueError says what is wrong."""
    value = text.strip()
    if not value:
        raise ValueError("the ssh destination is empty")
    if value.startswith("-"):
        # ssh would take it for an option (`-oProxyCommand=…` runs a command): never pass it on.
        raise ValueError(f"{value!r} is not a host (it starts with '-')")
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ValueError(f"{value!r} is not a host (it contains spaces or control characters)")
    port: int | None = None
    if value.lower().startswith("ssh://"):
        parts = urlsplit(value)
        try:
            port = parts.port
        except ValueError:
            raise ValueError(f"{value!r}: the port is not a number from 1 to 65535") from None
        host = parts.hostname or ""
        if not host or parts.path not in ("", "/") or parts.query or parts.fragment or parts.password:
            raise ValueError(f"{value!r}: expected ssh://[user@]host[:port]")
        if ":" in host:  # an IPv6 literal: ssh takes it bare
            host = host.strip("[]")
        value = f"{unquote(parts.username)}@{host}" if parts.username else host
    elif value.count(":") == 1 and not value.startswith("["):
        host, _, maybe_port = value.rpartition(":")
        hint = f"ssh://{host}:{maybe_port}" if maybe_port.isdigit() else "ssh://user@host:port"
        raise ValueError(f"{value!r}: ssh does not take host:port; write {hint} or set Port in ~/.ssh/config")
    return SshTarget(value, port, tuple(str(o) for o in options))


def control_dir() -> Path:
    """claude-tui's runtime dir for the ssh control sockets (created 0700, checked to be ours).

    ``$XDG_RUNTIME_DIR/claude-tui/ssh``, else ``/tmp/claude-tui-<uid>/ssh``: a socket path must fit
    in ~104 bytes, and ``%C`` (a 40-character hash) keeps the name itself short.
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and os.path.isabs(runtime) and len(runtime) < 40:
        top = Path(runtime) / "claude-tui"
    else:
        top = Path("/tmp") / f"claude-tui-{os.getuid()}"
    base = top / "ssh"
    for path in (top, base):
        path.mkdir(exist_ok=True, mode=0o700)
        info = path.lstat()
        if info.st_uid != os.getuid() or not path.is_dir() or path.is_symlink():
            # Someone else's directory in /tmp: a socket there could be theirs.
            raise SshSetupError(f"{path} is not a directory of yours; remove it or set XDG_RUNTIME_DIR")
        os.chmod(path, 0o700)
    return base


def ssh_argv(target: SshTarget, *, master: bool = True, sockets: Path | None = None,
             extra: Sequence[str] = ()) -> list[str]:
    """The ssh prefix up to and including the destination; the remote command follows.

    ``master``: this call may become the host's shared connection (the CLI's long-lived session).
    Short reads pass False: they use the shared connection when there is one, else connect on their
    own — a read that became the master would stay alive, serving the others, after its command ended.
    ``extra``: more ssh arguments (e.g. ``-N``), placed before the destination.

    The user's ``ssh_options`` come first: ssh keeps the first value it sees for an option, so theirs
    win over these defaults (e.g. their own ControlPath).
    """
    sockets = sockets if sockets is not None else control_dir()
    argv = [target.ssh, *target.options,
            "-T",
            "-o", "BatchMode=yes",
            "-o", f"ControlMaster={'auto' if master else 'no'}",
            "-o", f"ControlPath={sockets}/%C",
            "-o", "ControlPersist=no",
            # Notice a dead connection (a laptop lid, a dropped VPN) within ~45 s, not hours.
            "-o", "ServerAliveInterval=15",
            "-o", "ServerAliveCountMax=3"]
    if target.port is not None:
        argv += ["-p", str(target.port)]
    return [*argv, *extra, "--", target.dest]


# The remote side, a sh script (`cli_command` sends it on stdin, see `remote_command`).
# Positional parameters: the directory ("" for the login's home), then the argv; cli_env is exported
# before it runs.
# The CLI reads its stdin through a FIFO fed by `cat`; when the channel closes, `cat` ends, the CLI
# sees EOF (as it does locally) and gets 3 s to save its transcript, then its group is ended.
# The FIFO's directory is removed once both ends are open: a dropped connection hangs up the
# wrapper before its last lines run, and nothing may be left in /tmp for that.
# `setsid` (Linux) gives the CLI its own process group, so its tools go with it.
_WRAPPER = r"""
d=$1; shift
case $d in "~") d=$HOME ;; "~/"*) d=$HOME/${d#"~/"} ;; esac
if [ -n "$d" ]; then cd -- "$d" 2>/dev/null || { echo "@MARK@ cannot enter the directory $d" >&2; exit @NODIR@; }; fi
if ! command -v "$1" >/dev/null 2>&1; then
  found=
  if [ "$1" = claude ]; then for p in @FALLBACKS@; do if [ -x "$p" ]; then found=$p; break; fi; done; fi
  case $1 in */*) [ -n "$found" ] || { echo "@MARK@ '$1' is not an executable file" >&2; exit @NOCLAUDE@; } ;; esac
  [ -n "$found" ] || { echo "@MARK@ '$1' was not found on the remote PATH" >&2; exit @NOCLAUDE@; }
  shift; set -- "$found" "$@"
fi
t=$(mktemp -d "${TMPDIR:-/tmp}/claude-tui.XXXXXX" 2>/dev/null) && mkfifo "$t/in" ||
  { [ -n "$t" ] && rm -rf "$t"; echo "@MARK@ cannot create a pipe in ${TMPDIR:-/tmp}" >&2; exit @NOPIPE@; }
exec 3<&0 </dev/null
g=
if command -v setsid >/dev/null 2>&1; then g=-; setsid "$@" <"$t/in" 3<&- & else "$@" <"$t/in" 3<&- & fi
c=$!
(
  trap '' INT TERM HUP
  exec 4>"$t/in"
  rm -rf "$t"
  cat <&3 >&4 2>/dev/null
  exec 3<&- 4>&-
  i=0
  while kill -0 "$c" 2>/dev/null && [ "$i" -lt 30 ]; do sleep 0.1 2>/dev/null || sleep 1; i=$((i+1)); done
  kill -TERM "$g$c" 2>/dev/null && sleep 2 && kill -KILL "$g$c" 2>/dev/null
) >/dev/null 2>&1 &
w=$!
exec 3<&-
wait "$c"; r=$?
kill "$w" 2>/dev/null
[ -n "$g" ] && kill -KILL "$g$c" 2>/dev/null
rm -rf "$t"
exit "$r"
"""


def _wrapper() -> str:
    script = (_WRAPPER.replace("@MARK@", REMOTE_MARK).replace("@NODIR@", str(EXIT_NO_DIR))
              .replace("@NOCLAUDE@", str(EXIT_NO_CLAUDE)).replace("@NOPIPE@", str(EXIT_NO_PIPE))
              .replace("@FALLBACKS@", " ".join(f'"{p}"' for p in _REMOTE_FALLBACKS)))
    return script.strip() + "\n"


@dataclass(frozen=True)
class RemoteCommand:
    """What to run on the remote: ``command`` for ssh's command line, ``stdin`` to send first."""

    command: str
    stdin: bytes


def remote_command(script: str, args: Sequence[str] = (), env: Mapping[str, str] | None = None) -> RemoteCommand:
    """Run the sh ``script`` there with ``args`` as $1… and ``env`` exported, whatever the login shell.

    sshd hands the command line to the login shell's ``-c``, and shells disagree on quoting: fish
    reads ``\\`` inside single quotes, csh refuses a line break inside them and expands ``!``. So
    the command line is fixed — ``exec sh -c 'eval "$(dd bs=1 count=N 2>/dev/null)"'``, the same
    words for every shell — and the script travels on stdin, where only sh reads it: ``dd`` takes
    exactly its N bytes (one read each, so nothing more), and what follows on stdin is the
    program's. The script is one ``{ … }`` group, so a channel cut short gives sh a syntax error,
    never half a script to run.
    """
    lines = []
    for name, value in (env or {}).items():
        if not _ENV_NAME.fullmatch(name):
            raise SshSetupError(f"cli_env: {name!r} cannot be exported (not a variable name)")
        if "\0" in value:
            raise SshSetupError(f"cli_env: the value of {name} holds a NUL character")
        lines.append(f"export {name}={shlex.quote(value)}")
    lines.append(" ".join(["set --", *(shlex.quote(str(arg)) for arg in args)]))
    body = "{\n" + "\n".join(lines) + "\n" + script.strip("\n") + "\n}\n"
    data = body.encode("utf-8", "surrogateescape")  # a path that is not UTF-8 travels as its bytes
    return RemoteCommand(f"exec sh -c 'eval \"$(dd bs=1 count={len(data)} 2>/dev/null)\"'", data)


def cli_command(argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None) -> RemoteCommand:
    """The remote CLI under the wrapper: ``argv`` run in ``cwd`` ("" or None: the login's home)."""
    return remote_command(_wrapper(), [cwd or "", *argv], env)


def remote_env(opts: CliOptions) -> dict[str, str]:
    """What the remote CLI gets on top of its login environment: the flags `build_env` adds and
    ``cli_env`` — never this machine's environment (its PATH, HOME or keys mean nothing there)."""
    return build_env(opts, base={})


@dataclass(frozen=True)
class Launch:
    argv: list[str]
    env: dict[str, str]
    preamble: bytes = b""
    """Written to the process's stdin before anything else (the remote script)."""
    cwd: str | None = None


def remote_launch(opts: CliOptions, target: SshTarget, *, sockets: Path | None = None,
                  base_env: Mapping[str, str] | None = None) -> Launch:
    """The local process to spawn for a remote CLI: ssh, run from our own directory, with our own
    environment (SSH_AUTH_SOCK and friends), carrying the remote command."""
    if shutil.which(target.ssh) is None:
        raise SshSetupError(f"{target.ssh!r} was not found: --ssh runs the system's OpenSSH client; install it "
                            "(e.g. apt install openssh-client).")
    # A one-word argv prefix rather than a path: the binary is on the other machine, so nothing here
    # may read it (`options` would look for its package.json to gate version-specific flags).
    binary = [opts.claude_path or "claude"]
    cli_argv = build_argv(opts, list(opts.command) if opts.command else binary)
    remote = cli_command(cli_argv, cwd=opts.cwd, env=remote_env(opts))
    env = dict(os.environ if base_env is None else base_env)
    env.pop("CLAUDECODE", None)
    return Launch([*ssh_argv(target, sockets=sockets), remote.command], env, remote.stdin)
