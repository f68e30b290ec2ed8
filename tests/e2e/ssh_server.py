"""A throwaway OpenSSH server on 127.0.0.1 for the remote tier (`test_ssh_remote.py`).

`SshServer` runs Debian's ``/usr/sbin/sshd`` on a free port with its own config, host key and a
temporary ``authorized_keys`` holding a fresh client key, so the current user can log in to
"another machine" that is this one. `client_config()` writes an ssh_config with Host aliases for
the good path and for each fault (unknown host key, changed host key, a refused key); tests pass
it as the ``ssh_options`` ``["-F", path]``, so nothing of the developer's own ~/.ssh is used.

Other login shells: sshd hands a command to the user's login shell as ``SHELL -c COMMAND``. One more
port per shell has ``ForceCommand SHELL -c "$SSH_ORIGINAL_COMMAND"`` (a ``Match LocalPort`` block),
which hands fish or tcsh exactly the string a login with that shell would get — without creating a
user or touching /etc/passwd.
"""

from __future__ import annotations

import getpass
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

SSHD = os.environ.get("CLAUDE_TUI_E2E_SSHD", "/usr/sbin/sshd")
INSTALL_HINT = "install Debian's openssh-server (apt-get install -y openssh-server); .ci/run does"

GOOD, UNKNOWN, CHANGED, BAD_KEY = "e2e-remote", "e2e-unknown-host", "e2e-changed-key", "e2e-refused-key"
LOGIN_SHELLS = {"e2e-fish": "fish", "e2e-tcsh": "tcsh"}
"""Host aliases whose commands run under that login shell (see `SshServer.shell_ports`)."""
SLOW = "e2e-far-away"
"""The good host behind `delay_proxy.py`: ``FAR_RTT`` seconds of round trip."""
FAR_RTT = 0.2


class SshServerError(RuntimeError):
    pass


