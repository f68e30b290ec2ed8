"""`SshMachine`'s remote scripts, run for real by `sh` on a local stand-in for the remote.

`SshMachine.run` is replaced by a local ``sh -c script`` (exactly what the remote login shell runs
after ssh), so the listing, the tar fetch and the guarded reads are exercised as they are sent.
"""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import tarfile
from collections.abc import Sequence
from pathlib import Path

import pytest

from claude_tui.remote.machine import SshMachine, read_preview
from claude_tui.transport.ssh.argv import SshTarget

SID = "0b5d7a2e-1111-4222-8333-444455556666"
OTHER = "9f0e1d2c-aaaa-4bbb-8ccc-ddddeeeeffff"


class LocalStandIn(SshMachine):
    """Runs the remote scripts here; counts the calls (each would be one ssh exchange)."""

    calls = 0

    def run(self, script: str, args: Sequence[str] = (), *, timeout: float | None = None) -> bytes:
        type(self).calls += 1
        return subprocess.run(["sh", "-c", script, "claude-tui", *args], capture_output=True, check=False,
                              timeout=30).stdout


def _digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def store(tmp_path: Path) -> Path:
    root = tmp_path / "remote-home" / ".claude"
    project = root / "projects" / "-srv-app"
    (project / SID / "subagents").mkdir(parents=True)
    (project / f"{SID}.jsonl").write_text('{"type":"user"}\n')
    (project / SID / "subagents" / "agent-a1.jsonl").write_text('{"type":"assistant"}\n')
    (project / "notes.txt").write_text("not a transcript")
    (project / f"{OTHER}.jsonl").write_text('{"type":"user","n":2}\n')
    os.utime(project / f"{OTHER}.jsonl", (1_600_000_000, 1_600_000_000))
    return root


def machine(store: Path, cache: Path, **env: str) -> LocalStandIn:
    return LocalStandIn(SshTarget("box"), {"CLAUDE_CONFIG_DIR": str(store), **env}, cache=cache)


def test_the_store_is_mirrored_and_never_written(store: Path, tmp_path: Path) -> None:
    before = _digest(store)
    m = machine(store, tmp_path / "cache")
    assert m.sync_sessions() == 3
    mirror = m.session_root() / "projects" / "-srv-app"
    assert (mirror / f"{SID}.jsonl").read_text() == '{"type":"user"}\n'
    assert (mirror / SID / "subagents" / "agent-a1.jsonl").is_file()
    assert not (mirror / "notes.txt").exists()
    assert int((mirror / f"{OTHER}.jsonl").stat().st_mtime) == 1_600_000_000  # "last active" survives
    assert _digest(store) == before
    assert str(tmp_path / "cache") in str(m.session_root())


def test_only_changed_files_travel_and_deleted_ones_go(store: Path, tmp_path: Path) -> None:
    m = machine(store, tmp_path / "cache")
    m.sync_sessions()
    assert m.sync_sessions() == 0
    with open(store / "projects" / "-srv-app" / f"{SID}.jsonl", "a") as handle:
        handle.write('{"type":"assistant"}\n')
    (store / "projects" / "-srv-app" / f"{OTHER}.jsonl").unlink()
    assert m.sync_sessions() == 1
    mirror = m.session_root() / "projects" / "-srv-app"
    assert (mirror / f"{SID}.jsonl").read_text().count("\n") == 2
    assert not (mirror / f"{OTHER}.jsonl").exists()


def test_home_from_cli_env_finds_the_store(store: Path, tmp_path: Path) -> None:
    m = LocalStandIn(SshTarget("box"), {"HOME": str(store.parent)}, cache=tmp_path / "cache")
    assert m.sync_sessions() == 3


