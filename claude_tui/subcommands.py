"""Script-friendly subcommands: sessions, search, export, config."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _sessions(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="claude-tui sessions", description="List past Claude Code sessions.")
    parser.add_argument("--all", action="store_true", help="all projects, not only the current directory's")
    parser.add_argument("--limit", type=int, default=50, metavar="N", help="at most N sessions (default 50)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--cwd", type=Path, default=Path("."), metavar="DIR", help="project directory (default .)")
    ns = parser.parse_args(argv)
    from claude_tui.history.commands import sessions_command

    return sessions_command(ns.all, ns.limit, ns.json, ns.cwd.resolve(), sys.stdout)


def _search(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="claude-tui search", description="Full-text search of past sessions.")
    parser.add_argument("query")
    parser.add_argument("--all", action="store_true", help="all projects, not only the current directory's")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--cwd", type=Path, default=Path("."), metavar="DIR", help="project directory (default .)")
    ns = parser.parse_args(argv)
    from claude_tui.history.commands import search_command

    return search_command(ns.query, ns.all, ns.json, ns.cwd.resolve(), sys.stdout)


def _export(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="claude-tui export", description="Print a session transcript.")
    parser.add_argument("session", metavar="SESSION",
                        help="a session id, a unique id prefix (4+ characters), its name or its title")
    parser.add_argument("--format", choices=("md", "json"), default="md")
    parser.add_argument("--cwd", type=Path, default=Path("."), metavar="DIR", help="project directory (default .)")
    ns = parser.parse_args(argv)
    from claude_tui.history.commands import export_command

    return export_command(ns.session, "markdown" if ns.format == "md" else "json", sys.stdout,
                          cwd=ns.cwd.resolve())


def _config(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="claude-tui config",
                                     description="Show where the config lives or what it holds.")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--path", action="store_true", help="print the config file's path")
    group.add_argument("--show", action="store_true", help="print the effective configuration")
    ns = parser.parse_args(argv)
    from claude_tui import paths
    from claude_tui.config import ConfigError, load_config, render_config

    if ns.path or not ns.show:
        print(paths.config_file())
        return 0
    try:
        print(render_config(load_config()), end="")
    except ConfigError as error:
        print(f"claude-tui: {error}", file=sys.stderr)
        return 2
    return 0


_COMMANDS = {"sessions": _sessions, "search": _search, "export": _export, "config": _config}


def run(name: str, argv: list[str]) -> int:
    # A transcript can hold text no encoding can print (a lone surrogate, or anything outside a
    # C-locale ASCII stdout): print a replacement character rather than die with UnicodeEncodeError.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    return _COMMANDS[name](argv)
