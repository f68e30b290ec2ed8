"""The remote argv: ssh options, destination parsing, and quoting for the remote shell.

The quoting tests run the built command through a real login shell's ``-c`` (what sshd does with
it) — sh, and fish, tcsh and csh where installed (`.ci/run` installs them) — so what the "remote"
program receives is compared with what it was given, word for word.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claude_tui.transport.options import CliOptions
from claude_tui.transport.ssh.argv import (
    REMOTE_MARK,
    SshSetupError,
    SshTarget,
    cli_command,
    parse_destination,
    remote_command,
    remote_launch,
    ssh_argv,
)
from tests.servers import need_program

NASTY = ["plain", "two words", "it's", 'say "hi"', "$HOME", "`id`", "$(id)", "a;b", "back\\slash", "*", "",
         "new\nline", "ünï", "-dash", "~", "two\\\\back", "!!", "it\\'s"]

ECHO = "import json, os, sys; print(json.dumps({'argv': sys.argv[1:], 'cwd': os.getcwd(), " \
       "'env': {k: v for k, v in os.environ.items() if k.startswith('CT_')}, 'stdin': sys.stdin.read()}))"


LOGIN_SHELLS = ["sh", "bash", "dash", "zsh", "fish", "tcsh", "csh"]


def login_shell(name: str) -> str:
    if name == "sh" and shutil.which(name) is None:  # every POSIX machine has one
        pytest.fail("sh is not installed", pytrace=False)
    return need_program(name)


def run_remote(command: str | object, stdin: bytes = b"", shell: str = "sh") -> subprocess.CompletedProcess[bytes]:
    """sshd runs the command string with the login shell's -c; here ``shell`` stands in for it."""
    from claude_tui.transport.ssh.argv import RemoteCommand

    if isinstance(command, RemoteCommand):
        command, stdin = command.command, command.stdin + stdin
    assert isinstance(command, str)
    return subprocess.run([login_shell(shell), "-c", command], input=stdin, capture_output=True, timeout=30,
                          env={**os.environ, "HOME": os.environ.get("HOME", "/root")})


@pytest.mark.parametrize("shell", LOGIN_SHELLS)
def test_every_word_arrives_as_it_was(tmp_path: Path, shell: str) -> None:
    odd_dir = tmp_path / "dir with 'quote' and $x"
    odd_dir.mkdir()
    env = {"CT_KEY": "sk-secret value $HOME 'q' `x` \\ !! \nsecond line", "CT_EMPTY": ""}
    command = cli_command([sys.executable, "-c", ECHO, *NASTY], cwd=str(odd_dir), env=env)
    assert "sk-secret" not in command.command and "two words" not in command.command  # `ps` there shows these
    result = run_remote(command, b"line one\nline two\n", shell)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["argv"] == NASTY
    assert os.path.realpath(seen["cwd"]) == os.path.realpath(odd_dir)
    assert seen["env"] == env
    assert seen["stdin"] == "line one\nline two\n"  # the script is consumed to the byte, the rest is the CLI's


@pytest.mark.parametrize("shell", LOGIN_SHELLS)
def test_a_read_script_runs_under_any_login_shell(shell: str) -> None:
    result = run_remote(remote_command('printf "%s|" "$#" "$@"', ["a b", "it's", "$HOME", "x\\y", "!x", "l\nm"]),
                        shell=shell)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == "6|a b|it's|$HOME|x\\y|!x|l\nm|"


def test_the_command_line_is_the_same_words_for_every_shell() -> None:
    command = cli_command(["claude", "--model", "it's $x"], cwd="/srv/a b").command
    quoted = command[command.index("'") + 1:command.rindex("'")]
    assert command.count("'") == 2 and not set(quoted) & set("'\\!\n")
    assert command.startswith("exec sh -c ")


def test_a_script_cut_short_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    command = remote_command(f"touch {marker}\necho done")
    cut = command.stdin[:-3]  # the channel dropped before the end
    result = subprocess.run(["sh", "-c", command.command.replace(f"count={len(command.stdin)}", f"count={len(cut)}")],
                            input=cut, capture_output=True, timeout=30)
    assert result.returncode != 0 and not marker.exists()


@pytest.mark.parametrize("name", ["1ABC", "A-B", "A B", "A=B", "", "HOME\n"])
def test_bad_env_names_are_refused(name: str) -> None:
    with pytest.raises(SshSetupError):
        remote_command("true", env={name: "x"})


def test_missing_directory_and_missing_claude_say_so(tmp_path: Path) -> None:
    result = run_remote(cli_command([sys.executable, "-c", ECHO], cwd=str(tmp_path / "nope")))
    assert result.returncode == 97
    assert REMOTE_MARK.encode() in result.stderr and b"nope" in result.stderr
    result = run_remote(cli_command(["no-such-claude-binary", "--x"]))
    assert result.returncode == 98
    assert b"no-such-claude-binary' was not found on the remote PATH" in result.stderr