def _keygen(path: Path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "claude-tui-e2e", "-f", str(path)],
                   check=True, capture_output=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class SshServer:
    def __init__(self, root: Path, users: tuple[str, ...] = ()) -> None:
        """``users``: more logins to allow (see `ThrowawayUser`); each gets a Host alias ``e2e-as-<user>``."""
        self.root = root
        self.port = 0
        self.user = getpass.getuser()
        self.users = users
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = root / "sshd.log"
        self.shell_ports: dict[str, int] = {}
        """login shell -> the port whose commands it runs (shells installed here only)."""

    # -- set-up ----------------------------------------------------------------------
    def start(self) -> SshServer:
        if not os.access(SSHD, os.X_OK):
            raise SshServerError(f"{SSHD} is missing: {INSTALL_HINT}")
        self.root.mkdir(parents=True, exist_ok=True)
        for name in ("host_key", "client_key", "other_key", "impostor_host_key"):
            _keygen(self.root / name)
        (self.root / "authorized_keys").write_text((self.root / "client_key.pub").read_text())
        os.chmod(self.root / "authorized_keys", 0o600)
        for user in self.users:  # sshd reads a user's keys as that user: theirs live in their home
            entry = pwd.getpwnam(user)
            keys = Path(entry.pw_dir) / ".ssh" / "authorized_keys"
            keys.parent.mkdir(mode=0o700, exist_ok=True)
            keys.write_text((self.root / "client_key.pub").read_text())
            for path in (keys.parent, keys):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        if os.geteuid() == 0:
            Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation dir
        for _attempt in range(5):
            self.port = _free_port()
            self.shell_ports = {shell: _free_port() for shell in LOGIN_SHELLS.values() if shutil.which(shell)}
            config = self._write_server_config()
            with open(self.log, "ab") as log:
                self.proc = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stdout=log, stderr=log,
                                             stdin=subprocess.DEVNULL, start_new_session=True)
            if self._wait_listening():
                self._write_client_config()
                return self
            self.stop()
        raise SshServerError(f"sshd did not start: {self.log.read_text(errors='replace')[-2000:]}")

    def _write_server_config(self) -> Path:
        config = self.root / "sshd_config"
        config.write_text("\n".join([
            f"Port {self.port}",
            *(f"Port {port}" for port in self.shell_ports.values()),
            "ListenAddress 127.0.0.1",
            f"HostKey {self.root / 'host_key'}",
            f"PidFile {self.root / 'sshd.pid'}",
            f"AuthorizedKeysFile {self.root / 'authorized_keys'} .ssh/authorized_keys",
            f"AllowUsers {' '.join([self.user, *self.users])}",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            "StrictModes no",
            "UsePAM no",
            "PrintMotd no",
            "LogLevel VERBOSE",
            *(f"Match LocalPort {port}\n  ForceCommand {shutil.which(shell)} -c \"$SSH_ORIGINAL_COMMAND\""
              for shell, port in self.shell_ports.items()),
        ]) + "\n")
        return config

    def _wait_listening(self, timeout: float = 10) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                return False
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                    if sock.recv(4).startswith(b"SSH-"):
                        return True
            except OSError:
                time.sleep(0.05)
        return False

    def _write_client_config(self) -> None:
        host_key = (self.root / "host_key.pub").read_text().split()[:2]
        impostor = (self.root / "impostor_host_key.pub").read_text().split()[:2]
        entry = f"[127.0.0.1]:{self.port}"
        (self.root / "known_hosts").write_text(f"{entry} {' '.join(host_key)}\n")
        (self.root / "known_hosts_changed").write_text(f"{entry} {' '.join(impostor)}\n")
        (self.root / "known_hosts_empty").write_text("")

        def host(alias: str, known_hosts: str, key: str = "client_key", proxy: str = "", port: int = 0,
                 user: str = "") -> str:
            return "\n".join([
                f"Host {alias}",
                *([f"  ProxyCommand {proxy}"] if proxy else []),
                # The proxy's host: the known_hosts entry stays [127.0.0.1]:port.
                f"  HostKeyAlias [127.0.0.1]:{self.port}" if proxy or port else "  HostName 127.0.0.1",
                *(["  HostName 127.0.0.1"] if port else []),
                f"  Port {port or self.port}",
                f"  User {user or self.user}",
                f"  IdentityFile {self.root / key}",
                "  IdentitiesOnly yes",
                "  IdentityAgent none",
                f"  UserKnownHostsFile {self.root / known_hosts}",
                "  GlobalKnownHostsFile /dev/null",
                "  StrictHostKeyChecking yes",
                "  CheckHostIP no",
                "",
            ])

        self.client_config.write_text("\n".join([
            host(GOOD, "known_hosts"),
            host(UNKNOWN, "known_hosts_empty"),
            host(CHANGED, "known_hosts_changed"),
            host(BAD_KEY, "known_hosts", key="other_key"),
            host(SLOW, "known_hosts", proxy=f"{sys.executable} {Path(__file__).with_name('delay_proxy.py')} "
                                          f"127.0.0.1 {self.port} {FAR_RTT / 2}"),
            *(host(alias, "known_hosts", port=self.shell_ports[shell]) for alias, shell in LOGIN_SHELLS.items()
              if shell in self.shell_ports),
            *(host(f"e2e-as-{user}", "known_hosts", user=user) for user in self.users),
        ]))

    @property
    def client_config(self) -> Path:
        return self.root / "ssh_config"

    @property
    def ssh_options(self) -> list[str]:
        return ["-F", str(self.client_config)]

    # -- faults ----------------------------------------------------------------------
    def session_processes(self) -> list[int]:
        """The per-connection sshd children (the listener's children)."""
        if self.proc is None:
            return []
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rfind(")") + 2:].split()[1]) == self.proc.pid:
                found.append(int(entry))
        return found

    def drop_connections(self) -> int:
        """SIGKILL every connection's sshd child: the network, as far as ssh can tell, went away."""
        killed = 0
        for pid in self.session_processes():
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
        return killed

    # -- tear-down -------------------------------------------------------------------
    def stop(self) -> None:
        self.drop_connections()
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
            self.proc = None


class ThrowawayUser:
    """A real account whose login shell is ``shell`` (root only: useradd), removed again on `remove`.

    Its home is a fresh 0700 directory of its own in /tmp; everything the test runs as that user must
    be readable by anyone (system binaries, /usr/bin/python3)."""

    def __init__(self, shell: str) -> None:
        self.shell = shutil.which(shell) or ""
        self.name = f"ctui{os.getpid() % 100000}{Path(self.shell).name[:4]}"
        self.home = Path("/tmp") / f"{self.name}-home"

    def create(self) -> ThrowawayUser:
        if os.geteuid() != 0:
            raise SshServerError("a throwaway user needs root (useradd)")
        if not self.shell:
            raise SshServerError(f"{self.shell or 'the shell'} is not installed (apt-get install -y fish tcsh)")
        self.remove()  # a leftover of an interrupted run
        # "*": no password, yet not locked ("!"), which sshd would refuse even for a key.
        subprocess.run(["useradd", "-M", "-d", str(self.home), "-s", self.shell, "-p", "*", self.name], check=True,
                       capture_output=True)
        self.home.mkdir(mode=0o700)
        shutil.chown(self.home, self.name, self.name)
        return self

    def remove(self) -> None:
        subprocess.run(["userdel", "-f", self.name], capture_output=True)
        shutil.rmtree(self.home, ignore_errors=True)
