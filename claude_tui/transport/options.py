"""What to run: `CliOptions`, the argv and the environment for the CLI."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claude_tui.transport.ssh.target import SshTarget

from claude_tui.transport.locate import find_claude, installed_version

__all__ = ["BASE_FLAGS", "CliOptions", "build_argv", "build_env", "hook_events_apply", "thinking_display_applies"]

# The stream-json duplex mode; `--permission-prompt-tool stdio` routes
# permission prompts to us as `can_use_tool` control requests.
BASE_FLAGS: tuple[str, ...] = (
    "--output-format",
    "stream-json",
    "--input-format",
    "stream-json",
    "--verbose",
    "--include-partial-messages",
    "--permission-prompt-tool",
    "stdio",
)


@dataclass
class CliOptions:
    cwd: str | None = None
    model: str | None = None
    permission_mode: str | None = None
    """Always passed (`default` when None): CLIs 2.1.285 to 2.1.301 start stream-json sessions in
    `auto` otherwise, where tools run without asking."""
    thinking_display: str | None = None
    """`summarized` or `omitted` (`--thinking-display`), passed only to CLIs that accept it."""
    resume: str | None = None
    continue_session: bool = False
    fork_session: bool = False
    resume_session_at: str | None = None
    """With `resume`: load the session only up to this message's uuid (`--resume-session-at`, a
    rewind of the conversation); what came after stays in the transcript as a branch."""
    add_dirs: list[str] = field(default_factory=list)
    max_turns: int | None = None
    max_budget_usd: float | None = None
    extra_args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    enable_todo_tools: bool = True
    file_checkpoints: bool = True
    """Let the CLI snapshot files before edits, and echo our prompts with their ids, so a prompt's
    file changes can be rewound (`rewind_files`)."""
    claude_path: str | None = None
    # An argv prefix used instead of the binary (the fake CLI in tests/demo:
    # `claude_tui.fakecli.command()`); when set, the binary is not located.
    command: list[str] | None = None
    # Run the CLI on another machine over ssh (`transport/ssh/argv.py` wraps the argv built below);
    # cwd, claude_path and add_dirs are then paths on that machine.
    ssh: SshTarget | None = None


def build_argv(opts: CliOptions, binary: str | Sequence[str]) -> list[str]:
    """The full argv: ``binary`` (a path, or an argv prefix) + base flags + options."""
    argv = [binary] if isinstance(binary, str) else list(binary)
    argv += BASE_FLAGS
    if opts.file_checkpoints:
        # The echo carries each prompt's uuid: the id a rewind names.
        argv += ["--replay-user-messages"]
    if opts.model:
        argv += ["--model", opts.model]
    argv += ["--permission-mode", opts.permission_mode or "default"]
    if hook_events_apply(opts, binary):
        # Each hook's runs in the stream, shown on the call or turn they ran for (`session/hooks.py`).
        argv += ["--include-hook-events"]
    if opts.thinking_display and thinking_display_applies(opts, binary):
        argv += ["--thinking-display", opts.thinking_display]
    if opts.resume:
        argv += ["--resume", opts.resume]
    elif opts.continue_session:
        argv += ["--continue"]
    if opts.fork_session and (opts.resume or opts.continue_session):
        argv += ["--fork-session"]
    if opts.resume and opts.resume_session_at:
        argv += ["--resume-session-at", opts.resume_session_at]
    for d in opts.add_dirs:
        # One flag per directory: `--add-dir` is variadic, so a bare list
        # followed by another option could swallow it.
        argv += ["--add-dir", str(d)]
    if opts.max_turns is not None:
        argv += ["--max-turns", str(int(opts.max_turns))]
    if opts.max_budget_usd is not None:
        argv += ["--max-budget-usd", f"{float(opts.max_budget_usd):g}"]
    argv += [str(a) for a in opts.extra_args]
    return argv


def thinking_display_applies(opts: CliOptions, binary: str | Sequence[str]) -> bool:
    """Whether `--thinking-display` can go to this CLI: older ones exit on a flag they do not know."""
    from claude_tui.protocol.versions import accepts_thinking_display  # not at import: options stays light

    return _flag_applies(opts, binary, accepts_thinking_display)


def hook_events_apply(opts: CliOptions, binary: str | Sequence[str]) -> bool:
    """Whether `--include-hook-events` can go to this CLI (2.0.77 exits on it)."""
    from claude_tui.protocol.versions import accepts_hook_events

    return _flag_applies(opts, binary, accepts_hook_events)


def _flag_applies(opts: CliOptions, binary: str | Sequence[str], accepts: Callable[[object], bool]) -> bool:
    if opts.command is not None or not isinstance(binary, str):
        return opts.command is not None  # the fake CLI takes anything
    return accepts(installed_version(binary))


def build_env(opts: CliOptions, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The user's environment, fit for a child CLI.

    ``CLAUDECODE`` is removed: the CLI sets it for its own children and
    refuses/changes behaviour when it thinks it runs nested inside itself
    (which it would if claude-tui is started from a Claude Code shell).
    """
    env = dict(os.environ if base is None else base)
    env.pop("CLAUDECODE", None)
    if opts.enable_todo_tools:
        env["CLAUDE_CODE_ENABLE_TODO_TOOLS"] = "1"
    if opts.file_checkpoints:
        env["CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"] = "true"
    env.update({str(k): str(v) for k, v in opts.env.items()})
    return env


def local_command(opts: CliOptions) -> tuple[list[str], dict[str, str]]:
    """The argv and environment that run the CLI for `opts` on this machine (the early start at
    launch, `transport/early.py`, is adopted only if it used exactly these)."""
    prefix: list[str] | str = list(opts.command) if opts.command else find_claude(opts.claude_path)
    return build_argv(opts, prefix), build_env(opts)