def test_remote_exit_status_is_the_clis() -> None:
    result = run_remote(cli_command([sys.executable, "-c", "import sys; sys.exit(7)"]))
    assert result.returncode == 7


def test_closing_stdin_ends_a_cli_that_ignores_eof(tmp_path: Path) -> None:
    """The channel closing (quit, dropped connection) ends the remote CLI even if it hangs on."""
    marker = tmp_path / "pid"
    stubborn = f"import os, signal, time; open({str(marker)!r}, 'w').write(str(os.getpid())); " \
               "signal.signal(signal.SIGTERM, signal.SIG_DFL); time.sleep(120)"
    command = cli_command([sys.executable, "-c", stubborn])
    proc = subprocess.Popen(["setsid", "sh", "-c", command.command], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    assert proc.stdin is not None
    proc.stdin.write(command.stdin)
    proc.stdin.flush()
    for _ in range(200):
        if marker.exists() and marker.read_text():
            break
        subprocess.run(["sleep", "0.05"])
    pid = int(marker.read_text())
    proc.stdin.close()  # what sshd does when the channel closes
    assert proc.wait(timeout=20) != 0
    try:
        os.kill(pid, 0)
        alive = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0] != "Z"
    except ProcessLookupError:
        alive = False
    assert not alive, "the remote CLI outlived its channel"


def test_ssh_options_multiplexing_and_batch_mode(tmp_path: Path) -> None:
    target = SshTarget("me@box", 2222, ("-F", "/x/ssh_config"))
    argv = ssh_argv(target, sockets=tmp_path)
    assert argv[:3] == ["ssh", "-F", "/x/ssh_config"]  # the user's first: ssh keeps the first value
    assert "-T" in argv and "-t" not in argv
    options = [argv[i + 1] for i, word in enumerate(argv) if word == "-o"]
    assert "BatchMode=yes" in options and "ControlMaster=auto" in options
    assert f"ControlPath={tmp_path}/%C" in options and "ControlPersist=no" in options
    assert argv[argv.index("-p") + 1] == "2222"
    assert argv[-2:] == ["--", "me@box"]  # nothing after -- can be read as an option
    reads = ssh_argv(target, master=False, sockets=tmp_path)
    assert "ControlMaster=no" in [reads[i + 1] for i, word in enumerate(reads) if word == "-o"]


def test_launch_carries_the_cli_argv_and_not_the_local_env(tmp_path: Path) -> None:
    opts = CliOptions(cwd="/srv/app", claude_path="/opt/claude", add_dirs=["/srv/other dir"],
                      env={"ANTHROPIC_API_KEY": "sk-1"}, model="opus")
    launch = remote_launch(opts, SshTarget("box"), sockets=tmp_path, base_env={"SSH_AUTH_SOCK": "/a", "CLAUDECODE": "1"})
    assert launch.env == {"SSH_AUTH_SOCK": "/a"}  # ssh gets ours; the CLI gets only what we send
    assert launch.cwd is None
    assert launch.argv[-1].startswith("exec sh -c ") and "/srv" not in launch.argv[-1]
    script = launch.preamble.decode()
    assert "'/srv/other dir'" in script and "/opt/claude" in script and "/srv/app" in script
    assert "export ANTHROPIC_API_KEY=sk-1\n" in script
    assert "export CLAUDE_CODE_ENABLE_TODO_TOOLS=1\n" in script
    assert f"count={len(launch.preamble)}" in launch.argv[-1]
    assert "PATH=" not in script


@pytest.mark.parametrize(("text", "dest", "port"), [
    ("box", "box", None),
    ("me@box.example", "me@box.example", None),
    ("ssh://me@box:2222", "me@box", 2222),
    ("ssh://box", "box", None),
    ("ssh://me@[::1]:22", "me@::1", 22),
    ("  alias  ", "alias", None),
])
def test_destinations(text: str, dest: str, port: int | None) -> None:
    target = parse_destination(text, ["-F", "cfg"])
    assert (target.dest, target.port, target.options) == (dest, port, ("-F", "cfg"))


@pytest.mark.parametrize(("text", "why"), [
    ("", "empty"),
    ("-oProxyCommand=touch /tmp/x", "starts with '-'"),
    ("box:2222", "ssh://box:2222"),
    ("ssh://me@box:99999", "port"),
    ("ssh://me@box/path", "ssh://"),
    ("my box", "spaces"),
    ("box\x1b[2J", "control"),
])
def test_bad_destinations_are_explained(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why.replace("(", r"\(")):
        parse_destination(text)


def test_a_missing_ssh_client_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SshSetupError, match="OpenSSH client"):
        remote_launch(CliOptions(), SshTarget("box", ssh="no-such-ssh-client"), sockets=tmp_path)
