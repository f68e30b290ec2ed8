"""The `claude-tui` command line: flags for the app plus script-friendly subcommands."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from claude_tui import __version__
from claude_tui.app_args import AppArgs
from claude_tui.cli_passthrough import PASSED_ON, claude_options

PERMISSION_MODES = ("default", "acceptEdits", "plan", "auto", "bypassPermissions", "dontAsk")
SUBCOMMANDS = ("sessions", "search", "export", "usage", "config")

_USAGE = """\
%(prog)s [options] [Claude Code options] [PROMPT] [-- claude arguments]
       %(prog)s {sessions,search,export,usage,config} ..."""

_DESCRIPTION = """\
A full-screen, keyboard-driven terminal UI for the Claude Code CLI.

claude-tui starts `claude` in stream-json mode and shows the conversation:
streaming answers, thinking, tool calls with diffs, permission dialogs,
tasks and subagents, cost and context, and your past sessions.
"""

_EPILOG = """\
subcommands (for scripts):
  claude-tui sessions [--all] [--limit N] [--json]   list past sessions
  claude-tui search QUERY [--all] [--json]           full-text search of sessions
  claude-tui export SESSION [--format md|json]       print a transcript (by id, name or title)
  claude-tui usage [--by day|week|month|project|model|session] [--since DATE] [--until DATE] [--json|--csv]
                                                     cost and tokens per period, split by model
    (each also takes --ssh DEST: another machine's sessions)
  claude-tui config [--path | --show]                where the config lives / what it holds

examples:
  claude-tui --demo                      try it with no account (a scripted CLI)
  claude-tui "fix the failing test"      start with that prompt, as `claude "…"` does
  claude-tui --cwd ~/src/app --model opus
  claude-tui --resume                    pick a past session to resume
  claude-tui --continue                  resume the newest session of this directory
  claude-tui --worktree fix-login        work in a new git worktree on branch worktree-fix-login
  claude-tui --mcp-config servers.json   Claude Code's own session options are passed on to it
  claude-tui -- --max-turns 5            pass any other arguments to claude as they are
  claude-tui --ssh me@devbox --cwd /srv/app   run Claude Code on another machine over ssh
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="claude-tui",
        usage=_USAGE,
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"claude-tui {__version__}")
    session = parser.add_argument_group("session")
    session.add_argument("--cwd", metavar="DIR", type=Path,
                         help="working directory of the session (default: .)")
    session.add_argument("--model", metavar="MODEL", help="model for the session, e.g. sonnet or opus")
    session.add_argument("--permission-mode", choices=PERMISSION_MODES, metavar="MODE",
                         help="one of: " + ", ".join(PERMISSION_MODES))
    session.add_argument("-r", "--resume", metavar="ID", nargs="?", const="",
                         help="resume a session by id, unique id prefix (4+ characters), name or title;"
                              " without ID, open the session browser")
    session.add_argument("-c", "--continue", dest="continue_session", action="store_true",
                         help="resume the newest session of the working directory")
    session.add_argument("--fork", "--fork-session", action="store_true",
                         help="with --resume/--continue: continue in a new session id")
    session.add_argument("-w", "--worktree", metavar="NAME", nargs="?", const="",
                         help="run the session in a new git worktree (branch worktree-NAME, beside the "
                              "repository; NAME generated if omitted); on quit, keep or remove it")
    session.add_argument("--add-dir", metavar="DIR", action="append", default=[], dest="add_dirs",
                         help="give Claude access to another directory (repeatable)")
    session.add_argument("--ssh", metavar="DEST",
                         help="run Claude Code on another machine over ssh: user@host, a Host alias from "
                              "~/.ssh/config, ssh://user@host:port, or the name of a `hosts` entry in the config "
                              "(--cwd, --add-dir, --claude-path are then paths there)")
    app = parser.add_argument_group("app")
    app.add_argument("--claude-path", metavar="PATH", help="the claude binary to run")
    app.add_argument("--demo", action="store_true",
                     help="run against a bundled scripted CLI: no account or network needed")
    app.add_argument("--debug-log", metavar="FILE", type=Path,
                     help="write every raw protocol line (both ways, timestamped) to FILE")
    # Not arguments argparse parses (`claude_options` checks the words it did not know): listed so
    # that --help says they are taken, as `claude --help` lists them.
    parser.add_argument_group(
        "Claude Code options (passed on to claude as typed, values and all)",
        textwrap.fill(" ".join(sorted(PASSED_ON, key=lambda option: option.lstrip("-").lower())), width=76,
                      break_on_hyphens=False))
    return parser


def parse_app_args(argv: Sequence[str]) -> AppArgs:
    from claude_tui.protocol.sanitize import printable_name

    argv = list(argv)
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1 :]
    parser = build_parser()
    ns, unknown = parser.parse_known_args(argv)
    passed, prompt, problem = claude_options(unknown)
    if problem is not None:
        parser.error(printable_name(problem))
    extra = passed + extra
    explicit_cwd = ns.cwd is not None
    ns.cwd = ns.cwd if explicit_cwd else Path(".")
    if ns.ssh is not None:
        _check_ssh(parser, ns)
        cwd = ns.cwd  # a path on the remote machine: "." is the login's home there
    else:
        cwd = ns.cwd.expanduser().resolve()
        if not cwd.is_dir():
            parser.error(f"--cwd {printable_name(str(ns.cwd))}: not a directory")
    if ns.fork and ns.resume is None and not ns.continue_session:
        parser.error("--fork needs --resume or --continue")
    if ns.resume is not None and ns.continue_session:
        parser.error("--resume and --continue cannot be combined")
    if ns.worktree is not None and (ns.resume is not None or ns.continue_session or ns.demo):
        parser.error("--worktree starts a new session in a new worktree: no --resume, --continue or --demo")
    if ns.worktree is not None and ns.ssh is not None:
        parser.error("--worktree works on this machine's repository: it cannot be combined with --ssh")
    return AppArgs(
        cwd=cwd,
        explicit_cwd=explicit_cwd,
        model=ns.model,
        permission_mode=ns.permission_mode,
        resume=ns.resume,
        continue_session=ns.continue_session,
        fork=ns.fork,
        # Over ssh these are paths there: not resolved here.
        add_dirs=list(ns.add_dirs) if ns.ssh is not None
        else [str(Path(d).expanduser().resolve()) for d in ns.add_dirs],
        claude_path=ns.claude_path,
        demo=ns.demo,
        debug_log=ns.debug_log,
        extra_args=extra,
        worktree=ns.worktree,
        ssh=ns.ssh,
        prompt=prompt,
    )


def _check_ssh(parser: argparse.ArgumentParser, ns: argparse.Namespace) -> None:
    from claude_tui.transport.ssh.argv import parse_destination

    if ns.demo:
        parser.error("--ssh and --demo cannot be combined")
    try:
        parse_destination(ns.ssh)
    except ValueError as error:
        parser.error(f"--ssh: {error}")


def _run_subcommand(name: str, argv: list[str]) -> int:
    from claude_tui import subcommands

    return subcommands.run(name, argv)


def main(argv: Sequence[str] | None = None) -> int:
    from claude_tui import inert_stderr

    inert_stderr.install()  # every message below may quote an argument, a path or the environment
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        return _run_subcommand(args[0], args[1:])
    app_args = parse_app_args(args)
    from claude_tui.ui.app.launch import run_app

    return run_app(app_args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
