"""The machine the CLI runs on, for everything that reads it: files, the file list, the session store.

`LocalMachine` reads this machine directly. `SshMachine` reads another one over the host's shared ssh
connection (`transport.ssh.argv.ssh_argv(master=False)`: no handshake per read once the CLI's ssh is up).
Its session store — found the way the remote CLI finds it: ``CLAUDE_CONFIG_DIR`` or ``HOME`` from
``cli_env``, else the login's home — is mirrored read-only into claude-tui's own cache dir, where the
`history` package reads it like a local config root. Nothing is ever written on the remote.

Every method blocks on the network: call them from thread workers, never from a key handler.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO

from claude_tui import paths
from claude_tui.completion import project_files
from claude_tui.diff.model import FileDiff
from claude_tui.protocol.sanitize import printable
from claude_tui.transport import reaper
from claude_tui.transport.options import CliOptions
from claude_tui.transport.ssh.argv import SshSetupError, SshTarget, control_dir, remote_command, ssh_argv
from claude_tui.transport.ssh.faults import SshFault, diagnose

__all__ = ["LocalMachine", "Machine", "RemoteReadError", "SshConnectError", "SshMachine", "machine_for",
           "read_preview"]

MAX_FILES = 20_000
# Names the CLI's store uses: encoded project dirs ([A-Za-z0-9-]), uuids, agent-*.jsonl, subagents/.
_STORE_NAME = re.compile(r"^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*\.jsonl$")


class RemoteReadError(OSError):
    """A read over ssh failed (no connection, a timeout); the message is ssh's, made one line."""


class SshConnectError(RemoteReadError):
    """`SshMachine.connection` could not log in: ``fault`` says what failed and what to do."""

    def __init__(self, fault: SshFault) -> None:
        super().__init__(fault.title)
        self.fault = fault


class Machine:
    """This machine."""

    remote = False
    label = "this machine"

    def read_head(self, path: str, limit: int) -> tuple[bool, bytes]:
        """(exists, the first ``limit + 1`` bytes) of a regular file; OSError when it cannot be read."""
        try:
            with open(path, "rb") as handle:
                return True, handle.read(limit + 1)
        except FileNotFoundError:
            return False, b""

    def list_files(self, root: str) -> list[str]:
        return project_files(Path(root))

    def session_root(self) -> Path | None:
        """The CLI config root to read sessions from; None: the default (``$CLAUDE_CONFIG_DIR``, ``~/.claude``)."""
        return None

    def index_path(self) -> Path | None:
        return None

    def sync_sessions(self) -> int:
        """Bring the session store up to date (remote: the local mirror); the number of files fetched."""
        return 0


LocalMachine = Machine


