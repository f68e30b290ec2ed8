"""`!command` on the prompt: one shell command, run where the CLI runs (issue 30).

Locally it runs in the session's directory; with `--ssh`, on that machine, under the same remote
wrapper as the CLI (`ssh.cli_command`: its own process group there, ended when our channel
closes). Either way the local process is a `CliProcess`, so it is in its own group under a keeper
with a marker: Ctrl+C (`stop`) ends it and everything it started, and nothing outlives the app.

stderr is merged into stdout (`exec 2>&1`), in the order written, as Claude Code's own bash mode
shows and sends it. The text kept for Claude is bounded (`OUTPUT_LIMIT`); ANSI escapes are cut
from it. No textual.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass

from claude_tui.transport.process import CliProcess
from claude_tui.transport.ssh.target import SshTarget

OUTPUT_LIMIT = 30_000
"""Characters of output kept for Claude (Claude Code's default `BASH_MAX_OUTPUT_LENGTH`); beyond
it the start is kept and the cut said."""
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_MERGED = "exec 2>&1\n"


@dataclass
class ShellResult:
    command: str
    output: str
    exit_code: int | None
    stopped: bool = False
    cut: int = 0
    """Characters of output left out (over `OUTPUT_LIMIT`)."""


def local_argv(command: str) -> list[str]:
    shell = shutil.which("bash") or "/bin/sh"  # Claude Code's bash mode runs bash
    return [shell, "-c", _MERGED + command]


class ShellCommand:
    """One `!command`: `run` streams its lines to `on_lines`; `stop` ends it (and what it started)."""

    def __init__(self, command: str, *, cwd: str | None = None, ssh: SshTarget | None = None) -> None:
        self.command = command
        self._stopped = False
        self._preamble = b""
        if ssh is None:
            self.process = CliProcess(local_argv(command), cwd=cwd)
        else:
            # Loaded here: the chat view imports this module, and a local session never needs ssh.
            from claude_tui.transport.ssh.argv import cli_command, ssh_argv

            # `sh` there: the login shell may be fish or csh, whose syntax the command is not in.
            remote = cli_command(["sh", "-c", _MERGED + command], cwd=cwd)
            self.process = CliProcess([*ssh_argv(ssh, master=False), remote.command])
            self._preamble = remote.stdin

    async def run(self, on_lines: Callable[[list[str]], None]) -> ShellResult:
        """Run to the end (or `stop`); `on_lines` gets the lines as they come, decoded, unfiltered."""
        process = self.process
        kept: list[str] = []
        size = cut = 0
        try:
            await process.start()
            if self._preamble:
                # The remote wrapper ends the command once our stdin closes: left open until it ends.
                await process.write(self._preamble)
            else:
                await process.close_stdin()  # nothing to read: a command that reads stdin sees EOF
            while (line := await process.read_line()) is not None:
                text = line.decode("utf-8", "replace")
                on_lines([text])
                clean = _ANSI.sub("", text)
                if size + len(clean) + 1 > OUTPUT_LIMIT:
                    cut += len(clean) + 1
                    continue
                kept.append(clean)
                size += len(clean) + 1
            code = await process.wait(5.0)
        finally:
            code_after = await process.close(grace=0.0, term_timeout=1.0)
        exit_code = code if code is not None else code_after
        return ShellResult(self.command, "\n".join(kept), exit_code, self._stopped, cut)

    async def stop(self) -> None:
        """Ctrl+C: end the command and its whole group now (the run then returns, `stopped`)."""
        self._stopped = True
        await self.process.close(grace=0.0, term_timeout=1.0)