def test_a_hostile_archive_cannot_escape_the_mirror(store: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    m = machine(store, tmp_path / "cache")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name in ("../../escaped.jsonl", "/etc/abs.jsonl", "-srv-app/ok.jsonl"):
            info = tarfile.TarInfo(name)
            info.size = 2
            archive.addfile(info, io.BytesIO(b"{}"))
        link = tarfile.TarInfo("-srv-app/link.jsonl")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    monkeypatch.setattr(LocalStandIn, "run", lambda self, script, args=(), timeout=None: buffer.getvalue())
    projects = m.session_root() / "projects"
    projects.mkdir(parents=True)
    assert m._fetch(projects, ["x"]) == 1
    assert (projects / "-srv-app" / "ok.jsonl").read_text() == "{}"
    assert not (projects / "-srv-app" / "link.jsonl").exists()
    assert not (tmp_path / "escaped.jsonl").exists() and not (m.cache / "escaped.jsonl").exists()


def test_guarded_reads(tmp_path: Path) -> None:
    m = LocalStandIn(SshTarget("box"), {}, cache=tmp_path / "cache")
    (tmp_path / "a.txt").write_text("alpha\nbeta\n")
    os.mkfifo(tmp_path / "fifo")
    assert m.read_head(str(tmp_path / "a.txt"), 100) == (True, b"alpha\nbeta\n")
    assert m.read_head(str(tmp_path / "missing"), 100) == (False, b"")
    with pytest.raises(PermissionError):
        m.read_head(str(tmp_path / "fifo"), 100)  # would block: never opened
    exists, data, guard = read_preview(m, "a.txt", str(tmp_path), 4)
    assert exists and data is None and guard is not None and guard.kind == "huge"
    exists, data, guard = read_preview(m, str(tmp_path / "a.txt"), "", 100)
    assert (exists, data, guard) == (True, b"alpha\nbeta\n", None)


def test_file_list_from_git_and_without(tmp_path: Path) -> None:
    m = LocalStandIn(SshTarget("box"), {}, cache=tmp_path / "cache")
    plain = tmp_path / "plain dir"
    (plain / "src").mkdir(parents=True)
    (plain / "src" / "x.py").write_text("")
    (plain / "node_modules").mkdir()
    (plain / "node_modules" / "junk.js").write_text("")
    assert m.list_files(str(plain)) == ["src/x.py"]
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "kept.txt").write_text("")
    (repo / ".gitignore").write_text("ignored.txt\n")
    (repo / "ignored.txt").write_text("")
    assert sorted(m.list_files(str(repo))) == [".gitignore", "kept.txt"]


FAKE_SSH = '#!/bin/sh\n# Stands in for ssh + sshd: the last word is the remote command, run by the login shell.\n' \
           'for last; do :; done\nexec "$LOGIN_SHELL" -c "$last"\n'


@pytest.mark.parametrize("shell", ["sh", "fish", "tcsh"])
def test_the_real_reads_run_under_any_login_shell(tmp_path: Path, shell: str, monkeypatch: pytest.MonkeyPatch,
                                                  store: Path) -> None:
    import shutil

    login = shutil.which(shell)
    if login is None:
        pytest.fail(f"{shell} is not installed (apt-get install -y fish tcsh; .ci/run does)", pytrace=False)
    fake = tmp_path / "ssh"
    fake.write_text(FAKE_SSH)
    fake.chmod(0o755)
    monkeypatch.setenv("LOGIN_SHELL", login)
    machine = SshMachine(SshTarget("box", ssh=str(fake)), {"CLAUDE_CONFIG_DIR": str(store)}, cache=tmp_path / "c")
    machine.sockets = tmp_path
    odd = tmp_path / "it's a \\\\ file!"
    odd.write_bytes(b"hello\n")
    assert machine.read_head(str(odd), 100) == (True, b"hello\n")
    assert machine.read_head(str(tmp_path / "gone"), 100) == (False, b"")
    assert machine.sync_sessions() == 3  # the listing and the tar fetch, with their many arguments
    assert (machine.session_root() / "projects" / "-srv-app" / f"{SID}.jsonl").is_file()


@pytest.mark.parametrize(("script", "kind", "words"), [
    ("echo 'ssh: Could not resolve hostname box: Name or service not known' >&2; exit 255", "no-such-host",
     "could not be resolved"),
    ("echo 'something odd happened' >&2; exit 255", "ssh-failed", "something odd happened"),
    ("exit 3", "ssh-failed", "status 3"),
])
def test_a_connection_that_cannot_log_in_is_diagnosed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      script: str, kind: str, words: str) -> None:
    from claude_tui.remote.machine import SshConnectError

    fake = tmp_path / "ssh"
    fake.write_text(f"#!/bin/sh\n{script}\n")
    fake.chmod(0o755)
    import shutil
    import tempfile

    runtime = Path(tempfile.mkdtemp(prefix="ct", dir="/tmp"))  # short: a socket path has ~104 bytes
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    machine = SshMachine(SshTarget("box", ssh=str(fake)), cache=tmp_path / "c")
    try:
        with pytest.raises(SshConnectError) as caught, machine.connection():
            pass
        assert caught.value.fault.kind == kind and words in caught.value.fault.text + caught.value.fault.title
        assert "F5" not in caught.value.fault.text
        assert not list((runtime / "claude-tui" / "ssh").iterdir())  # the private socket dir is gone
    finally:
        shutil.rmtree(runtime)


def test_no_ssh_client_is_said_before_anything_starts(tmp_path: Path) -> None:
    from claude_tui.remote.machine import SshConnectError

    machine = SshMachine(SshTarget("box", ssh="no-such-ssh-client"), cache=tmp_path / "c")
    with pytest.raises(SshConnectError, match="was not found"), machine.connection():
        pass