class SshMachine(Machine):
    remote = True

    def __init__(self, target: SshTarget, env: Mapping[str, str] | None = None, *,
                 cache: Path | None = None, timeout: float = 30.0) -> None:
        self.target = target
        self.env = dict(env or {})
        self.label = target.label
        self.timeout = timeout
        key = hashlib.sha1(f"{target.label}\0{' '.join(target.options)}".encode()).hexdigest()[:16]
        self.cache = (cache or paths.cache_path() / "remote") / key  # created by the first sync
        self.sockets: Path | None = None
        """The ControlPath dir of the reads: None, claude-tui's shared one; `connection` sets its own."""

    # -- running a command there ---------------------------------------------------------------
    def run(self, script: str, args: Sequence[str] = (), *, timeout: float | None = None) -> bytes:
        """The sh ``script`` on the remote with ``args`` as $1…; its stdout. RemoteReadError on failure.

        Sent as `transport.ssh.argv.remote_command` sends it (the script on stdin), so any login shell runs it."""
        command = remote_command(script, args)
        argv = [*ssh_argv(self.target, master=False, sockets=self.sockets), command.command]
        # Our own group, registered like the CLI: a read in flight at quit must not outlive us.
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        reaper.register(proc.pid)
        try:
            out, err = proc.communicate(command.stdin, timeout=timeout or self.timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise RemoteReadError(f"{self.label} did not answer within {timeout or self.timeout:g} s") from None
        finally:
            reaper.unregister(proc.pid)
        if proc.returncode == 255:
            lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
            raise RemoteReadError(printable(lines[-1]) if lines else f"ssh to {self.label} failed")
        return out

    @contextmanager
    def connection(self) -> Iterator[SshMachine]:
        """One ssh connection of our own for the reads inside the block (a command-line run's several
        reads: one handshake, not one each); ended when the block ends. `SshConnectError` (with the
        diagnosed fault) when ssh cannot log in.

        Its control socket is in a private dir: an app started meanwhile must not make its CLI a
        client of a connection that ends with this block."""
        if shutil.which(self.target.ssh) is None:
            raise SshConnectError(SshFault("no-ssh", f"{self.target.ssh!r} was not found",
                                           "--ssh runs the system's OpenSSH client; install it "
                                           "(e.g. apt install openssh-client)."))
        try:
            sockets = Path(tempfile.mkdtemp(prefix="", dir=control_dir()))
        except SshSetupError as error:  # someone else's directory where our sockets go
            raise SshConnectError(SshFault("no-socket-dir", "No place for the ssh connection's socket",
                                           str(error))) from None
        log = tempfile.TemporaryFile()
        argv = ssh_argv(self.target, sockets=sockets, extra=["-N"])
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                                start_new_session=True)
        reaper.register(proc.pid)
        try:
            self._wait_for_socket(proc, sockets, log)
            self.sockets = sockets
            yield self
        finally:
            self.sockets = None
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            reaper.unregister(proc.pid)
            log.close()
            shutil.rmtree(sockets, ignore_errors=True)

    def _wait_for_socket(self, proc: subprocess.Popen[bytes], sockets: Path, log: IO[bytes]) -> None:
        # ssh creates the control socket (under a temporary name, then renamed) once it has logged in.
        deadline = time.monotonic() + self.timeout
        while not any(entry.is_socket() and "." not in entry.name for entry in sockets.iterdir()):
            if proc.poll() is not None:
                log.seek(0)
                stderr = log.read().decode("utf-8", "replace")
                fault = diagnose(255, stderr, self.target, interactive=False)
                if fault is None or fault.kind == "connection-lost":  # no known cause: ssh's own words
                    said = "\n".join(printable(line) for line in stderr.strip().splitlines()[-4:])
                    fault = SshFault("ssh-failed", f"ssh to {printable(self.label)} failed",
                                     f"ssh exited with status {proc.returncode}" + (f":\n  {said}" if said else "."))
                raise SshConnectError(fault)
            if time.monotonic() > deadline:
                raise RemoteReadError(f"{self.label} did not answer within {self.timeout:g} s")
            time.sleep(0.02)

    def _config_root_words(self) -> list[str]:
        return [self.env.get("CLAUDE_CONFIG_DIR", ""), self.env.get("HOME", "")]

    # -- files -----------------------------------------------------------------------------------
    def read_head(self, path: str, limit: int) -> tuple[bool, bytes]:
        # Only regular files (a FIFO would block); the size travels first so a huge file is not sent.
        script = ('[ -e "$1" ] || { echo missing; exit 0; }; [ -f "$1" ] || { echo special; exit 0; }; '
                  '[ -r "$1" ] || { echo unreadable; exit 0; }; echo ok; head -c "$2" -- "$1"')
        out = self.run(script, [path, str(limit + 1)])
        status, _, data = out.partition(b"\n")
        if status == b"missing":
            return False, b""
        if status != b"ok":
            raise PermissionError(f"{path}: {status.decode(errors='replace')} on {self.label}")
        return True, data

    def list_files(self, root: str) -> list[str]:
        script = ('cd -- "$1" 2>/dev/null || exit 0; '
                  'git ls-files --cached --others --exclude-standard -z 2>/dev/null || '
                  "find . -type d \\( -name .git -o -name node_modules -o -name .venv -o -name __pycache__ \\) "
                  "-prune -o -type f -print 2>/dev/null | head -n $2 | sed 's|^\\./||' | tr '\\n' '\\0'")
        out = self.run(script, [root, str(MAX_FILES)])
        return [p for p in out.decode("utf-8", "replace").split("\0") if p][:MAX_FILES]

    # -- the session store -----------------------------------------------------------------------
    def session_root(self) -> Path:
        return self.cache / "config"

    def index_path(self) -> Path:
        return self.cache / "index.sqlite3"

    def _manifest_path(self) -> Path:
        return self.cache / "manifest.json"

    def remote_listing(self) -> dict[str, str]:
        """Every transcript in the remote store: relative name -> a size+mtime signature."""
        script = ('[ -n "$2" ] && HOME=$2; r=${1:-$HOME/.claude}; cd -- "$r/projects" 2>/dev/null || exit 0; '
                  "find . -type f -name '*.jsonl' -exec ls -ln {} + 2>/dev/null")
        listing: dict[str, str] = {}
        for line in self.run(script, self._config_root_words()).decode("utf-8", "replace").splitlines():
            fields = line.split(None, 8)
            if len(fields) < 9:
                continue
            name = fields[8][2:] if fields[8].startswith("./") else fields[8]
            if _STORE_NAME.fullmatch(name):
                listing[name] = " ".join(fields[4:8])
        return listing

    def sync_sessions(self) -> int:
        """Mirror the remote store's transcripts into the cache: fetch new and changed ones (tar over
        the shared connection), drop deleted ones. Never writes on the remote."""
        projects = self.session_root() / "projects"
        projects.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            known: dict[str, str] = json.loads(self._manifest_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            known = {}
        listing = self.remote_listing()
        changed = sorted(name for name, sig in listing.items()
                         if known.get(name) != sig or not (projects / name).is_file())
        for name in set(known) - set(listing):
            (projects / name).unlink(missing_ok=True)
        fetched = 0
        for start in range(0, len(changed), 200):
            fetched += self._fetch(projects, changed[start:start + 200])
        paths.atomic_write_text(self._manifest_path(), json.dumps(listing))
        return fetched

    def _fetch(self, projects: Path, names: list[str]) -> int:
        script = ('[ -n "$2" ] && HOME=$2; r=${1:-$HOME/.claude}; shift 2; cd -- "$r/projects" && '
                  "tar cf - -- \"$@\" 2>/dev/null")
        data = self.run(script, [*self._config_root_words(), *names], timeout=max(self.timeout, 120))
        import io

        count = 0
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
            for member in archive:
                name = member.name[2:] if member.name.startswith("./") else member.name
                # Only the store's own names, only regular files: nothing the remote sends can land
                # outside the mirror or become a link.
                if not member.isreg() or not _STORE_NAME.fullmatch(name) or ".." in name.split("/"):
                    continue
                source = archive.extractfile(member)
                if source is None:
                    continue
                target = projects / name
                target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                tmp = target.with_name(f".{target.name}.part")
                with open(tmp, "wb") as handle:
                    handle.write(source.read())
                os.chmod(tmp, 0o600)
                os.replace(tmp, target)
                os.utime(target, (member.mtime, member.mtime))  # "last active" sorts as there
                count += 1
        return count


def read_preview(machine: Machine, path: str, cwd: str, limit: int) -> tuple[bool, bytes | None, FileDiff | None]:
    """(exists, bytes, guard) of a file for an Edit/Write preview, read on ``machine`` (a thread's job).

    The shape of `ui.dialogs.tool_input.DiskFile`: a guard is a ready summary when the file is too
    big or cannot be read."""
    full = path if PurePosixPath(path).is_absolute() or not cwd else str(PurePosixPath(cwd) / path)
    try:
        exists, data = machine.read_head(full, limit)
    except OSError as error:
        return True, None, FileDiff(path, "edit", note=f"Cannot read the file on {machine.label}: {error}.")
    if not exists:
        return False, None, None
    if len(data) > limit:
        return True, None, FileDiff(path, "huge", note="Large file — diff not computed.")
    return True, data, None


_machines: dict[tuple[str, tuple[str, ...], str, str], SshMachine] = {}


def machine_for(options: CliOptions) -> Machine:
    """The machine the CLI of ``options`` runs on (one SshMachine, and so one mirror, per host)."""
    target = options.ssh
    if target is None:
        return Machine()
    key = (target.label, target.options, options.env.get("CLAUDE_CONFIG_DIR", ""), options.env.get("HOME", ""))
    if key not in _machines:
        _machines[key] = SshMachine(target, options.env)
    return _machines[key]
