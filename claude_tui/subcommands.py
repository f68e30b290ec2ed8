"""Script-friendly subcommands: sessions, search, export, usage, config."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claude_tui.history.index import SessionIndex

_SSH_HELP = ("another machine's sessions, read over ssh: user@host, a Host alias, ssh://user@host:port or a "
             "`hosts` name from the config (--cwd is then a directory there; default: the host's cwd or home)")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cwd", metavar="DIR", help="project directory (default .)")
    parser.add_argument("--ssh", metavar="DEST", help=_SSH_HELP)


def _local_cwd(ns: argparse.Namespace) -> Path:
    return Path(ns.cwd or ".").expanduser().resolve()


def _local_root() -> Path | int:
    """The store this machine's CLI writes to (the config's cli_env can move it), or an exit status."""
    from claude_tui.config import ConfigError, load_config
    from claude_tui.history.paths import cli_config_root

    try:
        return cli_config_root(load_config().cli_env)
    except ConfigError as error:
        print(f"claude-tui: configuration problem:\n{error}", file=sys.stderr)
        return 2


def _sessions(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="claude-tui sessions", description="List past Claude Code sessions.")
    parser.add_argument("--all", action="store_true", help="all projects, not only the current directory's")
    parser.add_argument("--limit", type=int, default=50, metavar="N", help="at most N sessions (default 50)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _common(parser)
    ns = parser.parse_args(argv)
    from claude_tui.history.commands import sessions_command

    if ns.ssh is None:
        root = _local_root()
        return root if isinstance(root, int) else sessions_command(ns.all, ns.limit, ns.json, _local_cwd(ns),
                                                                   sys.stdout, root=root)
    return _on_remote_index(ns, lambda cwd, index: sessions_command(ns.all, ns.limit, ns.json, cwd, sys.stdout,
                                                                    index=index))


def _search(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="claude-tui search", description="Full-text search of past sessions.")
    parser.add_argument("query")
    parser.add_argument("--all", action="store_true", help="all projects, not only the current directory's")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _common(parser)
    ns = parser.parse_args(argv)
    from claude_tui.history.commands import search_command

    if ns.ssh is None:
        root = _local_root()
        return root if isinstance(root, int) else search_command(ns.query, ns.all, ns.json, _local_cwd(ns),
                                                                 sys.stdout, root=root)
    return _on_remote_index(ns, lambda cwd, index: search_command(ns.query, ns.all, ns.json, cwd, sys.stdout,
                                                                  index=index))


def _on_remote_index(ns: argparse.Namespace, run: Callable[[Path, SessionIndex], int]) -> int:
    """`run` against the `--ssh` machine's store, mirrored here (its directory, or the asked one with --all)."""
    from claude_tui.remote.commands import open_remote_store

    store = open_remote_store(ns.ssh, ns.cwd)
    if isinstance(store, int):
        return store
    cwd = Path(store.cwd or store.asked_cwd) if ns.all else store.require_cwd()
    if cwd is None:
        return 1
    with store.index() as index:
        return run(cwd, index)


def _export(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="claude-tui export", description="Print a session transcript.")
    parser.add_argument("session", metavar="SESSION",
                        help="a session id, a unique id prefix (4+ characters), its name or its title")
    parser.add_argument("--format", choices=("md", "json"), default="md")
    _common(parser)
    ns = parser.parse_args(argv)
    from claude_tui.history.commands import export_command

    fmt = "markdown" if ns.format == "md" else "json"
    if ns.ssh is None:
        root = _local_root()
        return root if isinstance(root, int) else export_command(ns.session, fmt, sys.stdout, cwd=_local_cwd(ns),
                                                                 root=root)
    from claude_tui.remote.commands import open_remote_store

    store = open_remote_store(ns.ssh, ns.cwd)
    if isinstance(store, int):
        return store
    with store.index() as index:
        # The directory only ranks an id's project first: a missing one searches them all.
        return export_command(ns.session, fmt, sys.stdout, cwd=Path(store.cwd) if store.cwd else None,
                              root=store.machine.session_root(), index=index, list_command=store.list_command)


def _usage(argv: list[str]) -> int:
    from claude_tui.history.usage.command import parse_day, usage_command
    from claude_tui.history.usage.index import PERIODS

    parser = argparse.ArgumentParser(
        prog="claude-tui usage",
        description="Cost and tokens of every project's sessions, per period, split by model: the CLI's own "
                    "figures where a transcript records them, else list prices.")
    parser.add_argument("--by", choices=PERIODS, default="day", help="one row per day (default), week, month, "
                        "project directory, model or session")
    parser.add_argument("--since", metavar="DATE", help="from this local day on (YYYY-MM-DD)")
    parser.add_argument("--until", metavar="DATE", help="up to and including this local day (YYYY-MM-DD)")
    fmt = parser.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print one JSON object")
    fmt.add_argument("--csv", action="store_true", help="print the rows as CSV")
    parser.add_argument("--ssh", metavar="DEST", help=_SSH_HELP.split(" (--cwd")[0])
    ns = parser.parse_args(argv)
    try:
        since = parse_day(ns.since) if ns.since else None
        until = parse_day(ns.until) if ns.until else None
    except ValueError as error:
        parser.error(str(error))
    if since and until and since > until:
        parser.error(f"--since {since} is after --until {until}")
    out_format = "json" if ns.json else "csv" if ns.csv else "text"
    if ns.ssh is None:
        return usage_command(ns.by, since, until, out_format, sys.stdout)
    from claude_tui.remote.commands import open_remote_store

    store = open_remote_store(ns.ssh, None)
    if isinstance(store, int):
        return store
    with store.index() as index:
        return usage_command(ns.by, since, until, out_format, sys.stdout, index=index)


def _config(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="claude-tui config",
                                     description="Show where the config lives or what it holds.")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--path", action="store_true", help="print the config file's path")
    group.add_argument("--show", action="store_true", help="print the effective configuration")
    ns = parser.parse_args(argv)
    from claude_tui import paths
    from claude_tui.config import ConfigError, load_config, render_config
    from claude_tui.protocol.sanitize import printable_name

    if ns.path or not ns.show:
        print(printable_name(str(paths.config_file())))  # CLAUDE_TUI_CONFIG can hold anything
        return 0
    try:
        print(render_config(load_config()), end="")
    except ConfigError as error:
        print(f"claude-tui: {error}", file=sys.stderr)
        return 2
    return 0


_COMMANDS = {"sessions": _sessions, "search": _search, "export": _export, "usage": _usage, "config": _config}


def run(name: str, argv: list[str]) -> int:
    # A transcript can hold text no encoding can print (a lone surrogate, or anything outside a
    # C-locale ASCII stdout): print a replacement character rather than die with UnicodeEncodeError.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    return _COMMANDS[name](argv)
