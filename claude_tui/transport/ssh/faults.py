"""What went wrong with a remote CLI, in words: ssh's failures told apart from the CLI's own exit.

ssh reports its own failures on stderr with exit status 255; the remote wrapper (`transport/ssh/argv.py`)
marks its messages with `REMOTE_MARK`. Each fault says what failed and what to do; ssh's own message
is quoted (made printable: a server's banner must not reach the terminal as escape sequences).
"""

from __future__ import annotations

from dataclasses import dataclass

from claude_tui.protocol.sanitize import printable
from claude_tui.transport.events import ProcessExited
from claude_tui.transport.ssh.argv import EXIT_NO_CLAUDE, EXIT_NO_DIR, REMOTE_MARK, SshTarget
from claude_tui.transport.ssh.known_hosts import keygen_remove

__all__ = ["SshFault", "describe_exit", "diagnose"]

RESTART_HINT = "Press F5 to reconnect and resume this session; your draft and the conversation are kept."


@dataclass(frozen=True)
class SshFault:
    kind: str
    """unknown-host, host-key-changed, key-refused, no-such-host, unreachable, no-claude, no-directory,
    connection-lost; and for `remote.machine.SshMachine.connection`: no-ssh, no-socket-dir, ssh-failed."""
    title: str
    text: str


def _quote(lines: list[str], limit: int = 4) -> str:
    kept = [printable(line.strip()) for line in lines if line.strip() and not set(line.strip()) <= {"@"}]
    kept = kept[-limit:]
    return ("\n\nssh said:\n" + "\n".join(f"  {line}" for line in kept)) if kept else ""


def diagnose(returncode: int | None, stderr: str, target: SshTarget, *, interactive: bool = True) -> SshFault | None:
    """The fault behind an exit of the ssh process, or None when the remote CLI itself exited.

    ``interactive``: the advice is for the app (press F5); else for a command run again."""
    host = printable(target.label)
    again = "press F5" if interactive else "run the command again"
    retry = RESTART_HINT if interactive else "Run the command again."
    lines = stderr.splitlines()
    mine = [line[len(REMOTE_MARK):].strip() for line in lines if line.startswith(REMOTE_MARK)]
    ssh_lines = [line for line in lines if not line.startswith(REMOTE_MARK)]
    said = _quote(ssh_lines)
    text = stderr

    def has(*needles: str) -> bool:
        return any(needle in text for needle in needles)

    if returncode == EXIT_NO_CLAUDE and mine:
        where = ("--claude-path (or claude_path in the host's entry of the config, for a tab opened from the "
                 "palette)")
        if "is not an executable file" in mine[-1]:  # a path was given, and it is wrong
            return SshFault("no-claude", f"No Claude Code at that path on {host}",
                            f"{printable(mine[-1])}.\nGive the path of the claude executable on {host} with "
                            f"{where}, or leave it out to use the remote PATH.")
        return SshFault("no-claude", f"Claude Code is not installed on {host}",
                        f"{printable(mine[-1])}.\nInstall it there (npm install -g @anthropic-ai/claude-code), or "
                        f"give its path on that machine with {where}.")
    if returncode == EXIT_NO_DIR and mine:
        return SshFault("no-directory", f"No such directory on {host}",
                        f"{printable(mine[-1])}.\nStart claude-tui with --cwd set to a directory on {host}.")
    if returncode != 255:
        return None
    if has("REMOTE HOST IDENTIFICATION HAS CHANGED", "Host key for", "has changed and you have requested"):
        return SshFault("host-key-changed", f"The host key of {host} has changed",
                        f"{host} presented a different key than the one in your known_hosts. Either the machine "
                        "was reinstalled, or someone is intercepting the connection. If you expected the change, "
                        f"remove the old key ({printable(keygen_remove(target))}), "
                        f"connect once in a terminal (ssh {host}) to "
                        f"check and accept the new one, then {again}.{said}")
    if has("Host key verification failed", "host key is known for", "authenticity of host"):
        return SshFault("unknown-host", f"{host} is not a known host",
                        f"ssh does not know {host}'s host key yet, and claude-tui cannot ask you to confirm it. "
                        f"Connect once in a terminal (ssh {host}) and accept the key, then {again}.{said}")
    if has("Permission denied", "Too many authentication failures", "No supported authentication methods"):
        return SshFault("key-refused", f"{host} refused the login",
                        f"None of your keys was accepted. Add your public key to ~/.ssh/authorized_keys there "
                        f"(ssh-copy-id {host}). A key with a passphrase must be loaded into your ssh-agent "
                        f"(ssh-add): claude-tui runs ssh in batch mode and cannot ask for passphrases or "
                        f"passwords. Then {again}.{said}")
    if has("Could not resolve hostname", "Name or service not known", "nodename nor servname"):
        return SshFault("no-such-host", f"Unknown host {host}",
                        f"The name {host} could not be resolved. Check the spelling, or add a Host entry to "
                        f"~/.ssh/config.{said}")
    if has("Connection refused", "Connection timed out", "No route to host", "Network is unreachable",
           "Operation timed out"):
        return SshFault("unreachable", f"Cannot reach {host}",
                        f"The machine did not accept the connection (is it up, and is sshd listening on that "
                        f"port?). {again[0].upper() + again[1:]} to try again.{said}")
    return SshFault("connection-lost", f"The connection to {host} was lost",
                    f"The ssh connection ended before Claude Code did (the network dropped, the machine "
                    f"restarted, or the server closed it). {retry}{said}")


def describe_exit(target: SshTarget | None, exited: ProcessExited) -> tuple[str, str]:
    """(title, text) for the note shown when the CLI's process ended by itself."""
    if target is not None:
        fault = diagnose(exited.returncode, exited.stderr_tail, target)
        if fault is not None:
            return fault.title, fault.text
        return (f"Claude Code on {printable(target.label)} stopped",
                exited.describe() + "\nPress F5 to restart it in this session.")
    return "Claude Code stopped", exited.describe() + "\nPress F5 to restart Claude Code in this session."
